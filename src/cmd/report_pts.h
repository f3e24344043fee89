/* report_pts.h - `report --format pts` (report_pts.c), for cmd_report.c. */
#ifndef DRIVEBENCH_REPORT_PTS_CMD_H
#define DRIVEBENCH_REPORT_PTS_CMD_H

#include <stdbool.h>

#include "report/analysis/select.h"

/* Writes the PTS report of the selected runs (run ids or labels; none:
 * every run with tests) to out_path; review_options: --spec or
 * --reviewed were given (they are the review page's, an error here).
 * Returns the exit code, messages printed. */
int cmd_report_pts(const char *db_path, const char *out_path, const char *title,
		   const struct selector *sels, unsigned nr, bool review_options);

#endif
