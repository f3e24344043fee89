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
#include "cmd/review_page.h"
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

/* Opens the store without creating it, checks --out can be written, and
 * selects the runs. Returns the exit code on failure (message printed), 0. */
static int select_runs(const struct report_args *a, struct store **db,
		       struct review_input *in)
{
	int rc;

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
	if ((rc = review_select(*db, a->sels, a->nr_sels, in)))
		fprintf(stderr, "drivebench report: %s\n", err_msg());
	return rc;
failed:
	fprintf(stderr, "drivebench report: %s\n", err_msg());
	return err_exit_code(EXIT_BAD_INPUT);
}

/* --spec LABEL=FILE: each file's sheet on the drive of that label. */
static int load_spec_files(const struct report_args *a, struct review_input *in)
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

/* --reviewed LABEL: the index of that drive among the selected. */
static int reviewed_drive(const struct report_args *a, const struct review_input *in,
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
static int write_page(const struct report_args *a, const struct review_input *in)
{
	struct report_options opt = { .title = a->title };
	int written, closed, rc = reviewed_drive(a, in, &opt.reviewed);
	FILE *out;

	if (rc)
		return rc;
	out = output_gate_open("--out", a->out_path);

	if (!out) {
		fprintf(stderr, "drivebench report: %s\n", err_msg());
		return err_exit_code(EXIT_RUN_FAILED);
	}
	written = review_write(out, in, a->db_path, &opt);
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
	struct review_input in = { 0 };
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
	} else if (!(rc = select_runs(&a, &db, &in)) && !(rc = load_spec_files(&a, &in))) {
		if ((rc = review_fill(&in, stderr)))
			fprintf(stderr, "drivebench report: %s\n", err_msg());
		else
			rc = write_page(&a, &in);
	}
	review_free(&in);
	if (db)
		store_close(db);
	for (unsigned s = 0; a.specs && s < a.nr_specs; s++)
		free((char *)a.specs[s].label);
	free(a.specs);
	free(a.sels);
	return rc;
}
