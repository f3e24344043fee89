/* job_spec.c - the defaults of a job (fio's, plus drivebench's own), the
 * questions the runner asks of a spec (directions, random, block size
 * bounds) and the cross-checks between options that no single option
 * can make on its own (job_spec_validate). */
#include "job/job_spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "job/engine_catalog.h"
#include "util/error.h"
#include "job/check_options.h"

/* fio's default percentile list, plus 99.9999 for drivebench's tail views. */
static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99,
	99.5, 99.9, 99.95, 99.99, 99.9999,
};

#define NS_PER_SEC 1000000000ull

void job_spec_defaults(struct job_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	strcpy(spec->name, "job");
	strcpy(spec->source, "command line");
	spec->rw = RW_READ;
	spec->rwmixread = 50;
	spec->bs[DIR_READ] = 4096;
	spec->bs[DIR_WRITE] = 4096;
	spec->bs[DIR_TRIM] = 4096;
	strcpy(spec->ioengine, "io_uring");
	spec->iodepth = 1;
	spec->iodepth_batch_submit = 1;
	spec->iodepth_batch_complete_min = 1;
	spec->iodepth_batch_complete_max = 0;
	spec->numjobs = 1;
	spec->direct = false;
	spec->randrepeat = true;
	spec->random_generator = RANDGEN_TAUSWORTHE;
	spec->distribution.kind = DIST_RANDOM;
	memcpy(spec->percentiles, default_percentiles, sizeof(default_percentiles));
	spec->nr_percentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	spec->series_interval_ns = NS_PER_SEC;
	spec->chunk_size = 8ull << 20;
	spec->kb_base = 1024;
	spec->gds_transfer = 1;   /* GDS_XFER_CPUONLY: needs no GPU */
	spec->do_verify = true;
	spec->create_serialize = true;   /* fio's default; layout is serial anyway */
	buffering_defaults(&spec->buffering);
	job_output_defaults(&spec->output);
	job_measure_defaults(&spec->measure);
	job_checks_defaults(&spec->checks);
	pacing_defaults(&spec->pacing);
	job_files_defaults(&spec->files);
	engine_opts_defaults(&spec->eng);
}

static bool rw_is_mixed(enum rw_mode rw)
{
	return rw == RW_READWRITE || rw == RW_RANDRW;
}

/* A mixed job with rwmixread=0 never reads (and =100 never writes), as in fio. */
bool job_spec_reads(const struct job_spec *spec)
{
	if (rw_is_mixed(spec->rw))
		return spec->rwmixread > 0;
	return spec->rw == RW_READ || spec->rw == RW_RANDREAD;
}

bool job_spec_trims(const struct job_spec *spec)
{
	return spec->rw == RW_TRIM || spec->rw == RW_RANDTRIM ||
	       spec->rw == RW_TRIMWRITE || spec->rw == RW_RANDTRIMWRITE;
}

static bool writes_data(const struct job_spec *spec)
{
	if (engine_catalog()->alters_target(spec))
		return true;
	if (rw_is_mixed(spec->rw))
		return spec->rwmixread < 100;
	return spec->rw == RW_WRITE || spec->rw == RW_RANDWRITE ||
	       spec->rw == RW_TRIMWRITE || spec->rw == RW_RANDTRIMWRITE;
}

/* A trim destroys data as a write does: the gate and O_RDWR see both. */
bool job_spec_writes(const struct job_spec *spec)
{
	return writes_data(spec) || job_spec_trims(spec);
}

bool job_spec_random(const struct job_spec *spec)
{
	return spec->rw == RW_RANDREAD || spec->rw == RW_RANDWRITE ||
	       spec->rw == RW_RANDRW || spec->rw == RW_RANDTRIM ||
	       spec->rw == RW_RANDTRIMWRITE;
}

bool job_spec_uses_dir(const struct job_spec *spec, int dir)
{
	switch (dir) {
	case DIR_READ: return job_spec_reads(spec);
	case DIR_WRITE: return writes_data(spec);
	case DIR_TRIM: return job_spec_trims(spec);
	}
	return false;
}

static bool direction_used(const struct job_spec *spec, int dir)
{
	return job_spec_uses_dir(spec, dir);
}

/* Walks the block sizes a direction can issue: bssplit entries that carry
 * a share, or bs[] when there is no split. want_max picks the bound. */
static uint64_t direction_bound(const struct job_spec *spec, int dir, bool want_max)
{
	uint64_t bound = 0;

	if (dir >= DIR_COUNT || spec->bssplit_nr[dir] == 0)
		return spec->bs[dir];
	for (unsigned i = 0; i < spec->bssplit_nr[dir]; i++) {
		const struct bssplit_entry *e = &spec->bssplit[dir][i];

		if (e->pct <= 0)
			continue;
		if (bound == 0 || (want_max ? e->bs > bound : e->bs < bound))
			bound = e->bs;
	}
	return bound ? bound : spec->bs[dir];
}

static uint64_t spec_bound(const struct job_spec *spec, bool want_max)
{
	uint64_t bound = 0;
	bool any = false;

	for (int dir = 0; dir < DIR_ALL; dir++) {
		uint64_t b;

		if (!direction_used(spec, dir))
			continue;
		b = direction_bound(spec, dir, want_max);
		/* bsrange: the range's end */
		if (spec->pacing.bs_max[dir])
			b = want_max ? spec->pacing.bs_max[dir] : spec->pacing.bs_min[dir];
		if (!any || (want_max ? b > bound : b < bound))
			bound = b;
		any = true;
	}
	/* Only reachable for an invalid spec; keep the answer usable. */
	return any ? bound : direction_bound(spec, DIR_READ, want_max);
}

uint64_t job_spec_max_bs(const struct job_spec *spec)
{
	return spec_bound(spec, true);
}

uint64_t job_spec_min_bs(const struct job_spec *spec)
{
	return spec_bound(spec, false);
}

static int check_bssplit(const struct job_spec *spec, int dir)
{
	double sum = 0;

	if (spec->bssplit_nr[dir] > BSSPLIT_MAX)
		return err_set("option 'bssplit': more than %d entries", BSSPLIT_MAX);
	for (unsigned i = 0; i < spec->bssplit_nr[dir]; i++) {
		const struct bssplit_entry *e = &spec->bssplit[dir][i];

		if (e->bs == 0)
			return err_set("option 'bssplit': block size must be at least 1");
		if (!(e->pct >= 0 && e->pct <= 100))
			return err_set("option 'bssplit': percentage %g out of range", e->pct);
		sum += e->pct;
	}
	if (spec->bssplit_nr[dir] && fabs(sum - 100) > 0.001)
		return err_set("option 'bssplit': %s percentages add up to %g, not 100",
			       dir == DIR_READ ? "read" : "write", sum);
	return 0;
}

static int check_distribution(const struct distribution *d)
{
	double access = 0, range = 0;

	switch (d->kind) {
	case DIST_RANDOM:
		return 0;
	case DIST_ZIPF:
		if (!(d->param > 0) || d->param == 1)
			return err_set("option 'random_distribution': zipf theta must be > 0 and not 1");
		return 0;
	case DIST_PARETO:
		if (!(d->param > 0 && d->param < 1))
			return err_set("option 'random_distribution': pareto h must be between 0 and 1");
		return 0;
	case DIST_NORMAL:
		if (!(d->param > 0))
			return err_set("option 'random_distribution': normal sigma must be > 0");
		return 0;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		break;
	case DIST_SEQUENCE:
		return 0;   /* pacing_spec_check */
	default:
		return err_set("option 'random_distribution': unknown kind");
	}
	if (d->nr_zones == 0 || d->nr_zones > ZONES_MAX)
		return err_set("option 'random_distribution': needs 1 to %d zones", ZONES_MAX);
	for (unsigned i = 0; i < d->nr_zones; i++) {
		access += d->zones[i].access_pct;
		range += d->zones[i].range_pct;
		if (d->kind == DIST_ZONED_ABS && d->zones[i].size == 0)
			return err_set("option 'random_distribution': zone size must be at least 1");
	}
	if (fabs(access - 100) > 0.001)
		return err_set("option 'random_distribution': access percentages add up to %g, not 100",
			       access);
	if (d->kind == DIST_ZONED && fabs(range - 100) > 0.001)
		return err_set("option 'random_distribution': range percentages add up to %g, not 100",
			       range);
	return 0;
}

static int check_spec(struct job_spec *spec)
{
	if (spec->iodepth < 1)
		return err_set("option 'iodepth': must be at least 1");
	if (spec->numjobs < 1)
		return err_set("option 'numjobs': must be at least 1");
	if (spec->rwmixread > 100)
		return err_set("option 'rwmixread': must be at most 100");
	for (int dir = 0; dir < DIR_ALL; dir++) {
		if (direction_used(spec, dir) && spec->bs[dir] == 0 &&
		    (dir == DIR_TRIM || spec->bssplit_nr[dir] == 0))
			return err_set("option 'bs': must be at least 1");
		if (dir < DIR_COUNT && check_bssplit(spec, dir))
			return -1;
	}
	/* The runner waits for this many completions: more than can be in
	 * flight would never return. */
	if (spec->iodepth_batch_complete_min > spec->iodepth)
		return err_set("option 'iodepth_batch_complete_min': %u is more than iodepth %u",
			       spec->iodepth_batch_complete_min, spec->iodepth);
	if (spec->iodepth_batch_complete_max &&
	    spec->iodepth_batch_complete_max < spec->iodepth_batch_complete_min)
		return err_set("option 'iodepth_batch_complete_max': %u is less than iodepth_batch_complete_min %u",
			       spec->iodepth_batch_complete_max,
			       spec->iodepth_batch_complete_min);
	if (spec->time_based && spec->runtime_ns == 0)
		return err_set("option 'time_based': needs a runtime");
	if (spec->size_pct < 0 || spec->size_pct > 100)
		return err_set("option 'size': percentage %g out of range", spec->size_pct);
	if (spec->offset_pct < 0 || spec->offset_pct >= 100)
		return err_set("option 'offset': percentage %g out of range", spec->offset_pct);
	if (spec->null_latency_min_ns > spec->null_latency_max_ns)
		return err_set("option 'null_latency': minimum is above maximum");
	if (spec->nr_percentiles > PERCENTILE_MAX)
		return err_set("option 'percentile_list': more than %d values", PERCENTILE_MAX);
	for (unsigned i = 0; i < spec->nr_percentiles; i++)
		if (!(spec->percentiles[i] > 0 && spec->percentiles[i] <= 100))
			return err_set("option 'percentile_list': %g out of range",
				       spec->percentiles[i]);
	if (spec->series_interval_ns == 0)
		return err_set("option 'series_interval': must be above 0");
	if (spec->chunk_size == 0)
		return err_set("option 'chunk_size': must be at least 1");
	if (spec->kb_base != 1000 && spec->kb_base != 1024)
		return err_set("option 'kb_base': must be 1000 or 1024");
	if (!spec->ioengine[0])
		return err_set("option 'ioengine': empty");
	if (engine_catalog()->check_job(spec) || job_checks_validate(spec))
		return -1;
	spec->engine = engine_catalog()->find_engine(spec->ioengine);
	if (!spec->engine)
		return -1;
	if (buffering_check(spec) || pacing_spec_check(spec) || job_files_check(spec) ||
	    engine_opts_check(spec))
		return -1;
	return check_distribution(&spec->distribution);
}

int job_spec_validate(struct job_spec *spec)
{
	if (check_spec(spec))
		return err_prefix("job '%s'", spec->name);
	return 0;
}

const char *job_spec_rw_name(enum rw_mode rw)
{
	switch (rw) {
	case RW_READ: return "read";
	case RW_WRITE: return "write";
	case RW_RANDREAD: return "randread";
	case RW_RANDWRITE: return "randwrite";
	case RW_READWRITE: return "rw";
	case RW_RANDRW: return "randrw";
	case RW_TRIM: return "trim";
	case RW_RANDTRIM: return "randtrim";
	case RW_TRIMWRITE: return "trimwrite";
	case RW_RANDTRIMWRITE: return "randtrimwrite";
	}
	return "unknown";
}

int job_spec_path(const struct job_spec *spec, unsigned clone, char *out, size_t len)
{
	return job_file_path(spec, clone, 0, out, len);
}
