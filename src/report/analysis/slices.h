/* slices.h - a drive's sorted points and the slice of them that is one
 * test, and a test's headline metric: what the review page, the summary's
 * standing and the findings all read a test through. */
#ifndef DRIVEBENCH_REPORT_SLICES_H
#define DRIVEBENCH_REPORT_SLICES_H

#include <stdbool.h>

#include "report/analysis/report.h"

struct drive_points {
	struct report_point *pts;
	unsigned n;
};

/* the points of one test in one drive: a slice of its sorted points */
struct slice {
	const struct report_point *pts;
	unsigned n;
};

/* drive dp's points of test (empty when it did not run it) */
struct slice report_test_slice(const struct drive_points *dp, const struct report_point *test);
/* headline metric of a test: IOPS for blocks up to 16K, else MB/s */
bool report_headline_iops(const struct report_point *test);
double report_headline(const struct report_point *p, bool iops);

#endif
