/* suite_report.h - `suite --report FILE`: the review page of the suite's
 * run, rewritten after every step (a new page in the same folder, renamed
 * over FILE) and marked "in progress: step K of N done, ETA ..." with a
 * refresh a browser follows; when the suite ends, however it ends, the page
 * `report --db DB RUN` writes, byte for byte (review_page.h). */
#ifndef DRIVEBENCH_SUITE_REPORT_H
#define DRIVEBENCH_SUITE_REPORT_H

#include <stdint.h>

#include "suite/suiterun.h"

/* How often (seconds) a browser reloads a page still in progress. */
#define SUITE_REPORT_REFRESH_S 60

struct suite_report {
	const char *path;      /* --report FILE */
	const char *db_path;   /* the suite's --db, named in the page as `report` names it */
};

/* Before the suite does anything: FILE passes the output gate, is a
 * regular file or a new name (never a device, a pipe or /dev/null: it is
 * replaced by a rename), an existing FILE is an HTML page (or empty), and
 * a new file can be made beside it. 0, or -1 with err_msg naming --report
 * (err_refused() for the gate's refusals to protect data: exit 3). */
int suite_report_check(const char *path);

/* suite_options.step_done: writes the page in progress; a failure is said
 * on standard error and the suite goes on. arg: a struct suite_report. */
void suite_report_step(void *arg, const struct suite_step_done *d);

/* The finished page of run_id (no progress mark, no refresh). 0, or -1
 * with err_msg. */
int suite_report_final(const struct suite_report *r, int64_t run_id);

#endif
