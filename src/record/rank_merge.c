/* rank_merge.c - one result from the ranks' results of a job (see the
 * header): union interval, first-done figures from the series. */
#include "record/rank_merge.h"

#include "util/error.h"

/* A result's measured interval relative to its phase start. */
static uint64_t started(const struct job_result *r)
{
	return r->measure_start_ns >= r->phase_start_ns ? r->measure_start_ns - r->phase_start_ns : 0;
}

static uint64_t stopped(const struct job_result *r)
{
	return started(r) + r->runtime_ns;
}

/* What r did by `until` (from the phase start): its series' intervals
 * that ended by then, and of the one it falls in the share before it (the
 * rate taken as even within an interval); a result that stopped by then
 * counts whole. */
static void done_by(const struct job_result *r, uint64_t until, uint64_t *ios, uint64_t *bytes)
{
	if (stopped(r) <= until) {
		for (int d = 0; d < DIR_ALL; d++) {
			ios[d] += r->dir[d].ios;
			bytes[d] += r->dir[d].bytes;
		}
		return;
	}
	for (unsigned i = 0; i < r->series.nr; i++) {
		const struct series_point *p = &r->series.points[i];
		uint64_t begin = started(r) + (i ? r->series.points[i - 1].t_ns : 0);
		uint64_t end = started(r) + p->t_ns;
		double share = 1.0;

		if (begin >= until)
			break;
		/* the interval `until` falls in counts in proportion */
		if (end > until)
			share = (double)(until - begin) / (double)(end - begin);
		for (int d = 0; d < DIR_ALL; d++) {
			ios[d] += (uint64_t)((double)p->ios[d] * share + 0.5);
			bytes[d] += (uint64_t)((double)p->bytes[d] * share + 0.5);
		}
	}
}

int rank_merge_results(struct job_result *r, const struct job_result *const *others,
		       unsigned n_others)
{
	uint64_t first_start = started(r), first_stop = stopped(r), last_stop = stopped(r);
	uint64_t ios[DIR_ALL] = { 0 }, bytes[DIR_ALL] = { 0 };
	uint64_t phase_start = r->phase_start_ns;

	for (unsigned i = 0; i < n_others; i++) {
		const struct job_result *o = others[i];

		if (started(o) < first_start)
			first_start = started(o);
		if (stopped(o) < first_stop)
			first_stop = stopped(o);
		if (stopped(o) > last_stop)
			last_stop = stopped(o);
	}
	done_by(r, first_stop, ios, bytes);
	for (unsigned i = 0; i < n_others; i++)
		done_by(others[i], first_stop, ios, bytes);
	for (unsigned i = 0; i < n_others; i++)
		if (job_result_merge(r, others[i]))
			return err_prefix("merging the ranks' results of job '%s'", r->name);
	r->runtime_ns = last_stop - first_start;
	r->measure_start_ns = phase_start + first_start;
	r->phase_start_ns = phase_start;
	r->nr_ranks = 1 + n_others;
	r->first_done_ns = first_stop - first_start;
	for (int d = 0; d < DIR_ALL; d++) {
		r->first_done_ios[d] = ios[d];
		r->first_done_bytes[d] = bytes[d];
	}
	return 0;
}

void rank_span(const struct job_result *results, unsigned nr, uint64_t *ns, uint64_t *bytes)
{
	uint64_t first = UINT64_MAX, last = 0;

	*bytes = 0;
	for (unsigned i = 0; i < nr; i++) {
		if (started(&results[i]) < first)
			first = started(&results[i]);
		if (stopped(&results[i]) > last)
			last = stopped(&results[i]);
		for (int d = 0; d < DIR_ALL; d++)
			*bytes += results[i].dir[d].bytes;
	}
	*ns = nr && last > first ? last - first : 0;
}
