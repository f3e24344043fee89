/* slices.c - a test's slice of a drive's points and its headline metric. */
#include "report/analysis/slices.h"

struct slice report_test_slice(const struct drive_points *dp, const struct report_point *test)
{
	struct slice s = { NULL, 0 };

	for (unsigned i = 0; i < dp->n; i++)
		if (report_same_test(&dp->pts[i], test)) {
			if (!s.pts)
				s.pts = &dp->pts[i];
			s.n++;
		}
	return s;
}

bool report_headline_iops(const struct report_point *test)
{
	return test->bs > 0 && test->bs <= 16384;
}

double report_headline(const struct report_point *p, bool iops)
{
	return iops ? p->iops : p->mbs;
}

const char *report_point_unsteady(const struct report_drive *d, const struct report_point *p)
{
	if (!d || !p || !p->rec || !p->rec->step_id)
		return NULL;
	for (unsigned i = 0; i < d->nr_steps; i++)
		if (d->steps[i].id == p->rec->step_id)
			return d->steps[i].unsteady[0] ? d->steps[i].unsteady : NULL;
	return NULL;
}
