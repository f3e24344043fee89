/* standing.c - the reviewed drive's standing on a test (see the header). */
#include "report/analysis/standing.h"

#include <math.h>
#include <string.h>

const struct report_point *standing_best_point(const struct slice *s, bool iops)
{
	const struct report_point *best = NULL;

	for (unsigned i = 0; i < s->n; i++)
		if (!best || report_headline(&s->pts[i], iops) > report_headline(best, iops))
			best = &s->pts[i];
	return best;
}

static bool has_point(const struct slice *s, unsigned iodepth, unsigned numjobs)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->pts[i].iodepth == iodepth && s->pts[i].numjobs == numjobs)
			return true;
	return false;
}

/* Is point p (of the reviewed drive) run by every drive in in[]? */
static bool shared_by(const struct report_point *p, const bool *in, const struct slice *slices,
		      unsigned nr)
{
	for (unsigned d = 0; d < nr && d < STANDING_MAX_DRIVES; d++)
		if (in[d] && !has_point(&slices[d], p->iodepth, p->numjobs))
			return false;
	return true;
}

/* How many of the reviewed drive's points every drive in in[] ran. */
static unsigned count_shared(const struct slice *rev, const bool *in, const struct slice *slices,
			     unsigned nr)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rev->n; i++)
		n += shared_by(&rev->pts[i], in, slices, nr);
	return n;
}

/* Drive s's best headline over the points every ranked drive ran. */
static double best_shared(const struct slice *s, const struct slice *rev, const bool *in,
			  const struct slice *slices, unsigned nr, bool iops)
{
	double best = -INFINITY;

	for (unsigned i = 0; i < rev->n; i++) {
		const struct report_point *p = &rev->pts[i];
		if (!shared_by(p, in, slices, nr))
			continue;
		for (unsigned j = 0; j < s->n; j++)
			if (s->pts[j].iodepth == p->iodepth && s->pts[j].numjobs == p->numjobs)
				best = fmax(best, report_headline(&s->pts[j], iops));
	}
	return best;
}

/* Picks the ranked drives (see the header) and their shared points. */
static void rank_shared(const struct slice *slices, unsigned nr, unsigned reviewed,
			struct standing *st)
{
	const struct slice *rev = &slices[reviewed];
	unsigned in_n = 0;

	for (unsigned d = 0; d < nr && d < STANDING_MAX_DRIVES; d++) {
		st->ranked[d] = slices[d].n > 0;
		in_n += st->ranked[d];
	}
	st->ran = in_n;
	unsigned best = count_shared(rev, st->ranked, slices, nr);
	for (;;) {
		unsigned out = nr, score = best * in_n;
		for (unsigned d = 0; d < nr && d < STANDING_MAX_DRIVES; d++) {
			/* the reviewed drive alone is no ranking, unless it shares
			 * nothing with anyone */
			if (d == reviewed || !st->ranked[d] || (in_n <= 2 && best > 0))
				continue;
			st->ranked[d] = false;
			unsigned s = count_shared(rev, st->ranked, slices, nr) * (in_n - 1);
			st->ranked[d] = true;
			if (s > 0 && s >= score && (s > score || out < nr)) {
				score = s;
				out = d;
			}
		}
		if (out == nr)
			break;
		st->ranked[out] = false;
		st->not_ranked++;
		in_n--;
		best = count_shared(rev, st->ranked, slices, nr);
	}
	st->shared = best;
	st->shared_value = best_shared(rev, rev, st->ranked, slices, nr, st->iops);
}

void standing_of(const struct report_drive *drives, const struct slice *slices,
		 unsigned nr, unsigned reviewed, const struct report_point *test,
		 struct standing *st)
{
	memset(st, 0, sizeof(*st));
	st->iops = report_headline_iops(test);
	st->peak = standing_best_point(&slices[reviewed], st->iops);
	if (!st->peak)
		return;
	st->has = true;
	st->value = report_headline(st->peak, st->iops);
	st->points = slices[reviewed].n;
	st->rating = report_test_rating(drives[reviewed].spec, test);
	for (unsigned i = 0; st->rating > 0 && i < slices[reviewed].n; i++)
		if (report_headline(&slices[reviewed].pts[i], st->iops) >= st->rating)
			st->above_rating++;

	rank_shared(slices, nr, reviewed, st);
	if (!st->shared)
		return;   /* no point in common: no rank (of stays 0) */
	double second = -INFINITY;
	st->leader = reviewed;
	st->leader_value = st->shared_value;
	st->rank = 1;
	for (unsigned d = 0; d < nr && d < STANDING_MAX_DRIVES; d++) {
		if (!st->ranked[d])
			continue;
		st->of++;
		if (d == reviewed)
			continue;
		double v = best_shared(&slices[d], &slices[reviewed], st->ranked, slices, nr,
				       st->iops);
		if (v > st->shared_value)
			st->rank++;
		if (v > st->leader_value) {
			st->leader = d;
			st->leader_value = v;
		}
		second = fmax(second, v);
	}
	st->gap_pct = st->leader == reviewed ? 0
					     : report_pct_diff(st->shared_value, st->leader_value);
	st->runner_up_pct = st->leader == reviewed && isfinite(second)
				    ? report_pct_diff(st->shared_value, second) : NAN;
}
