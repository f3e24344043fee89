/* cmd_report.c - `drivebench report [--db FILE] [RUN|LABEL...] [--label L]
 * [--spec LABEL=FILE.ini] [--out FILE]`: loads the chosen runs, groups them
 * by drive label, and writes the self-contained HTML review page. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "report/report.h"
#include "report/select.h"
#include "report/spec.h"
#include "store/store.h"
#include "target/output_gate.h"
#include "util/error.h"

#define REPORT_DEFAULT_OUT "./drivebench-report.html"

struct spec_arg {
	const char *label, *path;
};

struct report_args {
	const char *db_path, *out_path, *title;
	struct selector *sels;
	unsigned nr_sels;
	struct spec_arg *specs;
	unsigned nr_specs;
};

static int add_label(void *args, const struct cmdopt *o, const char *v)
{
	struct report_args *a = args;

	(void)o;
	a->sels[a->nr_sels].text = v;
	a->sels[a->nr_sels++].label_only = true;
	return 0;
}

static int add_spec(void *args, const struct cmdopt *o, const char *v)
{
	struct report_args *a = args;
	const char *eq = strchr(v, '=');

	(void)o;
	if (!eq || eq == v || !eq[1])
		return err_set("--spec wants LABEL=FILE.ini, not '%s'", v);
	a->specs[a->nr_specs].label = strndup(v, (size_t)(eq - v));
	if (!a->specs[a->nr_specs].label)
		return err_set("out of memory");
	a->specs[a->nr_specs++].path = eq + 1;
	return 0;
}

static int add_selector(void *args, const char *v)
{
	struct report_args *a = args;

	a->sels[a->nr_sels++].text = v;
	return 0;
}

static const struct cmdopt report_options[] = {
	CMDOPT_STRING("--db", 0, struct report_args, db_path, "FILE",
		      "the database (default $DRIVEBENCH_DB or ./drivebench.db)"),
	CMDOPT_VALUE_FN("--label", 0, add_label, "LABEL",
			"add the runs of this drive label (repeatable)"),
	CMDOPT_VALUE_FN("--spec", 0, add_spec, "LABEL=FILE.ini",
			"use this spec sheet for LABEL (else the stored one)"),
	CMDOPT_STRING("--title", 0, struct report_args, title, "TEXT", "the page title"),
	CMDOPT_STRING("--out", 0, struct report_args, out_path, "FILE",
		      "where to write (default " REPORT_DEFAULT_OUT ")"),
};

static const struct cmdopt_spec report_spec = {
	.command = "report",
	.synopsis = "report [--db FILE] [RUN|LABEL...] [--label LABEL]...\n"
		    "                         [--spec LABEL=FILE.ini]... [--title TEXT] [--out FILE]",
	.about =
	"Writes one self-contained HTML page (inline CSS and SVG, opens offline)\n"
	"with the review's charts and tables: sweep charts of MB/s, IOPS and mean\n"
	"latency over the QD/jobs points, bar charts of single-point tests, time\n"
	"series, latency tables, computed sentences (peak, 1/1 latency, worst\n"
	"latency, flattening, against rated) and a differential heatmap of the\n"
	"first two drives. Results are grouped by drive label (\"run N\" when a run\n"
	"has none). With no RUN or LABEL, every run in the database is shown.\n",
	.options = report_options,
	.nr_options = CMDOPT_COUNT(report_options),
	.footer = "Exit 2 for an unknown run or label or a bad option. See docs/report.md.\n",
	.positional = add_selector,
};

/* The warning lines of a drive's runs that are not whole, printed on
 * standard error and given to the page; its mark. */
static int drive_warnings(const struct report_group *g, struct report_drive *d,
			  char ***lines)
{
	*lines = calloc(g->nr_not_whole + 1, sizeof(**lines));
	if (!*lines)
		return err_set("out of memory");
	for (unsigned i = 0; i < g->nr_not_whole; i++) {
		char text[1024];

		report_run_warning(&g->not_whole[i], text, sizeof(text));
		fprintf(stderr, "drivebench report: warning: %s\n", text);
		if (!((*lines)[i] = strdup(text)))
			return err_set("out of memory");
		if (stored_run_incomplete(&g->not_whole[i]))
			d->state = "incomplete";
		else if (!d->state)
			d->state = "partial";
	}
	d->warnings = (const char *const *)*lines;
	d->nr_warnings = g->nr_not_whole;
	return 0;
}

static void free_warnings(char ***lines, unsigned nr)
{
	for (unsigned g = 0; lines && g < nr; g++)
		for (unsigned i = 0; lines[g] && lines[g][i]; i++)
			free(lines[g][i]);
	for (unsigned g = 0; lines && g < nr; g++)
		free(lines[g]);
	free(lines);
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.db_path = store_default_path(), .out_path = REPORT_DEFAULT_OUT,
		.sels = calloc((size_t)argc + 1, sizeof(struct selector)),
		.specs = calloc((size_t)argc + 1, sizeof(struct spec_arg)),
	};
	const char *db_path = NULL, *out_path = NULL, *title = NULL;
	struct selector *sels = a.sels;
	struct spec_arg *spec_args = a.specs;
	struct report_selection sel = { 0 };
	struct report_drive *drives = NULL;
	struct drive_spec *specs = NULL;
	char ***warnings = NULL;
	struct store *db = NULL;
	unsigned nr_sels = 0, nr_specs = 0;
	int rc = EXIT_BAD_INPUT;
	FILE *out = NULL;

	if (!sels || !spec_args) {
		fprintf(stderr, "drivebench report: out of memory\n");
		rc = EXIT_RUN_FAILED;
		goto done;
	}
	if (cmd_parse(&report_spec, argc, argv, &a, &rc))
		goto done;
	db_path = a.db_path;
	out_path = a.out_path;
	title = a.title;
	nr_sels = a.nr_sels;
	nr_specs = a.nr_specs;
	/* reading must not create an empty database */
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "drivebench report: %s: %s\n", db_path, strerror(errno));
		goto done;
	}
	if (store_open(db_path, &db) < 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = err_exit_code(rc);
		goto done;
	}
	/* before the work: a report that cannot be written is refused now */
	if (output_gate_check("--out", out_path, OUTPUT_FILE)) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = err_exit_code(rc);
		goto done;
	}
	if (report_select(db, sels, nr_sels, &sel) < 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = sel.unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		goto done;
	}
	drives = calloc(sel.nr_groups + 1, sizeof(*drives));
	specs = calloc(sel.nr_groups + 1, sizeof(*specs));
	warnings = calloc(sel.nr_groups + 1, sizeof(*warnings));
	if (!drives || !specs || !warnings) {
		fprintf(stderr, "drivebench report: out of memory\n");
		rc = EXIT_RUN_FAILED;
		goto done;
	}
	for (unsigned s = 0; s < nr_specs; s++) {
		unsigned g;
		if (!spec_args[s].label) {
			fprintf(stderr, "drivebench report: out of memory\n");
			rc = EXIT_RUN_FAILED;
			goto done;
		}
		for (g = 0; g < sel.nr_groups; g++)
			if (!strcmp(sel.groups[g].label, spec_args[s].label))
				break;
		if (g == sel.nr_groups) {
			fprintf(stderr, "drivebench report: --spec: no selected drive is labelled '%s'\n",
				spec_args[s].label);
			goto done;
		}
		if (spec_load(spec_args[s].path, &specs[g], NULL) < 0) {
			fprintf(stderr, "drivebench report: %s\n", err_msg());
			goto done;
		}
		drives[g].spec = &specs[g];
	}
	for (unsigned g = 0; g < sel.nr_groups; g++) {
		drives[g].label = sel.groups[g].label;
		drives[g].recs = sel.groups[g].recs;
		drives[g].nr = sel.groups[g].nr;
		drives[g].steady = sel.groups[g].steady;
		drives[g].nr_steady = sel.groups[g].nr_steady;
		if (drive_warnings(&sel.groups[g], &drives[g], &warnings[g])) {
			fprintf(stderr, "drivebench report: %s\n", err_msg());
			rc = EXIT_RUN_FAILED;
			goto done;
		}
		if (drives[g].spec || !sel.groups[g].spec_text)
			continue;
		char name[200];
		snprintf(name, sizeof(name), "spec sheet of %s", sel.groups[g].label);
		if (spec_parse(sel.groups[g].spec_text, name, &specs[g]) == 0)
			drives[g].spec = &specs[g];
		else
			fprintf(stderr, "drivebench report: warning: %s (shown without ratings)\n",
				err_msg());
	}
	out = output_gate_open("--out", out_path);
	if (!out) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = err_exit_code(EXIT_RUN_FAILED);
		goto done;
	}
	char subtitle[1200];
	snprintf(subtitle, sizeof(subtitle), "%u run(s) from %s", sel.nr_runs, db_path);
	struct report_options opt = { title, subtitle };
	int written = report_html(out, drives, sel.nr_groups, &opt);
	/* a failed write keeps its message: closing only adds one on failure */
	int closed = output_gate_close(out, "--out", out_path);
	out = NULL;
	if (written < 0 || closed != 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		rc = EXIT_RUN_FAILED;
		goto done;
	}
	printf("%s\n", out_path);
	rc = EXIT_OK;
done:
	if (out)
		output_gate_close(out, "--out", out_path);
	free_warnings(warnings, sel.nr_groups);
	report_selection_free(&sel);
	if (db)
		store_close(db);
	for (unsigned s = 0; spec_args && s < nr_specs; s++)
		free((char *)spec_args[s].label);
	free(spec_args);
	free(sels);
	free(drives);
	free(specs);
	return rc;
}
