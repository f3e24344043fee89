/* review.h - the review page: one self-contained HTML page (inline CSS and
 * SVG) of the drives' results, built from the shared analysis
 * (report/analysis/report.h), so it is testable without a database. */
#ifndef DRIVEBENCH_REPORT_REVIEW_H
#define DRIVEBENCH_REPORT_REVIEW_H

#include <stdio.h>

#include "report/analysis/report.h"

struct report_options {
	const char *title;                 /* NULL = "drivebench report" */
	const char *subtitle;              /* e.g. database and date, or NULL */
	unsigned reviewed;                 /* the drive the summary tells of (0: the first) */
	/* a page of a suite still running (`suite --report`): the line that
	 * says so under the title, and the seconds after which a browser
	 * reloads it; NULL and 0 for a finished page */
	const char *in_progress;
	unsigned refresh_s;
};

/* Writes the page. -1 with err_msg on a write error or bad input. */
int report_html(FILE *out, const struct report_drive *drives, unsigned nr,
		const struct report_options *opt);

#endif
