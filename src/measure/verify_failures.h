/* verify_failures.h - the failures a job result keeps: what a verify
 * found wrong in one unit (or a range past the end of a short file), kept
 * among the first VERIFY_FAILURES_KEPT of a result and all counted. The
 * verify layer above finds them; results, their merges and every output
 * carry them. */
#ifndef DRIVEBENCH_MEASURE_VERIFY_FAILURES_H
#define DRIVEBENCH_MEASURE_VERIFY_FAILURES_H

#include <stdint.h>

#define VERIFY_FAILURES_KEPT 1000       /* per job result; all are counted */

struct job_result;

enum verify_verdict {
	VERIFY_OK,
	VERIFY_NEVER_WRITTEN,    /* no magic: never written by drivebench */
	VERIFY_HEADER_CORRUPT,   /* magic, but the header checksum is wrong */
	VERIFY_STALE,            /* valid header of another run (other seed) */
	VERIFY_MISDIRECTED,      /* our seed, but written for another offset */
	VERIFY_LOST_WRITE,       /* our seed and offset, an older sequence */
	VERIFY_TORN,             /* payload right up to a sector, wrong after */
	VERIFY_CORRUPT,          /* payload wrong from bad_offset on */
	VERIFY_MISSING,          /* past the end of the target (a short file) */
	VERIFY_VERDICTS
};

/* One unit that failed, or (VERIFY_MISSING) the range [offset, offset +
 * len) past the end of a short file, which covers units units. Fields
 * from the header are 0 when no valid header was found; expected_seq is 0
 * when unknown (drivebench verify). No padding: copied and compared as
 * they are. */
struct verify_failure {
	uint64_t offset;             /* the unit's byte offset on the target */
	uint64_t len;                /* unit length (missing: the range's) */
	uint64_t units;              /* 1 (missing: the range's units) */
	uint64_t expected_seq, found_seq;
	uint64_t found_offset, found_seed;
	uint64_t bad_offset;         /* first wrong byte (torn: the sector) */
	enum verify_verdict verdict;
	int16_t expected_byte, found_byte;   /* at bad_offset; -1 when none */
};

_Static_assert(sizeof(struct verify_failure) == 72, "verify failure layout");

/* Counts f's units (f->units, 0 taken as 1) as failed in r and keeps f
 * among the first VERIFY_FAILURES_KEPT. -1 (err_msg) when out of memory. */
int verify_result_add(struct job_result *r, const struct verify_failure *f);

/* Failed units that no kept failure covers (counted past
 * VERIFY_FAILURES_KEPT): what the outputs say was not listed. */
uint64_t verify_unlisted(uint64_t failed, const struct verify_failure *kept, unsigned nr);

/* Appends src's kept failures to dst's (up to the limit); counts are the
 * caller's. -1 when out of memory, dst unchanged. */
int verify_result_copy(struct job_result *dst, const struct job_result *src);

#endif
