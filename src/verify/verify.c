/* verify.c - verify units: building a unit (header + payload from a fast
 * PRNG keyed by seed, offset and sequence), checking one read back and
 * naming what is wrong with it, the per-clone written map and backlog, the
 * verify options' cross-checks, and the failures kept in a job result. */
#include "verify/verify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "io/engine.h"
#include "measure/stats.h"
#include "util/error.h"
#include "verify/crc32c.h"
#include "workload/random.h"

#define GOLDEN 0x9E3779B97F4A7C15ull
#define HEADER_CRC_BYTES offsetof(struct verify_header, header_crc)

static const char *const verdict_names[VERIFY_VERDICTS] = {
	[VERIFY_OK] = "ok",
	[VERIFY_NEVER_WRITTEN] = "never written",
	[VERIFY_HEADER_CORRUPT] = "header corrupt",
	[VERIFY_STALE] = "stale",
	[VERIFY_MISDIRECTED] = "misdirected",
	[VERIFY_LOST_WRITE] = "lost write",
	[VERIFY_TORN] = "torn",
	[VERIFY_CORRUPT] = "corrupt",
	[VERIFY_MISSING] = "missing",
};

const char *verify_verdict_name(enum verify_verdict v)
{
	return (unsigned)v < VERIFY_VERDICTS ? verdict_names[v] : "unknown";
}

int verify_verdict_parse(const char *name)
{
	for (int v = 0; name && v < VERIFY_VERDICTS; v++)
		if (!strcmp(name, verdict_names[v]))
			return v;
	return -1;
}

/* ---- the payload --------------------------------------------------------- */


/* One key per written unit: a payload written for another seed, offset or
 * write differs from this one everywhere. */
static uint64_t payload_key(uint64_t seed, uint64_t offset, uint64_t seq)
{
	return mix64(seed ^ mix64(offset + GOLDEN) ^ mix64(seq * GOLDEN + 1));
}

/* Payload word i (bytes 8i .. 8i+7 after the header): splitmix64, which
 * can start at any word. */
static inline uint64_t payload_word(uint64_t key, uint64_t i)
{
	return mix64(key + (i + 1) * GOLDEN);
}

/* Payload bytes [from, from + len) (payload-relative) into dst. */
static void payload_bytes(unsigned char *dst, uint64_t key, uint64_t from, uint64_t len)
{
	uint64_t word_index = from / 8;
	unsigned skip = (unsigned)(from % 8);

	while (len) {
		uint64_t word = payload_word(key, word_index++);
		unsigned take = 8 - skip;

		if (take > len)
			take = (unsigned)len;
		memcpy(dst, (unsigned char *)&word + skip, take);
		dst += take;
		len -= take;
		skip = 0;
	}
}

static uint32_t payload_crc_of(uint64_t key, uint64_t len)
{
	unsigned char chunk[512];
	uint32_t crc = 0;

	for (uint64_t at = 0; at < len; at += sizeof(chunk)) {
		uint64_t n = len - at < sizeof(chunk) ? len - at : sizeof(chunk);

		payload_bytes(chunk, key, at, n);
		crc = crc32c(crc, chunk, n);
	}
	return crc;
}

static void header_make(struct verify_header *h, uint32_t unit, uint64_t offset,
			uint64_t seed, uint64_t seq, uint32_t payload_crc)
{
	memset(h, 0, sizeof(*h));
	h->magic = VERIFY_MAGIC;
	h->version = VERIFY_HEADER_VERSION;
	h->header_len = VERIFY_HEADER_BYTES;
	h->unit_len = unit;
	h->payload_crc = payload_crc;
	h->offset = offset;
	h->seed = seed;
	h->seq = seq;
	h->header_crc = crc32c(0, h, HEADER_CRC_BYTES);
}

void verify_fill_unit(void *buf, uint32_t unit, uint64_t offset,
		      uint64_t seed, uint64_t seq)
{
	unsigned char *p = buf;
	uint64_t key = payload_key(seed, offset, seq);
	uint32_t payload_len = unit - VERIFY_HEADER_BYTES;
	struct verify_header h;

	payload_bytes(p + VERIFY_HEADER_BYTES, key, 0, payload_len);
	header_make(&h, unit, offset, seed, seq,
		    crc32c(0, p + VERIFY_HEADER_BYTES, payload_len));
	memcpy(p, &h, sizeof(h));
}

/* Bytes [from, to) of a unit (unit-relative) into dst. */
static void unit_slice(unsigned char *dst, uint32_t unit, uint64_t offset,
		       uint64_t seed, uint64_t seq, uint64_t from, uint64_t to)
{
	uint64_t key = payload_key(seed, offset, seq);
	struct verify_header h;

	header_make(&h, unit, offset, seed, seq,
		    payload_crc_of(key, unit - VERIFY_HEADER_BYTES));
	if (from < VERIFY_HEADER_BYTES) {
		uint64_t end = to < VERIFY_HEADER_BYTES ? to : VERIFY_HEADER_BYTES;

		memcpy(dst, (unsigned char *)&h + from, end - from);
		dst += end - from;
		from = end;
	}
	if (from < to)
		payload_bytes(dst, key, from - VERIFY_HEADER_BYTES, to - from);
}

void verify_fill_range(void *buf, uint64_t offset, uint64_t len, uint64_t base,
		       uint32_t unit, uint64_t seed, uint64_t seq)
{
	unsigned char *out = buf;
	uint64_t end = offset + len, at = offset;

	while (at < end) {
		uint64_t unit_start = base + (at - base) / unit * unit;
		uint64_t unit_end = unit_start + unit;
		uint64_t stop = unit_end < end ? unit_end : end;

		if (at == unit_start && stop == unit_end)
			verify_fill_unit(out + (at - offset), unit, unit_start, seed, seq);
		else
			unit_slice(out + (at - offset), unit, unit_start, seed, seq,
				   at - unit_start, stop - unit_start);
		at = stop;
	}
}

/* ---- checking a unit ------------------------------------------------------ */

/* Payload-relative index of the first byte that differs from the payload
 * written with key, or len when none does. */
static uint64_t first_difference(const unsigned char *payload, uint64_t key, uint64_t len)
{
	for (uint64_t at = 0; at < len; at += 8) {
		uint64_t word = payload_word(key, at / 8);
		uint64_t n = len - at < 8 ? len - at : 8;

		if (memcmp(payload + at, &word, n)) {
			for (uint64_t b = 0; b < n; b++)
				if (payload[at + b] != ((unsigned char *)&word)[b])
					return at + b;
		}
	}
	return len;
}

/* A torn write leaves the old data from a sector boundary on: every sector
 * from there to the end differs from what was written in most of its
 * bytes (a flipped bit or byte differs in one). */
static bool looks_torn(const unsigned char *unit_buf, uint32_t unit, uint64_t key,
		       uint64_t first_bad)
{
	unsigned char expect[VERIFY_SECTOR];

	if (first_bad % VERIFY_SECTOR)
		return false;
	for (uint64_t s = first_bad; s < unit; s += VERIFY_SECTOR) {
		uint64_t n = unit - s < VERIFY_SECTOR ? unit - s : VERIFY_SECTOR;
		uint64_t differing = 0;

		payload_bytes(expect, key, s - VERIFY_HEADER_BYTES, n);
		for (uint64_t b = 0; b < n; b++)
			differing += unit_buf[s + b] != expect[b];
		if (differing * 2 <= n)
			return false;
	}
	return true;
}

static enum verify_verdict verdict(struct verify_failure *f, enum verify_verdict v)
{
	f->verdict = v;
	return v;
}

enum verify_verdict verify_check_unit(const void *buf, uint32_t unit,
				      uint64_t offset, uint64_t seed,
				      uint64_t expected_seq, struct verify_failure *f)
{
	const unsigned char *p = buf;
	const unsigned char *payload = p + VERIFY_HEADER_BYTES;
	uint32_t payload_len = unit - VERIFY_HEADER_BYTES;
	struct verify_header h;
	uint64_t key, bad;

	memset(f, 0, sizeof(*f));
	f->offset = offset;
	f->len = unit;
	f->units = 1;
	f->expected_seq = expected_seq;
	f->bad_offset = offset;
	f->expected_byte = f->found_byte = -1;
	memcpy(&h, p, sizeof(h));
	if (h.magic != VERIFY_MAGIC)
		return verdict(f, VERIFY_NEVER_WRITTEN);
	if (crc32c(0, &h, HEADER_CRC_BYTES) != h.header_crc ||
	    h.version != VERIFY_HEADER_VERSION || h.header_len != VERIFY_HEADER_BYTES)
		return verdict(f, VERIFY_HEADER_CORRUPT);
	f->found_seq = h.seq;
	f->found_offset = h.offset;
	f->found_seed = h.seed;
	if (h.seed != seed)
		return verdict(f, VERIFY_STALE);
	/* a unit of another length was laid out for other offsets */
	if (h.offset != offset || h.unit_len != unit)
		return verdict(f, VERIFY_MISDIRECTED);
	if (expected_seq && h.seq < expected_seq)
		return verdict(f, VERIFY_LOST_WRITE);
	if (crc32c(0, payload, payload_len) == h.payload_crc)
		return verdict(f, VERIFY_OK);
	key = payload_key(seed, offset, h.seq);
	bad = first_difference(payload, key, payload_len);
	if (bad == payload_len)   /* the payload is right; its checksum is not */
		return verdict(f, VERIFY_CORRUPT);
	f->bad_offset = offset + VERIFY_HEADER_BYTES + bad;
	f->found_byte = payload[bad];
	{
		unsigned char expect;

		payload_bytes(&expect, key, bad, 1);
		f->expected_byte = (int16_t)expect;
	}
	if (looks_torn(p, unit, key, VERIFY_HEADER_BYTES + bad))
		return verdict(f, VERIFY_TORN);
	return verdict(f, VERIFY_CORRUPT);
}

/* ---- options ---------------------------------------------------------------- */

uint64_t verify_unit(const struct job_spec *spec)
{
	return spec->verify_interval ? spec->verify_interval : job_spec_min_bs(spec);
}

static bool direction_used(const struct job_spec *spec, int dir)
{
	return dir == DIR_READ ? job_spec_reads(spec) : job_spec_writes(spec);
}

static int check_multiple(uint64_t size, uint64_t unit, const char *option)
{
	if (size % unit)
		return err_set("option '%s': with verify, %llu is not a multiple of the verify unit %llu",
			       option, (unsigned long long)size, (unsigned long long)unit);
	return 0;
}

int verify_spec_check(const struct job_spec *spec)
{
	uint64_t unit = verify_unit(spec);
	const struct engine_ops *ops;

	if (spec->verify == VERIFY_NONE)
		return 0;
	/* an engine that keeps no data (null, cpuio, ftruncate ..., or a
	 * fault engine wrapping one); an unknown engine is the runner's error */
	ops = engine_find(spec->ioengine);
	if (!ops)
		err_clear();
	else if (!engine_needs_fd(ops) && engine_base(spec->ioengine) == &engine_null)
		return err_set("option 'verify': the null engine keeps no data to verify");
	else if (!engine_has(ops, ENGINE_KEEPS_DATA))
		return err_set("option 'verify': ioengine=%s keeps no data to verify",
			       spec->ioengine);
	if (unit < VERIFY_UNIT_MIN)
		return err_set("option 'verify': the verify unit of %llu bytes is below the minimum of %d (header %d bytes)",
			       (unsigned long long)unit, VERIFY_UNIT_MIN, VERIFY_HEADER_BYTES);
	if (unit > UINT32_MAX)
		return err_set("option 'verify': the verify unit of %llu bytes is above 4 GiB",
			       (unsigned long long)unit);
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!direction_used(spec, d))
			continue;
		if (spec->bssplit_nr[d] == 0 &&
		    check_multiple(spec->bs[d], unit, "bs"))
			return -1;
		for (unsigned i = 0; i < spec->bssplit_nr[d]; i++)
			if (spec->bssplit[d][i].pct > 0 &&
			    check_multiple(spec->bssplit[d][i].bs, unit, "bssplit"))
				return -1;
		if (spec->blockalign[d] && check_multiple(spec->blockalign[d], unit, "blockalign"))
			return -1;
	}
	if (!job_spec_writes(spec) && !spec->verify_seed_set)
		return err_set("option 'verify': a job that only reads checks data an earlier run wrote: give that run's verify_seed (see drivebench verify)");
	return 0;
}

int verify_only_convert(struct job_spec *spec)
{
	uint64_t unit = verify_unit(spec);

	if (spec->verify == VERIFY_NONE)
		spec->verify = VERIFY_CRC32C;
	if (!spec->verify_seed_set)
		return err_set("job '%s': verifying needs the seed of the run that wrote the data (--seed N or --run ID)",
			       spec->name);
	spec->verify_interval = unit;
	spec->verify_only = true;
	spec->rw = RW_READ;
	spec->bssplit_nr[DIR_READ] = spec->bssplit_nr[DIR_WRITE] = 0;
	spec->bs[DIR_READ] = spec->bs[DIR_WRITE] = unit;
	spec->blockalign[DIR_READ] = spec->blockalign[DIR_WRITE] = 0;
	spec->io_size = 0;
	spec->time_based = false;
	spec->runtime_ns = 0;
	spec->ramp_ns = 0;
	spec->fsync_every = 0;
	spec->end_fsync = false;
	spec->verify_backlog = 0;
	if (verify_spec_check(spec))
		return err_prefix("job '%s'", spec->name);
	return 0;
}

/* ---- per clone ---------------------------------------------------------------- */

uint64_t verify_memory_bytes(const struct job_spec *spec, uint64_t range_len)
{
	uint64_t unit = verify_unit(spec), bytes = 0;

	if (spec->verify == VERIFY_NONE || unit == 0)
		return 0;
	if (job_spec_writes(spec) && !spec->verify_only)
		bytes += range_len / unit * sizeof(uint32_t);
	bytes += (uint64_t)spec->verify_backlog * 2 * sizeof(uint64_t);
	return bytes;
}

int verify_ctx_init(struct verify_ctx *v, const struct job_spec *spec,
		    uint64_t seed, uint64_t range_start, uint64_t range_len)
{
	uint64_t unit = verify_unit(spec);

	memset(v, 0, sizeof(*v));
	if (unit < VERIFY_UNIT_MIN || unit > UINT32_MAX)
		return err_set("job '%s': bad verify unit %llu", spec->name,
			       (unsigned long long)unit);
	v->unit = (uint32_t)unit;
	v->seed = seed;
	v->base = range_start;
	v->nr_units = range_len / unit;
	v->data_end = range_start + range_len;
	v->fatal = spec->verify_fatal;
	if (job_spec_writes(spec) && !spec->verify_only) {
		if (v->nr_units > SIZE_MAX / sizeof(*v->map))
			return err_set("job '%s': verify map too large", spec->name);
		v->map = calloc(v->nr_units ? v->nr_units : 1, sizeof(*v->map));
		if (!v->map)
			return err_set("job '%s': cannot allocate the verify map (%llu units x %zu bytes)",
				       spec->name, (unsigned long long)v->nr_units,
				       sizeof(*v->map));
	}
	if (spec->verify_backlog) {
		v->backlog_cap = spec->verify_backlog;
		v->backlog_offset = calloc(v->backlog_cap, sizeof(*v->backlog_offset));
		v->backlog_len = calloc(v->backlog_cap, sizeof(*v->backlog_len));
		if (!v->backlog_offset || !v->backlog_len) {
			verify_ctx_free(v);
			return err_set("job '%s': cannot allocate verify_backlog=%u",
				       spec->name, spec->verify_backlog);
		}
	}
	return 0;
}

void verify_ctx_free(struct verify_ctx *v)
{
	free(v->map);
	free(v->backlog_offset);
	free(v->backlog_len);
	v->map = NULL;
	v->backlog_offset = v->backlog_len = NULL;
	v->backlog_nr = v->backlog_cap = 0;
}

uint64_t verify_next_seq(struct verify_ctx *v)
{
	if ((uint32_t)++v->seq == 0)   /* 0 in the map means "not written" */
		++v->seq;
	return v->seq;
}

void verify_mark_written(struct verify_ctx *v, uint64_t offset, uint64_t len,
			 uint64_t seq)
{
	uint64_t first, last;

	if (!v->map || !len || offset + len <= v->base)
		return;
	first = offset > v->base ? (offset - v->base) / v->unit : 0;
	last = (offset + len - 1 - v->base) / v->unit;
	if (last >= v->nr_units)
		last = v->nr_units - 1;
	for (uint64_t k = first; k <= last && k < v->nr_units; k++)
		v->map[k] = (uint32_t)seq;
}

uint64_t verify_expected_seq(const struct verify_ctx *v, uint64_t k)
{
	uint32_t low;

	if (!v->map || k >= v->nr_units || !(low = v->map[k]))
		return 0;
	/* the newest sequence up to v->seq whose low 32 bits are low */
	return v->seq - (uint32_t)((uint32_t)v->seq - low);
}

void verify_ctx_set_data_end(struct verify_ctx *v, uint64_t data_end)
{
	uint64_t end = v->base + v->nr_units * v->unit;

	v->data_end = data_end < v->base ? v->base : data_end > end ? end : data_end;
}

uint64_t verify_present_units(const struct verify_ctx *v)
{
	return (v->data_end - v->base) / v->unit;
}

/* The units wholly inside [offset, offset + len), as [*first, *end). */
static void units_within(const struct verify_ctx *v, uint64_t offset, uint64_t len,
			 uint64_t *first, uint64_t *end)
{
	*first = *end = 0;
	if (offset + len <= v->base)
		return;
	*first = offset > v->base ? (offset - v->base + v->unit - 1) / v->unit : 0;
	*end = (offset + len - v->base) / v->unit;
	if (*end > v->nr_units)
		*end = v->nr_units;
	if (*first > *end)
		*first = *end;
}

uint64_t verify_due_units(const struct verify_ctx *v, uint64_t offset, uint64_t len)
{
	uint64_t first, end, due = 0;

	units_within(v, offset, len, &first, &end);
	if (!v->map)
		return end - first;
	for (uint64_t k = first; k < end; k++)
		due += v->map[k] != 0;
	return due;
}

bool verify_missing(const struct verify_ctx *v, struct verify_failure *f)
{
	uint64_t end = v->base + v->nr_units * v->unit;
	uint64_t present = verify_present_units(v);

	if (present == v->nr_units)
		return false;
	memset(f, 0, sizeof(*f));
	f->verdict = VERIFY_MISSING;
	f->offset = f->bad_offset = v->data_end;
	f->len = end - v->data_end;
	f->units = v->nr_units - present;
	f->expected_byte = f->found_byte = -1;
	return true;
}

/* The verdict of unit k (at offset at) read into p, in *f. */
static enum verify_verdict check_one(const struct verify_ctx *v, const unsigned char *p,
				     uint64_t k, uint64_t at, uint64_t expected,
				     struct verify_failure *f)
{
	if (verify_check_unit(p, v->unit, at, v->seed, expected, f) == VERIFY_OK)
		return VERIFY_OK;
	/* the map keeps 32 bits: a unit last written 2^32 or more writes ago
	 * is recovered as too new; matching low bits are that write */
	if (f->verdict == VERIFY_LOST_WRITE && (uint32_t)f->found_seq == v->map[k] &&
	    verify_check_unit(p, v->unit, at, v->seed, 0, f) == VERIFY_OK)
		return VERIFY_OK;
	return f->verdict;
}

int verify_check_read(struct verify_ctx *v, const void *buf, uint64_t offset,
		      uint64_t len, bool planned, struct job_result *r)
{
	const unsigned char *p = buf;
	uint64_t first, end_unit;
	int failures = 0;

	units_within(v, offset, len, &first, &end_unit);
	for (uint64_t k = first; k < end_unit; k++) {
		uint64_t at = v->base + k * v->unit;
		uint64_t expected = verify_expected_seq(v, k);
		struct verify_failure f;

		if (v->map && !expected) {
			/* not written by this run, or its failure was reported */
			if (planned && r->verify_units)
				r->verify_units--;
			continue;
		}
		r->verify_checked++;
		if (!planned)
			r->verify_units++;
		if (check_one(v, p + (at - offset), k, at, expected, &f) == VERIFY_OK)
			continue;
		if (verify_result_add(r, &f))
			return -1;
		if (v->map)
			v->map[k] = 0;
		failures++;
		if (v->fatal)
			break;
	}
	return failures;
}

/* ---- failures in results -------------------------------------------------- */

/* Room for the whole limit at once (~70 KiB), allocated on the first
 * failure: a clean run allocates nothing. */
static int failure_room(struct job_result *r)
{
	if (r->verify_failures)
		return 0;
	r->verify_failures = malloc(VERIFY_FAILURES_KEPT * sizeof(*r->verify_failures));
	if (!r->verify_failures)
		return err_set("out of memory for verify failures");
	return 0;
}

int verify_result_add(struct job_result *r, const struct verify_failure *f)
{
	r->verify_failed += f->units ? f->units : 1;
	if (r->nr_verify_failures >= VERIFY_FAILURES_KEPT)
		return 0;
	if (failure_room(r))
		return -1;
	r->verify_failures[r->nr_verify_failures++] = *f;
	return 0;
}

int verify_result_copy(struct job_result *dst, const struct job_result *src)
{
	unsigned room, n;

	if (!src->nr_verify_failures || dst->nr_verify_failures >= VERIFY_FAILURES_KEPT)
		return 0;
	if (failure_room(dst))
		return -1;
	room = VERIFY_FAILURES_KEPT - dst->nr_verify_failures;
	n = src->nr_verify_failures < room ? src->nr_verify_failures : room;
	memcpy(dst->verify_failures + dst->nr_verify_failures, src->verify_failures,
	       n * sizeof(*src->verify_failures));
	dst->nr_verify_failures += n;
	return 0;
}

uint64_t verify_unlisted(uint64_t failed, const struct verify_failure *kept, unsigned nr)
{
	uint64_t listed = 0;

	for (unsigned i = 0; i < nr; i++)
		listed += kept[i].units ? kept[i].units : 1;
	return failed > listed ? failed - listed : 0;
}

int verify_random_seed(uint64_t *seed)
{
	ssize_t got;

	do
		got = getrandom(seed, sizeof(*seed), 0);
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(*seed))
		return err_set("getrandom: %s", got < 0 ? strerror(errno) : "short read");
	return 0;
}

int verify_result_failure(const struct job_result *r)
{
	int error = r->error < 0 ? -r->error : r->error;

	if (r->verify_failed && r->nr_verify_failures)
		return err_set("verify failed: %llu bad, checked %llu of %llu units%s; the first %s at offset %llu",
			       (unsigned long long)r->verify_failed,
			       (unsigned long long)r->verify_checked,
			       (unsigned long long)r->verify_units,
			       r->verify_stopped ? " (verify_fatal=1 stopped at the first)" : "",
			       verify_verdict_name(r->verify_failures[0].verdict),
			       (unsigned long long)r->verify_failures[0].offset);
	if (!error)
		return 0;
	if (error == EILSEQ)
		return err_set("verify failed");
	for (int d = 0; d < DIR_COUNT; d++)
		if (r->dir[d].errors)
			return err_set("I/O error: %s (%s at offset %llu)", err_errno_text(error),
				       d == DIR_READ ? "read" : "write",
				       (unsigned long long)r->dir[d].first_error_offset);
	return err_set("I/O error: %s", err_errno_text(error));
}

bool verify_result_present(const struct job_result *r)
{
	return (r->spec && r->spec->verify != VERIFY_NONE) || r->verify_checked ||
	       r->verify_failed;
}
