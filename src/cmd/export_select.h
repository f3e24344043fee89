/* export_select.h - what `drivebench export` writes (export_select.c): the
 * runs named by id and by --label, and the results of the --step names. */
#ifndef DRIVEBENCH_EXPORT_SELECT_H
#define DRIVEBENCH_EXPORT_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* --step NAME...: none = every result */
struct export_steps {
	const char **names;
	unsigned nr;
};

/* Whether rec belongs to one of the steps (steps.name), or no step is named. */
bool export_step_kept(const struct export_steps *st, const struct result_record *rec);
/* Moves the kept records to the front, in their order, and returns how
 * many; all nr stay in recs, to be freed as loaded. */
unsigned export_keep_steps(const struct export_steps *st, struct result_record *recs,
			   unsigned nr);

/* The runs: every run without ids and labels, else ids[] then each label's
 * runs (oldest first), each once. Returns the exit code (2: an unknown run
 * or a label without runs), err_msg set; caller frees *runs. */
int export_select_runs(struct store *s, const int64_t *ids, unsigned nr_ids,
		       const char **labels, unsigned nr_labels,
		       struct stored_run **runs, unsigned *nr_runs);
/* Each step named must hold a result of the runs: 0, or 2 with err_msg
 * naming the first that holds none (1 when the store fails). */
int export_check_steps(struct store *s, const struct stored_run *runs, unsigned nr_runs,
		       const struct export_steps *st);

#endif
