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

void standing_of(const struct report_drive *drives, const struct slice *slices,
		 unsigned nr, unsigned reviewed, const struct report_point *test,
		 struct standing *st)
{
	bool rating_iops;

	memset(st, 0, sizeof(*st));
	st->iops = report_headline_iops(test);
	st->peak = standing_best_point(&slices[reviewed], st->iops);
	if (!st->peak)
		return;
	st->has = true;
	st->value = report_headline(st->peak, st->iops);
	st->points = slices[reviewed].n;
	st->rating = spec_rating_for(drives[reviewed].spec, test->rw, test->bs, test->dir,
				     &rating_iops);
	/* a rating in the other unit (IOPS for a large block) does not apply,
	 * nor does one to a workload's phase (a CDN fill is no rated test) */
	if (st->rating > 0 && (rating_iops != st->iops ||
			       (test->group[0] && test->section != SECTION_FILL)))
		st->rating = 0;
	for (unsigned i = 0; st->rating > 0 && i < slices[reviewed].n; i++)
		if (report_headline(&slices[reviewed].pts[i], st->iops) >= st->rating)
			st->above_rating++;

	double second = -INFINITY;
	st->leader = reviewed;
	st->leader_value = st->value;
	st->rank = 1;
	for (unsigned d = 0; d < nr; d++) {
		const struct report_point *b = standing_best_point(&slices[d], st->iops);
		if (!b)
			continue;
		st->of++;
		double v = report_headline(b, st->iops);
		if (d == reviewed)
			continue;
		if (v > st->value)
			st->rank++;
		if (v > st->leader_value) {
			st->leader = d;
			st->leader_value = v;
		}
		second = fmax(second, v);
	}
	st->gap_pct = st->leader == reviewed ? 0 : report_pct_diff(st->value, st->leader_value);
	st->runner_up_pct = st->leader == reviewed && isfinite(second)
				    ? report_pct_diff(st->value, second) : NAN;
}
