/* select.h - choosing what report and compare show: run ids and drive
 * labels resolved against the results database, results grouped by label
 * (or "run N" when unlabelled), with each label's stored spec sheet (or,
 * for a modelled drive without one, its model file's), what its runs were
 * measured on and the names of their steps. */
#ifndef DRIVEBENCH_SELECT_H
#define DRIVEBENCH_SELECT_H

#include <stdbool.h>

#include "report/analysis/report.h"
#include "store/store.h"

struct selector {
	const char *text;       /* a run id (digits) or a label */
	bool label_only;        /* from --label: never a run id */
};

struct report_group {
	char label[160];
	struct result_record *recs;   /* shallow copies; owned by the selection */
	unsigned nr;
	char *spec_text;              /* stored spec sheet or NULL */
	/* when no sheet is stored for the label and its runs ran on a model:
	 * where spec_text came from, or why there is none (model_sheet.h) */
	char spec_note[1200], spec_warning[1200];
	bool model_sheet_tried;
	char **measured_on;           /* its runs' distinct drive models */
	unsigned nr_measured_on;
	char **ran;                   /* what its runs ran, each distinct once
				       * (report_provenance) */
	unsigned nr_ran;
	struct report_step_name *steps; /* its runs' steps */
	unsigned nr_steps;
	struct report_steady *steady; /* suites' steady-state steps */
	unsigned nr_steady;
	struct stored_run *not_whole; /* its runs that are incomplete or partial */
	unsigned nr_not_whole;
	struct stored_run host_run;   /* its first run with a stored host */
	bool has_host;
};

/* What a run ran, in a line: "suite quick.suite, time scale 0.2, on
 * model micron-6600-ion-245t.ini at scale 4g", "fio JSON imported from
 * fio.json", "run on /dev/loop0 (loop device over /tmp/d.img, 64.0 MiB)".
 * detail: the target in words (target_detail.h), "" or NULL for none. */
void report_provenance(const struct stored_run *run, const char *detail, char *buf,
			size_t len);

struct report_selection {
	struct report_group *groups;
	unsigned nr_groups;
	struct result_record **loaded;  /* what store_results_load returned */
	unsigned *nr_loaded;
	unsigned nr_runs;
	bool unknown;                   /* failed on an unknown run or label */
};

/* Resolves the selectors in order (none = every run), loads the results
 * and groups them. -1 with err_msg; sel->unknown tells a name that matched
 * nothing from a database failure. */
int report_select(struct store *s, const struct selector *sel_list, unsigned nr,
		  struct report_selection *sel);
void report_selection_free(struct report_selection *sel);

/* For a run that is not whole, the warning report, compare and export
 * print ("run 7 (suite, label 'x') is incomplete: it never finished ...");
 * false (and "") for a whole run. */
bool report_run_warning(const struct stored_run *run, char *buf, size_t len);

#endif
