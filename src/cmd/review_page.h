/* review_page.h - the review page of stored runs as `report` writes it:
 * the runs selected, one drive per label with its warnings and spec
 * sheet, the page written. `report` (cmd_report.c) and `suite --report`
 * (suite_report.c) share it, so the page a suite leaves is the one
 * `report` writes afterwards, byte for byte. */
#ifndef DRIVEBENCH_REVIEW_PAGE_H
#define DRIVEBENCH_REVIEW_PAGE_H

#include <stdio.h>

#include "report/analysis/report.h"
#include "report/analysis/select.h"
#include "report/analysis/spec.h"
#include "report/review/review.h"
#include "store/store.h"

/* What the page is drawn from: the selected runs, one drive each group,
 * its spec sheet and warnings. */
struct review_input {
	struct report_selection sel;
	struct report_drive *drives;
	struct drive_spec *specs;
	struct report_host *hosts;
	char ***warnings;
};

/* Selects the runs (none: every run) and makes room for their drives.
 * Returns 0, or the exit code (2 for an unknown run or label, else 1) with
 * err_msg. */
int review_select(struct store *db, const struct selector *sels, unsigned nr,
		  struct review_input *in);

/* One drive per selected group, with its warnings and, where no sheet was
 * set on it, the spec sheet stored with its runs. Each warning is printed
 * on say ("drivebench report: warning: ...") unless say is NULL. Returns 0,
 * or 1 with err_msg. */
int review_fill(struct review_input *in, FILE *say);

/* Writes the page; its subtitle names the runs and db_path (opt's own
 * subtitle is not used). -1 with err_msg. */
int review_write(FILE *out, const struct review_input *in, const char *db_path,
		 const struct report_options *opt);

void review_free(struct review_input *in);

#endif
