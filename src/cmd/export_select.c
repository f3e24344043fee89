/* export_select.c - the runs and steps `drivebench export` writes. */
#include "cmd/export_select.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

bool export_step_kept(const struct export_steps *st, const struct result_record *rec)
{
	if (!st || st->nr == 0)
		return true;
	for (unsigned i = 0; i < st->nr; i++)
		if (!strcmp(st->names[i], rec->step_name))
			return true;
	return false;
}

unsigned export_keep_steps(const struct export_steps *st, struct result_record *recs,
			   unsigned nr)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < nr; i++)
		if (export_step_kept(st, &recs[i])) {
			struct result_record r = recs[i];

			memmove(&recs[kept + 1], &recs[kept], (i - kept) * sizeof(*recs));
			recs[kept++] = r;
		}
	return kept;
}

static bool run_listed(const struct stored_run *runs, unsigned nr, int64_t id)
{
	for (unsigned i = 0; i < nr; i++)
		if (runs[i].id == id)
			return true;
	return false;
}

/* Appends run id (once) to *runs. */
static int add_run(struct store *s, int64_t id, struct stored_run **runs, unsigned *nr,
		   unsigned *cap)
{
	if (run_listed(*runs, *nr, id))
		return 0;
	if (*nr == *cap) {
		unsigned more = *cap ? *cap * 2 : 8;
		struct stored_run *grown = realloc(*runs, more * sizeof(**runs));

		if (!grown) {
			err_set("out of memory");
			return EXIT_RUN_FAILED;
		}
		*runs = grown;
		*cap = more;
	}
	if (store_run_get(s, id, &(*runs)[*nr]))
		return EXIT_BAD_INPUT;
	(*nr)++;
	return 0;
}

int export_select_runs(struct store *s, const int64_t *ids, unsigned nr_ids,
		       const char **labels, unsigned nr_labels,
		       struct stored_run **runs, unsigned *nr_runs)
{
	unsigned cap = 0;
	int rc = 0;

	*runs = NULL;
	*nr_runs = 0;
	if (nr_ids == 0 && nr_labels == 0)
		return store_runs_list(s, runs, nr_runs) ? EXIT_RUN_FAILED : 0;
	for (unsigned i = 0; rc == 0 && i < nr_ids; i++)
		rc = add_run(s, ids[i], runs, nr_runs, &cap);
	for (unsigned l = 0; rc == 0 && l < nr_labels; l++) {
		int64_t *label_ids = NULL;
		unsigned n = 0;

		if (store_runs_by_label(s, labels[l], &label_ids, &n))
			rc = EXIT_RUN_FAILED;
		else if (n == 0) {
			err_set("--label %s: no stored run has this label", labels[l]);
			rc = EXIT_BAD_INPUT;
		}
		for (unsigned i = 0; rc == 0 && i < n; i++)
			rc = add_run(s, label_ids[i], runs, nr_runs, &cap);
		free(label_ids);
	}
	return rc;
}

int export_check_steps(struct store *s, const struct stored_run *runs, unsigned nr_runs,
		       const struct export_steps *st)
{
	bool *found;
	int rc = 0;

	if (st->nr == 0)
		return 0;
	found = calloc(st->nr, sizeof(*found));
	if (!found) {
		err_set("out of memory");
		return EXIT_RUN_FAILED;
	}
	for (unsigned r = 0; rc == 0 && r < nr_runs; r++) {
		struct result_record *recs;
		unsigned nr;

		if (store_results_load(s, runs[r].id, &recs, &nr)) {
			rc = EXIT_RUN_FAILED;
			break;
		}
		for (unsigned i = 0; i < nr; i++)
			for (unsigned k = 0; k < st->nr; k++)
				found[k] = found[k] || !strcmp(st->names[k], recs[i].step_name);
		store_results_free(recs, nr);
	}
	for (unsigned k = 0; rc == 0 && k < st->nr; k++)
		if (!found[k]) {
			err_set("--step %s: no result of the runs selected is in a step so "
				"named", st->names[k]);
			rc = EXIT_BAD_INPUT;
		}
	free(found);
	return rc;
}
