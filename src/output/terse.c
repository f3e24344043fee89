/* terse.c - fio's terse output (--output-format=terse, --minimal): one
 * line of ';'-separated fields per reported entry, in fio 3.33's field
 * order (stat.c show_thread_status_terse_all, show_ddir_status_terse),
 * versions 2 to 5 (--terse-version, default 3). The figures are the
 * JSON's (json_shared.h); units are fio's: KiB, KiB/s, ms, latencies in
 * us. See docs/output.md. */
#include "output/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_fio.h"
#include "output/json_shared.h"
#include "device/disk_util.h"
#include "util/error.h"

/* fio's FIO_IO_U_LIST_MAX_LEN: the percentile slots of each direction */
#define TERSE_PERCENTILES 20

static const double fio_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The job's percentile_list (ascending, at most 20), or fio's own list
 * when the job has drivebench's default (fio's plus 99.9999), so the line
 * is fio's for a job that does not set one. */
static unsigned terse_percentiles(const struct job_spec *spec, double *p)
{
	static struct job_spec defaults;
	static bool have_defaults;
	unsigned nr = sizeof(fio_percentiles) / sizeof(fio_percentiles[0]);

	if (!have_defaults) {
		job_spec_defaults(&defaults);
		have_defaults = true;
	}
	if (!spec || !spec->nr_percentiles ||
	    (spec->nr_percentiles == defaults.nr_percentiles &&
	     !memcmp(spec->percentiles, defaults.percentiles,
		     spec->nr_percentiles * sizeof(spec->percentiles[0])))) {
		memcpy(p, fio_percentiles, sizeof(fio_percentiles));
		return nr;
	}
	nr = spec->nr_percentiles < TERSE_PERCENTILES ? spec->nr_percentiles : TERSE_PERCENTILES;
	memcpy(p, spec->percentiles, nr * sizeof(p[0]));
	qsort(p, nr, sizeof(p[0]), compare_double);
	return nr;
}

/* min;max;mean;stddev in us, fio's calc_lat over ns / 1000. */
static void put_lat(FILE *f, const struct lat_stat *s)
{
	if (!s->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", s->min / 1000, s->max / 1000,
		lat_mean(s) / 1000.0, lat_stddev(s) / 1000.0);
}

/* One direction's section: ds with its rate samples (bws, io) and the
 * group's aggregate bytes/s for it. */
static void put_dir(FILE *f, const struct job_result *r, const struct dir_stats *ds,
		    const struct rate_stat *bws, const struct rate_stat *io, double agg,
		    int version)
{
	uint64_t runt = ds->ios ? (r->runtime_ns / 1000 + 999) / 1000 : 0;   /* fio: ms, up */
	uint64_t bw = runt ? 1000 * ds->bytes / runt / 1024 : 0;
	uint64_t iops = runt ? 1000 * ds->ios / runt : 0;
	double pcts[TERSE_PERCENTILES];
	uint64_t values[TERSE_PERCENTILES];
	unsigned np = terse_percentiles(r->spec, pcts);

	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, ds->bytes >> 10, bw,
		iops, runt);
	put_lat(f, &ds->slat);
	put_lat(f, &ds->clat);
	hist_percentiles(&ds->clat.hist, pcts, np, values);
	for (unsigned i = 0; i < TERSE_PERCENTILES; i++) {
		if (i < np)
			fprintf(f, ";%f%%=%" PRIu64, pcts[i], ds->clat.n ? values[i] / 1000 : 0);
		else
			fputs(";0%=0", f);
	}
	put_lat(f, &ds->lat);
	/* fio's rate samples (measure/rate.h), as the JSON's bw_* and iops_* */
	if (bws->samples) {
		double p_of_agg = 100.0;

		if ((uint64_t)agg / 1024) {
			p_of_agg = bws->mean * 100.0 / (double)((uint64_t)agg / 1024);
			if (p_of_agg > 100.0)
				p_of_agg = 100.0;
		}
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bws->min, bws->max, p_of_agg,
			bws->mean, rate_stat_dev(bws));
	} else {
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
	}
	if (version != 5)
		return;
	fprintf(f, ";%" PRIu64, io->samples);
	if (io->samples)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, io->min, io->max, io->mean,
			rate_stat_dev(io), io->samples);
	else
		fputs(";0;0;0.000000;0.000000;0", f);
}

/* Direction d of entry index. */
static void put_one_dir(FILE *f, const struct job_result *res, unsigned nr, unsigned index,
			enum io_dir d, int version)
{
	const struct job_result *r = &res[index];

	put_dir(f, r, &r->dir[d], &r->bw_stat[d], &r->iops_stat[d],
		group_agg_bytes(res, nr, r->groupid, d), version);
}

/* unified_rw_reporting: fio's mixed section, every direction in one; its
 * aggregate is the group's bytes of all directions with "mixed", the
 * reads' with "both" (as the JSON's). */
static int put_mixed(FILE *f, const struct job_result *res, unsigned nr, unsigned index,
		     int version)
{
	const struct job_result *r = &res[index];
	struct dir_stats *mixed = malloc(sizeof(*mixed));
	struct rate_stat bw, io;
	double agg = group_agg_bytes(res, nr, r->groupid, DIR_READ);

	if (!mixed)
		return err_set("writing terse output: out of memory");
	if (result_unified_rw(r) == UNIFIED_MIXED)
		agg += group_agg_bytes(res, nr, r->groupid, DIR_WRITE);
	result_mixed_direction(r, mixed);
	result_mixed_rates(r, &bw, &io);
	put_dir(f, r, mixed, &bw, &io, agg, version);
	free(mixed);
	return 0;
}

/* fio's stat_calc_lat: percent of all completions, a range with any at
 * least 0.01. */
static double lat_pct(uint64_t count, uint64_t total)
{
	double pct = total ? 100.0 * (double)count / (double)total : 0.0;

	return pct < 0.01 && count ? 0.01 : pct;
}

static void put_distributions(FILE *f, const struct job_result *r)
{
	uint64_t level[IO_DEPTH_BUCKETS], submit[IO_DEPTH_BUCKETS], complete[IO_DEPTH_BUCKETS];
	double depth[IO_DEPTH_BUCKETS];
	struct latency_ranges lr;
	uint64_t ns_total = 0;

	io_depths_buckets(&r->depths, level, submit, complete);
	io_depths_percent(level, depth);
	for (int i = 0; i < IO_DEPTH_BUCKETS; i++)
		fprintf(f, ";%3.1f%%", depth[i]);
	/* fio's stat_calc_lat_nu: the us ranges, all of the ns ones in the
	 * first */
	latency_ranges_count(r, &lr);
	for (int i = 0; i < LAT_RANGES; i++)
		ns_total += lr.ns[i];
	for (int i = 0; i < LAT_RANGES; i++)
		fprintf(f, ";%3.2f%%", lat_pct(lr.us[i], lr.total) +
			(i == 0 && lr.total ? 100.0 * (double)ns_total / (double)lr.total : 0.0));
	for (int i = 0; i < LAT_RANGES_MS; i++)
		fprintf(f, ";%3.2f%%", lat_pct(lr.ms[i], lr.total));
}

/* fio's print_disk_util, terse: every device on every line. */
static void put_disks(FILE *f, const struct disk_util *du)
{
	for (unsigned i = 0; du && i < du->nr; i++) {
		const struct disk_stat *s = &du->dev[i].delta;
		struct disk_util_figures fg;

		disk_util_figures(du, i, &fg);
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%" PRIu64 ";%3.2f%%", du->dev[i].name, s->ios[0], s->ios[1],
			s->merges[0], s->merges[1], s->ticks[0], s->ticks[1], s->time_in_queue,
			fg.util);
		if (fg.slavecount)
			fprintf(f, ";slaves;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
				";%" PRIu64 ";%" PRIu64 ";%3.2f%%", fg.agg_ios[0], fg.agg_ios[1],
				fg.agg_merges[0], fg.agg_merges[1], fg.agg_ticks[0],
				fg.agg_ticks[1], fg.agg_in_queue, fg.agg_util);
	}
}

static int put_entry(FILE *f, const struct job_result *res, unsigned nr, unsigned index,
		     const struct run_info *info, int version)
{
	const struct job_result *r = &res[index];
	enum unified_rw unified = result_unified_rw(r);
	const struct job_spec *spec = r->spec;
	double job_s = (double)(r->runtime_ns + r->ramp_ns) / 1e9;
	int error = r->error < 0 ? -r->error : r->error;

	if (version == 2)
		fprintf(f, "2;%s;%u;%d", r->name, r->groupid, error);
	else
		fprintf(f, "%d;%s;%s;%u;%d", version, JSON_FIO_VERSION, r->name, r->groupid,
			error);
	/* fio's show_thread_status_terse_all: with unified_rw_reporting=mixed
	 * one mixed section in place of read, write and trim; with "both"
	 * the mixed section after them */
	if (unified == UNIFIED_MIXED) {
		if (put_mixed(f, res, nr, index, version))
			return -1;
	} else {
		put_one_dir(f, res, nr, index, DIR_READ, version);
		put_one_dir(f, res, nr, index, DIR_WRITE, version);
		if (version != 3) {   /* trim: drivebench issues none */
			static struct job_result none;   /* zero: what trim shows */

			put_one_dir(f, &none, 1, 0, DIR_READ, version);
		}
	}
	if (unified == UNIFIED_BOTH && put_mixed(f, res, nr, index, version))
		return -1;
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		job_s > 0 ? r->usr_cpu_s * 100.0 / job_s : 0.0,
		job_s > 0 ? r->sys_cpu_s * 100.0 / job_s : 0.0, r->ctx_switches,
		r->major_faults, r->minor_faults);
	put_distributions(f, r);
	if (version >= 3)
		put_disks(f, info->disk_util);
	if (spec && spec->continue_on_error) {
		uint64_t total_err = r->dir[DIR_READ].errors + r->dir[DIR_WRITE].errors;

		fprintf(f, ";%" PRIu64 ";%d", total_err, error);
	}
	if (spec && spec->description[0])
		fprintf(f, "%s;%s", version == 2 ? "\n" : "", spec->description);
	fputc('\n', f);
	return 0;
}

int output_terse(FILE *f, const struct job_result *res, unsigned nr,
		 const struct run_info *info, int version)
{
	static const struct run_info no_info;

	if (!f || (nr && !res))
		return err_set("output_terse: no %s", f ? "results" : "output stream");
	if (version < 2 || version > 5)
		return err_set("terse version %d: not supported (2, 3, 4 or 5)", version);
	if (!info)
		info = &no_info;
	errno = 0;
	for (unsigned i = 0; i < nr; i++)
		if (put_entry(f, res, nr, i, info, version))
			return -1;
	if (ferror(f) || fflush(f) == EOF)
		return err_set("writing terse output: %s", errno ? strerror(errno) : "write error");
	return 0;
}
