/* verify.h - data verification (fio's verify=METHOD): the header every
 * verify unit of a written block carries (the method's digest after it),
 * the payload made from (seed, offset, sequence) or from verify_pattern,
 * the verdict of reading a unit back, the map of what this run wrote
 * where, and the failures kept in a job's result. The format and the
 * verdicts are described in docs/verify.md. */
#ifndef DRIVEBENCH_VERIFY_H
#define DRIVEBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job_spec.h"
#include "measure/verify_failures.h"

#define VERIFY_MAGIC 0x46564244u        /* "DBVF" as little-endian bytes */
#define VERIFY_HEADER_VERSION 1         /* crc32c: the checksum in payload_crc */
#define VERIFY_HEADER_VERSION_METHOD 2  /* other methods: the method in
					 * reserved, the digest after byte 48 */
#define VERIFY_HEADER_BYTES 48
#define VERIFY_UNIT_MIN 64              /* header plus some payload */
#define VERIFY_SECTOR 512               /* granularity of a torn write */
#define VERIFY_READ_BYTES (1u << 20)    /* verify-pass reads, at most */

/* The start of every unit, stored little-endian (the host order on x86-64
 * and arm64). header_crc covers the bytes before it. */
struct verify_header {
	uint32_t magic;
	uint16_t version;
	uint16_t header_len;     /* VERIFY_HEADER_BYTES */
	uint32_t unit_len;       /* bytes of the unit, header included */
	uint32_t payload_crc;    /* crc32c of the unit's bytes after the header */
	uint64_t offset;         /* the unit's byte offset on the target */
	uint64_t seed;           /* the run's verify seed */
	uint64_t seq;            /* write sequence number (per job clone) */
	uint32_t reserved;       /* version 1: 0; version 2: the method */
	uint32_t header_crc;     /* crc32c of the 44 bytes above */
};

_Static_assert(sizeof(struct verify_header) == VERIFY_HEADER_BYTES,
	       "verify header layout");


/* "ok", "never written", "header corrupt", "stale", "misdirected",
 * "lost write", "torn", "corrupt", "missing"; parse returns -1 for anything else. */
const char *verify_verdict_name(enum verify_verdict v);
int verify_verdict_parse(const char *name);

/* The unit of a job: verify_interval, or the job's smallest block size. */
uint64_t verify_unit(const struct job_spec *spec);

/* Cross-checks of the verify options against the rest of the job (unit
 * size, block sizes and blockalign multiples of the unit, a seed for jobs
 * that only read). 0 when verify is off. Errors name the option. */
int verify_spec_check(const struct job_spec *spec);

/* Turns a job into its standalone verification (drivebench verify, fio's
 * verify_only): sequential reads of the job's region in units of the
 * original job's unit, never writing. Needs verify_seed. */
int verify_only_convert(struct job_spec *spec);

/* --- units ------------------------------------------------------------- */

/* How a job lays out its units: the method (and so the header's length),
 * the payload's source (the seeded generator, or verify_pattern with each
 * %o the unit's offset), where the header is stored (verify_offset swaps
 * it with the payload bytes there) and which header checks apply. */
struct verify_format {
	enum verify_kind method;
	uint32_t header_len;         /* 0 (verify=pattern), 48 (crc32c, meta,
				      * pattern_hdr) or 48 + the digest's room */
	uint32_t digest_len;
	uint32_t header_at;          /* verify_offset; 0 = at the start */
	const unsigned char *pattern;/* NULL: the seeded generator */
	unsigned pattern_len;
	const unsigned *pattern_fmt; /* %o positions in the pattern */
	unsigned nr_fmt;
	bool check_seq;              /* verify_write_sequence: lost writes */
	bool check_seed;             /* verify_header_seed: stale units */
	bool plain;                  /* crc32c, generated, header first: the
				      * functions without a format do it */
};

/* crc32c, generated payload, header first, every check: what the
 * functions without a format use. */
extern const struct verify_format verify_format_default;

/* The format of spec's units (its pattern is referenced, not copied). */
void verify_format_of(const struct job_spec *spec, struct verify_format *f);

/* Bytes before the payload for method: 0 for pattern, 48 for crc32c, meta
 * and pattern_hdr, 48 + the digest rounded up to 8 for the others. */
uint32_t verify_header_len(enum verify_kind method);

void verify_fill_unit_fmt(const struct verify_format *fmt, void *buf, uint32_t unit,
			  uint64_t offset, uint64_t seed, uint64_t seq);
void verify_fill_range_fmt(const struct verify_format *fmt, void *buf, uint64_t offset,
			   uint64_t len, uint64_t base, uint32_t unit, uint64_t seed,
			   uint64_t seq);
/* buf is the unit as read; with a verify_offset it is swapped to check it
 * and swapped back. */
enum verify_verdict verify_check_unit_fmt(const struct verify_format *fmt, void *buf,
					  uint32_t unit, uint64_t offset, uint64_t seed,
					  uint64_t expected_seq, struct verify_failure *f);
/* The unit as written, header first (verify_dump's .expected), and a read
 * unit put back in that order (its .received). */
void verify_expected_unit(const struct verify_format *fmt, void *buf, uint32_t unit,
			  uint64_t offset, uint64_t seed, uint64_t seq);
void verify_logical_copy(const struct verify_format *fmt, void *dst, const void *src,
			 uint32_t unit);

/* Writes one whole unit image (header and payload) into buf. */
void verify_fill_unit(void *buf, uint32_t unit, uint64_t offset,
		      uint64_t seed, uint64_t seq);

/* Fills buf with the bytes that belong at target offsets [offset,
 * offset + len) when every unit of the grid base + k * unit there is
 * written with (seed, seq). Whole units are built in place; a unit cut by
 * the range (a short transfer's rest) gets just its slice. */
void verify_fill_range(void *buf, uint64_t offset, uint64_t len, uint64_t base,
		       uint32_t unit, uint64_t seed, uint64_t seq);

/* Checks one unit read from offset. expected_seq 0 = any sequence. Fills
 * *f (always) and returns its verdict. */
enum verify_verdict verify_check_unit(const void *buf, uint32_t unit,
				      uint64_t offset, uint64_t seed,
				      uint64_t expected_seq, struct verify_failure *f);

/* --- per job clone ------------------------------------------------------ */

/* What a worker keeps for verification. map[k] holds the low 32 bits of
 * the sequence of the last write of unit k that completed (0 = not written
 * in this run); the full number is recovered from the current one. */
struct verify_ctx {
	struct verify_format fmt;
	uint32_t unit;
	uint64_t seed;
	uint64_t seq;                /* last sequence number handed out */
	uint64_t base, nr_units;     /* unit k starts at base + k * unit */
	uint32_t *map;               /* NULL: check every unit read */
	uint64_t data_end;           /* the target's data ends here (verify_only
				      * of a short file); the range's end else */
	bool fatal;                  /* verify_fatal: stop at the first failure */
	uint64_t *backlog_offset;    /* verify_backlog: writes to read back */
	uint64_t *backlog_len;
	unsigned backlog_nr, backlog_cap;
};

/* Bytes verify_ctx_init allocates for a clone with this range: the map
 * (4 bytes per unit, jobs that write) and the backlog (16 per entry). */
uint64_t verify_memory_bytes(const struct job_spec *spec, uint64_t range_len);

int verify_ctx_init(struct verify_ctx *v, const struct job_spec *spec,
		    uint64_t seed, uint64_t range_start, uint64_t range_len);
void verify_ctx_free(struct verify_ctx *v);

/* Fills buf with the write of [offset, offset + len) with seq, in the
 * ctx's format (inline: crc32c's path costs what it did before formats). */
static inline void verify_ctx_fill(const struct verify_ctx *v, void *buf, uint64_t offset,
				   uint64_t len, uint64_t seq)
{
	if (v->fmt.plain)
		verify_fill_range(buf, offset, len, v->base, v->unit, v->seed, seq);
	else
		verify_fill_range_fmt(&v->fmt, buf, offset, len, v->base, v->unit, v->seed, seq);
}

/* The next write sequence number (never 0 in its low 32 bits). */
uint64_t verify_next_seq(struct verify_ctx *v);

/* A write of [offset, offset + len) with seq completed: every unit it
 * touches now holds seq. */
void verify_mark_written(struct verify_ctx *v, uint64_t offset, uint64_t len,
			 uint64_t seq);

/* The sequence unit k was last written with in this run, 0 if none. */
uint64_t verify_expected_seq(const struct verify_ctx *v, uint64_t k);

/* The target's data ends at data_end (verify_only of a file shorter than
 * the range): units not wholly before it are missing, never read. */
void verify_ctx_set_data_end(struct verify_ctx *v, uint64_t data_end);

/* Units wholly before data_end: the ones a verify pass reads. */
uint64_t verify_present_units(const struct verify_ctx *v);

/* The units of [offset, offset + len) due to be checked: the whole units
 * this run wrote there (all of them without a map). */
uint64_t verify_due_units(const struct verify_ctx *v, uint64_t offset, uint64_t len);

/* The missing range of a short file as one failure ([max(data_end, base),
 * range end), f->units the units not wholly there); false (f untouched)
 * when the data is all there. */
bool verify_missing(const struct verify_ctx *v, struct verify_failure *f);

struct job_result;

/* Checks the whole units inside a completed read of [offset, offset + len)
 * held in buf (units this run wrote, or all of them without a map); counts
 * them in r->verify_checked and records failures. A failed unit is taken
 * out of the map, so a later pass does not report it again (until it is
 * written again). planned: the read's units were counted in
 * r->verify_units when it was issued (a verify pass or the backlog), and a
 * unit taken out since then is taken off there too; otherwise (a read of
 * the workload) each unit checked is counted there now. With v->fatal the
 * check stops at the first failure. Returns the number of failures, or -1
 * (err_msg) when out of memory. */
int verify_check_read(struct verify_ctx *v, void *buf, uint64_t offset,
		      uint64_t len, bool planned, struct job_result *r);




/* True when r verified (its job had verify on, or it counted checks):
 * the outputs then show its verify line or object. */
bool verify_result_present(const struct job_result *r);

/* Why a result failed, in err_msg, for callers that report one line (suite
 * steps): "verify failed: 3 bad, checked 256 of 256 units; the first
 * corrupt at offset 8192" (with "(verify_fatal=1 stopped at the first)"
 * after the counts when it did), else "I/O error: <strerror> (read at offset N)". Returns -1 when r
 * failed, 0 (err_msg untouched) when it did not. */
int verify_result_failure(const struct job_result *r);

/* A fresh random seed (getrandom). -1 with err_msg on failure. */
int verify_random_seed(uint64_t *seed);

#endif
