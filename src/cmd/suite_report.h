/* suite_report.h - `suite --report FILE`: the review page of the suite's
 * runs, rewritten after every step (a new page in the same folder, renamed
 * over FILE) and marked "in progress: step K of N done, ETA ..." with a
 * refresh a browser follows; when the suite ends, however it ends, the page
 * `report --db DB RUN...` writes, byte for byte (review_page.h). With
 * several targets one page covers every target's run: each target's
 * process tells the parent its steps (suite_targets.c) and the parent alone
 * writes the page, after a step of any of them. */
#ifndef DRIVEBENCH_SUITE_REPORT_H
#define DRIVEBENCH_SUITE_REPORT_H

#include <stdint.h>

#include "suite/suiterun.h"

/* How often (seconds) a browser reloads a page still in progress. */
#define SUITE_REPORT_REFRESH_S 60

struct suite_report {
	const char *path;      /* --report FILE */
	const char *db_path;   /* the suite's --db, named in the page as `report` names it */
	const char *const *targets;   /* the targets' names (for several), in order */
	unsigned nr;                  /* targets: 1, or several */
	struct suite_step_done *last; /* each target's latest step (run_id 0: none yet) */
};

/* Before the suite does anything: FILE may take the page (review_file.h)
 * for nr targets. 0, or -1 with err_msg naming --report (err_refused() for
 * the gate's refusals to protect data: exit 3). */
int suite_report_check(const char *path, unsigned nr);

/* Makes room for nr targets' progress. 0, or -1 with err_msg. */
int suite_report_init(struct suite_report *r, const char *path, const char *db_path,
		      const char *const *targets, unsigned nr);
void suite_report_free(struct suite_report *r);

/* Target i told of step d: the page in progress is written; a failure is
 * said on standard error and the suite goes on. */
void suite_report_target_step(struct suite_report *r, unsigned i,
			      const struct suite_step_done *d);

/* suite_options.step_done for one target: arg is the struct suite_report. */
void suite_report_step(void *arg, const struct suite_step_done *d);

/* The runs known (ids: room for r->nr), oldest first: the page's
 * selection. */
unsigned suite_report_runs(const struct suite_report *r, int64_t *ids);

/* The finished page of every target's run known (no progress mark, no
 * refresh); *written false when no run is known (nothing to show). 0, or
 * -1 with err_msg. */
int suite_report_final(const struct suite_report *r, bool *written);

#endif
