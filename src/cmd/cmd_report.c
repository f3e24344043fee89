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
#include "cmd/report_pts.h"
#include "report/analysis/report.h"
#include "report/review/review.h"
#include "report/analysis/select.h"
#include "report/analysis/spec.h"
#include "store/store.h"
#include "device/output_gate.h"
#include "util/error.h"

#define REPORT_DEFAULT_OUT "./drivebench-report.html"

struct spec_arg {
	const char *label, *path;
};

struct report_args {
	const char *db_path, *out_path, *title, *reviewed, *format;
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
		      "the database (default " STORE_PATH_HELP ")"),
	CMDOPT_VALUE_FN("--label", 0, add_label, "LABEL",
			"add the runs of this drive label (repeatable)"),
	CMDOPT_VALUE_FN("--spec", 0, add_spec, "LABEL=FILE.ini",
			"use this spec sheet for LABEL (else the stored one)"),
	CMDOPT_STRING("--title", 0, struct report_args, title, "TEXT", "the page title"),
	CMDOPT_STRING("--reviewed", 0, struct report_args, reviewed, "LABEL",
		      "the drive the summary tells of (default: the first)"),
	CMDOPT_STRING("--out", 0, struct report_args, out_path, "FILE",
		      "where to write (default " REPORT_DEFAULT_OUT ")"),
	CMDOPT_STRING("--format", 0, struct report_args, format, "html|pts",
		      "html: the review (default); pts: the SNIA PTS report\n"
		      "pages of suite runs whose steps carry tests"),
};

static const struct cmdopt_spec report_spec = {
	.command = "report",
	.synopsis = "report [--db FILE] [RUN|LABEL...] [--label LABEL]...\n"
		    "                         [--spec LABEL=FILE.ini]... [--reviewed LABEL] [--title TEXT]\n"
		    "                         [--format html|pts] [--out FILE]",
	.about =
	"Writes one self-contained HTML page (inline CSS and SVG, opens offline)\n"
	"with the review's charts and tables: sweep charts of MB/s, IOPS and mean\n"
	"latency over the QD/jobs points, bar charts of single-point tests, time\n"
	"series, latency tables, computed sentences (peak, 1/1 latency, worst\n"
	"latency, flattening, against rated) and differential heatmaps of any two\n"
	"drives (a drive selector on the page). Results are grouped by drive label\n"
	"(\"run N\" when a run has none); the summary tells of the first drive, or\n"
	"of --reviewed. With no RUN or LABEL, every run in the database is shown.\n",
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

/* What the report is drawn from: the selected runs, one drive each group,
 * its spec sheet and warnings. */
struct report_input {
	struct report_selection sel;
	struct report_drive *drives;
	struct drive_spec *specs;
	struct report_host *hosts;
	char ***warnings;
};

/* Opens the store without creating it, checks --out can be written, and
 * selects the runs. Returns the exit code on failure (message printed), 0. */
static int select_runs(const struct report_args *a, struct store **db,
		       struct report_input *in)
{
	/* reading must not create an empty database */
	if (access(a->db_path, R_OK) != 0) {
		fprintf(stderr, "drivebench report: %s: %s\n", a->db_path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (store_open_read(a->db_path, "report", db) < 0)
		goto failed;
	/* before the work: a report that cannot be written is refused now */
	if (output_gate_check("--out", a->out_path, OUTPUT_FILE))
		goto failed;
	if (report_select(*db, a->sels, a->nr_sels, &in->sel) < 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return in->sel.unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	in->drives = calloc(in->sel.nr_groups + 1, sizeof(*in->drives));
	in->specs = calloc(in->sel.nr_groups + 1, sizeof(*in->specs));
	in->warnings = calloc(in->sel.nr_groups + 1, sizeof(*in->warnings));
	in->hosts = calloc(in->sel.nr_groups + 1, sizeof(*in->hosts));
	if (!in->drives || !in->specs || !in->warnings || !in->hosts) {
		fprintf(stderr, "drivebench report: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	return 0;
failed:
	fprintf(stderr, "drivebench report: %s\n", err_msg());
	return err_exit_code(EXIT_BAD_INPUT);
}

/* --spec LABEL=FILE: each file's sheet on the drive of that label. */
static int load_spec_files(const struct report_args *a, struct report_input *in)
{
	for (unsigned s = 0; s < a->nr_specs; s++) {
		unsigned g;

		if (!a->specs[s].label) {
			fprintf(stderr, "drivebench report: out of memory\n");
			return EXIT_RUN_FAILED;
		}
		for (g = 0; g < in->sel.nr_groups; g++)
			if (!strcmp(in->sel.groups[g].label, a->specs[s].label))
				break;
		if (g == in->sel.nr_groups) {
			fprintf(stderr, "drivebench report: --spec: no selected drive is labelled '%s'\n",
				a->specs[s].label);
			return EXIT_BAD_INPUT;
		}
		if (spec_load(a->specs[s].path, &in->specs[g], NULL) < 0) {
			fprintf(stderr, "drivebench report: %s\n", err_msg());
			return EXIT_BAD_INPUT;
		}
		in->drives[g].spec = &in->specs[g];
	}
	return 0;
}

/* One drive per selected group, with its warnings and, when no --spec
 * gave one, the spec sheet stored with its runs. */
static int fill_drives(struct report_input *in)
{
	for (unsigned g = 0; g < in->sel.nr_groups; g++) {
		const struct report_group *group = &in->sel.groups[g];
		struct report_drive *d = &in->drives[g];
		char name[200];

		d->label = group->label;
		d->recs = group->recs;
		d->nr = group->nr;
		d->steady = group->steady;
		d->nr_steady = group->nr_steady;
		d->measured_on = (const char *const *)group->measured_on;
		d->nr_measured_on = group->nr_measured_on;
		d->ran = (const char *const *)group->ran;
		d->nr_ran = group->nr_ran;
		d->steps = group->steps;
		d->nr_steps = group->nr_steps;
		if (group->has_host) {
			in->hosts[g] = (struct report_host){ group->host_run.host_name,
				group->host_run.host_kernel, group->host_run.host_cpu,
				group->host_run.host_cores, group->host_run.host_memory_bytes,
				group->host_run.host_os, group->host_run.host_server };
			d->host = &in->hosts[g];
		}
		if (drive_warnings(group, d, &in->warnings[g])) {
			fprintf(stderr, "drivebench report: %s\n", err_msg());
			return EXIT_RUN_FAILED;
		}
		/* a --spec sheet says nothing of the model file's */
		if (!d->spec && group->spec_note[0])
			d->spec_note = group->spec_note;
		if (!d->spec && group->spec_warning[0]) {
			d->spec_warning = group->spec_warning;
			fprintf(stderr, "drivebench report: warning: %s: %s\n", group->label,
				group->spec_warning);
		}
		if (d->spec || !group->spec_text)
			continue;
		snprintf(name, sizeof(name), "spec sheet of %s", group->label);
		if (spec_parse(group->spec_text, name, &in->specs[g]) == 0)
			d->spec = &in->specs[g];
		else
			fprintf(stderr, "drivebench report: warning: %s (shown without ratings)\n",
				err_msg());
	}
	return 0;
}

/* --reviewed LABEL: the index of that drive among the selected. */
static int reviewed_drive(const struct report_args *a, const struct report_input *in,
			  unsigned *index)
{
	*index = 0;
	if (!a->reviewed)
		return 0;
	for (unsigned g = 0; g < in->sel.nr_groups; g++)
		if (!strcmp(in->sel.groups[g].label, a->reviewed)) {
			*index = g;
			return 0;
		}
	fprintf(stderr, "drivebench report: --reviewed: no selected drive is labelled '%s'\n",
		a->reviewed);
	return EXIT_BAD_INPUT;
}

/* The page, through the write gate; its path on standard output. */
static int write_page(const struct report_args *a, const struct report_input *in)
{
	char subtitle[1200];
	struct report_options opt = { a->title, subtitle, 0 };
	int written, closed, rc = reviewed_drive(a, in, &opt.reviewed);
	FILE *out;

	if (rc)
		return rc;
	out = output_gate_open("--out", a->out_path);

	if (!out) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return err_exit_code(EXIT_RUN_FAILED);
	}
	snprintf(subtitle, sizeof(subtitle), "%u run(s) from %s", in->sel.nr_runs, a->db_path);
	written = report_html(out, in->drives, in->sel.nr_groups, &opt);
	/* a failed write keeps its message: closing only adds one on failure */
	closed = output_gate_close(out, "--out", a->out_path);
	if (written < 0 || closed != 0) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return EXIT_RUN_FAILED;
	}
	printf("%s\n", a->out_path);
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.db_path = store_default_path(), .out_path = REPORT_DEFAULT_OUT,
		.sels = calloc((size_t)argc + 1, sizeof(struct selector)),
		.specs = calloc((size_t)argc + 1, sizeof(struct spec_arg)),
	};
	struct report_input in = { 0 };
	struct store *db = NULL;
	int rc = EXIT_BAD_INPUT;

	if (!a.sels || !a.specs) {
		fprintf(stderr, "drivebench report: out of memory\n");
		rc = EXIT_RUN_FAILED;
	} else if (cmd_parse(&report_spec, argc, argv, &a, &rc)) {
		/* --help or a bad option: rc says which */
	} else if (a.format && !strcmp(a.format, "pts")) {
		rc = cmd_report_pts(a.db_path, a.out_path, a.title, a.sels, a.nr_sels,
				    a.nr_specs || a.reviewed);
	} else if (a.format && strcmp(a.format, "html")) {
		fprintf(stderr, "drivebench report: --format: unknown format '%s' (html, pts)\n",
			a.format);
		rc = EXIT_BAD_INPUT;
	} else if (!(rc = select_runs(&a, &db, &in)) && !(rc = load_spec_files(&a, &in)) &&
		   !(rc = fill_drives(&in))) {
		rc = write_page(&a, &in);
	}
	free_warnings(in.warnings, in.sel.nr_groups);
	report_selection_free(&in.sel);
	if (db)
		store_close(db);
	for (unsigned s = 0; a.specs && s < a.nr_specs; s++)
		free((char *)a.specs[s].label);
	free(a.specs);
	free(a.sels);
	free(in.drives);
	free(in.specs);
	free(in.hosts);
	return rc;
}
