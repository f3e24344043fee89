/* stats.c - latency summaries (mean, stddev, merge), the per-interval series,
 * and job results: init, group merge, free, fio's rate samples of a clone,
 * and the IOPS / bandwidth figures derived from them. */
#include "measure/stats.h"
#include "measure/check_results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "measure/verify_failures.h"

#define DEFAULT_SERIES_INTERVAL_NS 1000000000ull

void lat_stat_init(struct lat_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

double lat_mean(const struct lat_stat *s)
{
	if (s->n == 0)
		return 0.0;
	return (double)s->sum / (double)s->n;
}

/* Sample standard deviation (divides by n - 1), which is what fio's
 * calc_lat reports from its Welford accumulator; 0 for fewer than two
 * samples. long double keeps sumsq - sum^2/n from cancelling badly. */
double lat_stddev(const struct lat_stat *s)
{
	long double n, sum, variance;

	if (s->n < 2)
		return 0.0;
	n = (long double)s->n;
	sum = (long double)s->sum;
	variance = ((long double)s->sumsq - sum * sum / n) / (n - 1.0L);
	if (!(variance > 0.0L))
		return 0.0;
	return sqrt((double)variance);
}

void lat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	hist_merge(&dst->hist, &src->hist);
}

int series_reserve(struct series *s, unsigned want)
{
	struct series_point *grown;
	unsigned cap;

	if (want <= s->cap)
		return 0;
	/* a first reservation is exact: the worker sizes its series up front */
	cap = s->cap ? s->cap : want;
	while (cap < want) {
		if (cap > UINT32_MAX / 2)
			return err_set("series: too many points (%u)", want);
		cap *= 2;
	}
	grown = realloc(s->points, (size_t)cap * sizeof(*grown));
	if (!grown)
		return err_set("series: out of memory for %u points", cap);
	s->points = grown;
	s->cap = cap;
	return 0;
}

int series_append(struct series *s, const struct series_point *p)
{
	if (s->nr == UINT32_MAX)
		return err_set("series: too many points");
	if (series_reserve(s, s->nr + 1) < 0)
		return -1;
	s->points[s->nr++] = *p;
	return 0;
}

void series_coarsen(struct series *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i + 1 < s->nr; i += 2, n++) {
		struct series_point *to = &s->points[n];
		const struct series_point *a = &s->points[i], *b = &s->points[i + 1];

		for (int d = 0; d < DIR_ALL; d++) {
			to->ios[d] = a->ios[d] + b->ios[d];
			to->bytes[d] = a->bytes[d] + b->bytes[d];
			to->lat_sum_ns[d] = a->lat_sum_ns[d] + b->lat_sum_ns[d];
		}
		to->t_ns = b->t_ns;
	}
	if (s->nr % 2)
		s->points[n++] = s->points[s->nr - 1];   /* a shorter last interval */
	s->nr = n;
	s->interval_ns *= 2;
}

/* Whether coarsening the finer of two series makes their intervals equal. */
static bool coarsens_to(uint64_t fine, uint64_t coarse)
{
	while (fine && fine < coarse)
		fine *= 2;
	return fine == coarse;
}

int series_merge(struct series *dst, const struct series *src)
{
	struct series copy = { 0 };
	int rc;

	if (src->nr == 0)
		return 0;
	if (dst->interval_ns && src->interval_ns && dst->interval_ns != src->interval_ns) {
		/* a clone that ran long coarsened its series (loop.c): bring the
		 * finer one to the coarser interval, then add point by point */
		if (coarsens_to(dst->interval_ns, src->interval_ns)) {
			while (dst->interval_ns < src->interval_ns)
				series_coarsen(dst);
		} else if (coarsens_to(src->interval_ns, dst->interval_ns)) {
			copy.interval_ns = src->interval_ns;
			if (series_reserve(&copy, src->nr) < 0)
				return -1;
			memcpy(copy.points, src->points, src->nr * sizeof(*copy.points));
			copy.nr = src->nr;
			while (copy.interval_ns < dst->interval_ns)
				series_coarsen(&copy);
			rc = series_merge(dst, &copy);
			series_free(&copy);
			return rc;
		} else {
			return err_set("series: cannot merge intervals of %llu ns and %llu ns",
				       (unsigned long long)dst->interval_ns,
				       (unsigned long long)src->interval_ns);
		}
	}
	/* Reserve first so a failure leaves dst untouched. */
	if (series_reserve(dst, src->nr) < 0)
		return -1;
	if (!dst->interval_ns)
		dst->interval_ns = src->interval_ns;
	for (unsigned i = 0; i < src->nr; i++) {
		const struct series_point *from = &src->points[i];
		struct series_point *to;

		if (i >= dst->nr) {
			dst->points[dst->nr++] = *from;
			continue;
		}
		to = &dst->points[i];
		if (from->t_ns > to->t_ns)
			to->t_ns = from->t_ns;
		for (int d = 0; d < DIR_ALL; d++) {
			to->ios[d] += from->ios[d];
			to->bytes[d] += from->bytes[d];
			to->lat_sum_ns[d] += from->lat_sum_ns[d];
		}
	}
	return 0;
}

void series_free(struct series *s)
{
	free(s->points);
	s->points = NULL;
	s->nr = 0;
	s->cap = 0;
}

void job_result_init(struct job_result *r, const struct job_spec *spec)
{
	memset(r, 0, sizeof(*r));
	for (int d = 0; d < DIR_ALL; d++) {
		lat_stat_init(&r->dir[d].slat);
		lat_stat_init(&r->dir[d].clat);
		lat_stat_init(&r->dir[d].lat);
		rate_stat_init(&r->bw_stat[d]);
		rate_stat_init(&r->iops_stat[d]);
	}
	lat_stat_init(&r->sync_lat);
	r->spec = spec;
	if (spec) {
		memcpy(r->name, spec->name, sizeof(r->name));
		r->name[sizeof(r->name) - 1] = '\0';
	}
	r->series.interval_ns = spec && spec->series_interval_ns ?
		spec->series_interval_ns : DEFAULT_SERIES_INTERVAL_NS;
	r->nr_merged = 1;
}

static void dir_stats_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	if (!dst->first_error && src->first_error) {
		dst->first_error = src->first_error;
		dst->first_error_offset = src->first_error_offset;
	}
	lat_merge(&dst->slat, &src->slat);
	lat_merge(&dst->clat, &src->clat);
	lat_merge(&dst->lat, &src->lat);
}

int job_result_merge(struct job_result *dst, const struct job_result *src)
{
	unsigned kept_failures = dst->nr_verify_failures;

	/* The steps that can fail go first, so dst stays whole (appended
	 * verify failures are dropped again if the series cannot merge). */
	if (verify_result_copy(dst, src) < 0)
		return err_prefix("merging results of '%s'", src->name);
	if (series_merge(&dst->series, &src->series) < 0) {
		dst->nr_verify_failures = kept_failures;
		return err_prefix("merging results of '%s'", src->name);
	}

	if (job_result_copy_drive(dst, src) < 0 || prio_clat_merge(dst, src) < 0 ||
	    (!dst->checks && check_results_dup(&dst->checks, src->checks) < 0))
		return -1;
	for (int d = 0; d < DIR_ALL; d++) {
		dir_stats_merge(&dst->dir[d], &src->dir[d]);
		rate_stat_sum(&dst->bw_stat[d], &src->bw_stat[d]);
		rate_stat_sum(&dst->iops_stat[d], &src->iops_stat[d]);
	}
	dst->total_run_ns += src->total_run_ns;
	dst->sync_ios += src->sync_ios;
	lat_merge(&dst->sync_lat, &src->sync_lat);
	if (!dst->spec)
		dst->spec = src->spec;
	if (!dst->error)
		dst->error = src->error;
	dst->partial = dst->partial || src->partial;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	if (src->ramp_ns > dst->ramp_ns)
		dst->ramp_ns = src->ramp_ns;
	if (src->start_unix_ms &&
	    (!dst->start_unix_ms || src->start_unix_ms < dst->start_unix_ms))
		dst->start_unix_ms = src->start_unix_ms;
	/* MPI aggregates of a group's clones (record/rank_merge.h): what every
	 * clone had done by its first-done moment adds up, at the latest of
	 * those moments */
	for (int d = 0; d < DIR_ALL; d++) {
		dst->first_done_ios[d] += src->first_done_ios[d];
		dst->first_done_bytes[d] += src->first_done_bytes[d];
	}
	if (src->first_done_ns > dst->first_done_ns)
		dst->first_done_ns = src->first_done_ns;
	if (src->nr_ranks > dst->nr_ranks)
		dst->nr_ranks = src->nr_ranks;
	dst->usr_cpu_s += src->usr_cpu_s;
	dst->sys_cpu_s += src->sys_cpu_s;
	dst->ctx_switches += src->ctx_switches;
	dst->major_faults += src->major_faults;
	dst->minor_faults += src->minor_faults;
	dst->max_buffer_bytes += src->max_buffer_bytes;
	dst->verify_units += src->verify_units;
	dst->verify_checked += src->verify_checked;
	dst->verify_stopped = dst->verify_stopped || src->verify_stopped;
	dst->verify_failed += src->verify_failed;
	if (!dst->verify_seed)
		dst->verify_seed = src->verify_seed;
	dst->nr_merged += src->nr_merged;
	for (int k = 0; k < FAULT_KINDS; k++)
		dst->faults_injected[k] += src->faults_injected[k];
	io_depths_merge(&dst->depths, &src->depths);
	for (int k = 0; k < ENGINE_CALL_COUNTS; k++)
		dst->engine_calls[k] += src->engine_calls[k];
	return 0;
}

void job_result_free(struct job_result *r)
{
	series_free(&r->series);
	free(r->drive_before);
	free(r->drive_after);
	free(r->drive_delta);
	r->drive_before = r->drive_after = r->drive_delta = NULL;
	free(r->verify_failures);
	r->verify_failures = NULL;
	r->nr_verify_failures = 0;
	check_results_free(r->checks);
	r->checks = NULL;
	for (int d = 0; d < DIR_COUNT; d++) {
		free(r->prio_clat[d]);
		r->prio_clat[d] = NULL;
		r->nr_prio_clat[d] = 0;
	}
}

int prio_clat_merge(struct job_result *dst, const struct job_result *src)
{
	for (int d = 0; d < DIR_COUNT; d++)
		for (unsigned i = 0; i < src->nr_prio_clat[d]; i++) {
			const struct prio_clat *from = &src->prio_clat[d][i];
			struct prio_clat *to = NULL, *grown;

			for (unsigned k = 0; k < dst->nr_prio_clat[d] && !to; k++)
				if (dst->prio_clat[d][k].ioprio == from->ioprio)
					to = &dst->prio_clat[d][k];
			if (!to) {
				grown = realloc(dst->prio_clat[d], (dst->nr_prio_clat[d] + 1) *
						sizeof(*grown));
				if (!grown)
					return err_set("out of memory");
				dst->prio_clat[d] = grown;
				to = &grown[dst->nr_prio_clat[d]++];
				to->ioprio = from->ioprio;
				lat_stat_init(&to->clat);
			}
			lat_merge(&to->clat, &from->clat);
		}
	return 0;
}

int job_result_copy_drive(struct job_result *dst, const struct job_result *src)
{
	char **to[] = { &dst->drive_before, &dst->drive_after, &dst->drive_delta };
	char *const from[] = { src->drive_before, src->drive_after, src->drive_delta };

	for (int i = 0; i < 3; i++)
		if (!*to[i] && from[i] && !(*to[i] = strdup(from[i])))
			return err_set("out of memory");
	return 0;
}

static void next_rate_sample(struct rate_samples *rs)
{
	rs->next_ns = rs->bw.next_ns < rs->iops.next_ns ? rs->bw.next_ns : rs->iops.next_ns;
}

void job_result_start_rates(struct job_result *r, struct rate_samples *rs,
			    unsigned bw_ms, unsigned iops_ms, uint64_t now,
			    uint64_t deadline)
{
	for (int d = 0; d < DIR_ALL; d++) {
		rate_stat_init(&r->bw_stat[d]);
		rate_stat_init(&r->iops_stat[d]);
	}
	rate_sampler_start(&rs->bw, (uint64_t)bw_ms * 1000000u, 1024, now, deadline);
	rate_sampler_start(&rs->iops, (uint64_t)iops_ms * 1000000u, 1, now, deadline);
	next_rate_sample(rs);
}

void job_result_sample_rates(struct job_result *r, struct rate_samples *rs,
			     uint64_t now, uint64_t deadline, struct rates_taken *taken)
{
	uint64_t count[DIR_ALL];

	if (taken)
		for (int d = 0; d < DIR_ALL; d++)
			taken->bw[d] = taken->iops[d] = -1;

	if (now >= rs->bw.next_ns) {
		for (int d = 0; d < DIR_ALL; d++)
			count[d] = r->dir[d].bytes;
		rate_sampler_take(&rs->bw, count, r->bw_stat, now, deadline,
				  taken ? taken->bw : NULL);
	}
	if (now >= rs->iops.next_ns) {
		for (int d = 0; d < DIR_ALL; d++)
			count[d] = r->dir[d].ios;
		rate_sampler_take(&rs->iops, count, r->iops_stat, now, deadline,
				  taken ? taken->iops : NULL);
	}
	next_rate_sample(rs);
}

double result_iops(const struct job_result *r, enum io_dir d)
{
	if (r->runtime_ns == 0 || (unsigned)d >= DIR_ALL)
		return 0.0;
	return (double)r->dir[d].ios / ((double)r->runtime_ns / 1e9);
}

double result_bw_bytes(const struct job_result *r, enum io_dir d)
{
	if (r->runtime_ns == 0 || (unsigned)d >= DIR_ALL)
		return 0.0;
	return (double)r->dir[d].bytes / ((double)r->runtime_ns / 1e9);
}
