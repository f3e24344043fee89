/* verify_ctx.c - verification around the units: the verify options'
 * cross-checks (unit, block sizes, the header's room and place), the
 * standalone verify job, the per-clone written map and backlog, the checks
 * of a completed read, and the failures kept in a job result. The unit
 * format is verify.c's. */
#include "verify/verify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "job/engine_catalog.h"
#include "measure/stats.h"
#include "util/error.h"
#include "job/check_options.h"

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

/* verify_offset: the header moves to a place of its own inside the unit
 * (fio: within verify_interval), not overlapping where it was. */
static int check_header_place(const struct job_spec *spec, uint64_t unit)
{
	uint64_t at = spec->checks.verify_offset, len = verify_header_len(spec->verify);

	if (!at)
		return 0;
	if (at < len || at + len > unit)
		return err_set("option 'verify_offset': %llu does not hold the %llu-byte header inside the %llu-byte unit apart from where it was (%llu..%llu)",
			       (unsigned long long)at, (unsigned long long)len,
			       (unsigned long long)unit, (unsigned long long)len,
			       (unsigned long long)(unit - len));
	return 0;
}

int verify_spec_check(const struct job_spec *spec)
{
	uint64_t unit = verify_unit(spec);

	if (spec->verify == VERIFY_NONE)
		return 0;
	if (unit < VERIFY_UNIT_MIN)
		return err_set("option 'verify': the verify unit of %llu bytes is below the minimum of %d (header %d bytes)",
			       (unsigned long long)unit, VERIFY_UNIT_MIN, VERIFY_HEADER_BYTES);
	if (unit <= verify_header_len(spec->verify))
		return err_set("option 'verify': verify=%s needs a unit above its %u-byte header, not %llu",
			       verify_method_name(spec->verify), verify_header_len(spec->verify),
			       (unsigned long long)unit);
	if (check_header_place(spec, unit))
		return -1;
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
	/* a job that only reads needs a seed: verify_seed, or the run's when
	 * an earlier job of the run wrote with verify (the runner checks) */
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
	if (engine_catalog()->check_job(spec))
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
	verify_format_of(spec, &v->fmt);
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
static enum verify_verdict check_one(const struct verify_ctx *v, unsigned char *p,
				     uint64_t k, uint64_t at, uint64_t expected,
				     struct verify_failure *f)
{
	if ((v->fmt.plain ? verify_check_unit(p, v->unit, at, v->seed, expected, f) :
	     verify_check_unit_fmt(&v->fmt, p, v->unit, at, v->seed, expected, f)) == VERIFY_OK)
		return VERIFY_OK;
	/* the map keeps 32 bits: a unit last written 2^32 or more writes ago
	 * is recovered as too new; matching low bits are that write */
	if (f->verdict == VERIFY_LOST_WRITE && (uint32_t)f->found_seq == v->map[k] &&
	    verify_check_unit_fmt(&v->fmt, p, v->unit, at, v->seed, 0, f) == VERIFY_OK)
		return VERIFY_OK;
	return f->verdict;
}

int verify_check_read(struct verify_ctx *v, void *buf, uint64_t offset,
		      uint64_t len, bool planned, struct job_result *r)
{
	unsigned char *p = buf;
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
