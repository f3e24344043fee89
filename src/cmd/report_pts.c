/* report_pts.c - `drivebench report --format pts`: resolves the runs
 * asked for (run ids, labels, or every run whose steps carry tests),
 * loads each from the store (report/pts/pts_load.c) and writes the SNIA PTS
 * report pages (report/pts/pts_html.c) through the output gate. */
#include "cmd/report_pts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "report/pts/pts.h"
#include "device/output_gate.h"
#include "util/error.h"

static bool all_digits(const char *s)
{
	return s[0] && strspn(s, "0123456789") == strlen(s);
}

/* The run ids the selectors name, in order, each once. */
static int resolve(struct store *db, const struct selector *sels, unsigned nr, int64_t **ids,
		   unsigned *n, bool *unknown)
{
	struct stored_run *runs = NULL;
	unsigned nr_runs = 0, cap = 0;

	*ids = NULL;
	*n = 0;
	if (!nr) {
		if (store_runs_list(db, &runs, &nr_runs))
			return -1;
		*ids = calloc(nr_runs + 1, sizeof(**ids));
		for (unsigned i = 0; *ids && i < nr_runs; i++)
			(*ids)[(*n)++] = runs[i].id;
		free(runs);
		return *ids ? 0 : err_set("out of memory");
	}
	for (unsigned i = 0; i < nr; i++) {
		int64_t *found = NULL, one;
		unsigned nf = 0;
		struct stored_run run;

		if (!sels[i].label_only && all_digits(sels[i].text)) {
			one = strtoll(sels[i].text, NULL, 10);
			if (store_run_get(db, one, &run)) {
				*unknown = true;
				return err_set("no run %s in the database", sels[i].text);
			}
			found = &one;
			nf = 1;
		} else if (store_runs_by_label(db, sels[i].text, &found, &nf) || !nf) {
			free(found);
			*unknown = true;
			return err_set("no run labelled '%s'", sels[i].text);
		}
		for (unsigned k = 0; k < nf; k++) {
			bool seen = false;

			for (unsigned j = 0; j < *n && !seen; j++)
				seen = (*ids)[j] == found[k];
			if (seen)
				continue;
			if (*n == cap) {
				int64_t *grown = realloc(*ids, (cap = cap ? cap * 2 : 8) * sizeof(**ids));

				if (!grown) {
					if (found != &one)
						free(found);
					return err_set("out of memory");
				}
				*ids = grown;
			}
			(*ids)[(*n)++] = found[k];
		}
		if (found != &one)
			free(found);
	}
	return 0;
}

/* The selected runs that have tests, loaded. */
static int load_runs(struct store *db, const int64_t *ids, unsigned n, bool named,
		     struct pts_run *runs, unsigned *nr)
{
	*nr = 0;
	for (unsigned i = 0; i < n; i++) {
		if (pts_load(db, ids[i], &runs[*nr]))
			return -1;
		if (!pts_run_has_tests(&runs[*nr])) {
			if (named)
				fprintf(stderr, "drivebench report: note: run %lld has no PTS tests "
					"(no step carries test = NAME); left out\n", (long long)ids[i]);
			pts_run_free(&runs[*nr]);
			continue;
		}
		if (!runs[*nr].dev.finished_ms || runs[*nr].dev.partial)
			fprintf(stderr, "drivebench report: warning: run %lld is %s; its tests are "
				"shown as stored\n", (long long)ids[i],
				runs[*nr].dev.finished_ms ? "partial" : "incomplete");
		(*nr)++;
	}
	return 0;
}

static int write_page(const char *out_path, const char *title, const char *db_path,
		      const struct pts_run *runs, unsigned nr)
{
	char subtitle[1200];
	struct pts_options opt = { title, subtitle };
	FILE *out = output_gate_open("--out", out_path);
	int written, closed;

	if (!out) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return err_exit_code(EXIT_RUN_FAILED);
	}
	snprintf(subtitle, sizeof(subtitle), "%u run(s) from %s", nr, db_path);
	written = pts_report_html(out, runs, nr, &opt);
	closed = output_gate_close(out, "--out", out_path);
	if (written < 0 || closed != 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return EXIT_RUN_FAILED;
	}
	printf("%s\n", out_path);
	return EXIT_OK;
}

int cmd_report_pts(const char *db_path, const char *out_path, const char *title,
		   const struct selector *sels, unsigned nr, bool review_options)
{
	struct store *db = NULL;
	struct pts_run *runs = NULL;
	unsigned n = 0, loaded = 0;
	int64_t *ids = NULL;
	bool unknown = false;
	int rc = EXIT_RUN_FAILED;

	if (review_options) {
		fprintf(stderr, "drivebench report: --spec and --reviewed are the review page's, "
			"not --format pts's\n");
		return EXIT_BAD_INPUT;
	}
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "drivebench report: %s: %s\n", db_path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (store_open_read(db_path, "report", &db) < 0 || output_gate_check("--out", out_path, OUTPUT_FILE)) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = err_exit_code(EXIT_BAD_INPUT);
		goto out;
	}
	if (resolve(db, sels, nr, &ids, &n, &unknown) ||
	    (!(runs = calloc(n + 1, sizeof(*runs))) && err_set("out of memory")) ||
	    load_runs(db, ids, n, nr > 0, runs, &loaded)) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		goto out;
	}
	if (!loaded) {
		fprintf(stderr, "drivebench report: --format pts: no selected run has PTS tests (a "
			"suite whose steps carry test = NAME, such as suites/snia-pts-e.suite)\n");
		rc = EXIT_BAD_INPUT;
		goto out;
	}
	rc = write_page(out_path, title, db_path, runs, loaded);
out:
	for (unsigned i = 0; runs && i < loaded; i++)
		pts_run_free(&runs[i]);
	free(runs);
	free(ids);
	if (db)
		store_close(db);
	return rc;
}
