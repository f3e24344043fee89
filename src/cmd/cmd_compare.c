/* cmd_compare.c - `drivebench compare [--db FILE] [--json] [--all] A B [C ...]`: 2 to
 * 16 run ids or drive labels; prints, per result kind that any of them has
 * (points, checkpoint passes, GDS points, steady-state steps), every row
 * with each drive's figures and its % difference against A
 * (report/compare/compare_table.h builds and prints the table). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "report/compare/compare_table.h"
#include "report/analysis/report.h"
#include "report/analysis/select.h"
#include "store/store.h"
#include "util/error.h"

struct compare_args {
	const char *db_path;
	bool json;
	bool all;
	const char *names[COMPARE_MAX_DRIVES];
	unsigned nr_names;
};

static int add_name(void *args, const char *v)
{
	struct compare_args *a = args;

	if (a->nr_names == COMPARE_MAX_DRIVES)
		return err_set("takes at most %d runs or labels (a %dth: '%s')",
			       COMPARE_MAX_DRIVES, COMPARE_MAX_DRIVES + 1, v);
	a->names[a->nr_names++] = v;
	return 0;
}

static const struct cmdopt compare_options[] = {
	CMDOPT_STRING("--db", 0, struct compare_args, db_path, "FILE",
		      "the database (default " STORE_PATH_HELP ")"),
	CMDOPT_FLAG("--json", 0, struct compare_args, json,
		    "print the same content as one JSON object (one object per block)"),
	CMDOPT_FLAG("--all", 0, struct compare_args, all,
		    "also list the rows not every drive has (text; JSON always has them)"),
};

static const struct cmdopt_spec compare_spec = {
	.command = "compare",
	.synopsis = "compare [--db FILE] [--json] [--all] A B [C ...]",
	.about =
	"A, B, ... (2 to 16) are run ids or drive labels (a label takes all its\n"
	"runs; a later result of the same point replaces an earlier one). One block\n"
	"per result kind that any of them has, in this order: points (same rw, bs,\n"
	"iodepth, numjobs and direction: MB/s (10^6 bytes/s), IOPS, mean and p99\n"
	"latency in us), checkpoint passes (checkpoints, mean seconds per checkpoint,\n"
	"GB/s), GDS points (per block size, threads and direction: GiB/s, IOPS, mean\n"
	"latency), steady-state steps (rounds run, reached or not, mean of the last\n"
	"window). Each drive has a column group, and each after A its difference\n"
	"against A in % ((drive - A) / A). Only the rows every drive has are shown;\n"
	"each block's count line says how many each drive has that not every drive\n"
	"has, and --all lists them too ('-' where a drive has none). A block wider\n"
	"than 120 columns is shown as panels, one per figure, each with A.\n"
	"A run that is not whole (it never finished, or was stopped early) is\n"
	"compared as stored, with a warning naming it.\n",
	.options = compare_options,
	.nr_options = CMDOPT_COUNT(compare_options),
	.footer = "Exit 2 for an unknown run or label, or fewer than 2 or more than 16.\n"
		  "See docs/report.md.\n",
	.positional = add_name,
};

/* One drive: its selection, its results as one list, its warnings. */
struct side {
	struct report_selection sel;
	struct result_record *recs;
	unsigned nr;
	struct report_steady *steady;
	unsigned nr_steady;
	char label[200];
	const char *state;            /* "incomplete", "partial" or NULL */
	char **warnings;
	unsigned nr_warnings;
};

static unsigned count_recs(const struct report_selection *sel, unsigned *nr_steady)
{
	unsigned n = 0;

	*nr_steady = 0;
	for (unsigned g = 0; g < sel->nr_groups; g++) {
		n += sel->groups[g].nr;
		*nr_steady += sel->groups[g].nr_steady;
	}
	return n;
}

/* The groups' results and steady steps, one after another (shallow). */
static int join_groups(struct side *s)
{
	unsigned nr_steady, nr = count_recs(&s->sel, &nr_steady);

	s->recs = calloc(nr + 1, sizeof(*s->recs));
	s->steady = calloc(nr_steady + 1, sizeof(*s->steady));
	if (!s->recs || !s->steady)
		return err_set("out of memory");
	for (unsigned g = 0; g < s->sel.nr_groups; g++) {
		const struct report_group *gr = &s->sel.groups[g];

		if (gr->nr)
			memcpy(&s->recs[s->nr], gr->recs, gr->nr * sizeof(*s->recs));
		s->nr += gr->nr;
		if (gr->nr_steady)
			memcpy(&s->steady[s->nr_steady], gr->steady,
			       gr->nr_steady * sizeof(*s->steady));
		s->nr_steady += gr->nr_steady;
	}
	return 0;
}

/* The warning of each run that is not whole, and the side's state. */
static int collect_warnings(struct side *s)
{
	for (unsigned g = 0; g < s->sel.nr_groups; g++)
		for (unsigned i = 0; i < s->sel.groups[g].nr_not_whole; i++) {
			const struct stored_run *run = &s->sel.groups[g].not_whole[i];
			char text[1024], **grown;

			report_run_warning(run, text, sizeof(text));
			grown = realloc(s->warnings, (s->nr_warnings + 1) * sizeof(*grown));
			if (!grown)
				return err_set("out of memory");
			s->warnings = grown;
			if (!(s->warnings[s->nr_warnings] = strdup(text)))
				return err_set("out of memory");
			s->nr_warnings++;
			if (stored_run_incomplete(run))
				s->state = "incomplete";
			else if (!s->state)
				s->state = "partial";
		}
	return 0;
}

static int load_side(struct store *db, const char *what, struct side *s)
{
	struct selector one = { what, false };

	if (report_select(db, &one, 1, &s->sel) < 0 || join_groups(s) < 0)
		return -1;
	snprintf(s->label, sizeof(s->label), "%s",
		 s->sel.nr_groups ? s->sel.groups[0].label : what);
	return collect_warnings(s);
}

static void free_side(struct side *s)
{
	for (unsigned i = 0; i < s->nr_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->steady);
	free(s->recs);
	report_selection_free(&s->sel);
}

static void warn_sides(const struct side *sides, const struct compare_drive *drives,
		       unsigned nr)
{
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < sides[d].nr_warnings; i++)
			fprintf(stderr, "drivebench compare: warning: %s: %s\n", drives[d].name,
				sides[d].warnings[i]);
}

static int print_table(const struct compare_args *args, const struct side *sides, unsigned nr)
{
	static const char letters[COMPARE_MAX_DRIVES][2] = {
		"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P",
	};
	struct compare_drive drives[COMPARE_MAX_DRIVES];
	struct compare_who who[COMPARE_MAX_DRIVES];
	struct compare_table t;
	int rc;

	for (unsigned d = 0; d < nr; d++) {
		drives[d] = (struct compare_drive){ letters[d], sides[d].recs, sides[d].nr,
						    sides[d].steady, sides[d].nr_steady };
		who[d] = (struct compare_who){ args->names[d], sides[d].label, sides[d].state,
					       (const char *const *)sides[d].warnings,
					       sides[d].nr_warnings };
	}
	warn_sides(sides, drives, nr);
	rc = compare_table_build(drives, nr, &t);
	if (rc == 0)
		rc = args->json ? compare_print_json(stdout, &t, who)
				: compare_print_text(stdout, &t, who, args->all);
	compare_table_free(&t);
	return rc;
}

static int open_db(const char *db_path, struct store **db)
{
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "drivebench compare: %s: %s\n", db_path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (store_open_read(db_path, "compare", db) < 0) {
		fprintf(stderr, "drivebench compare: %s\n", err_msg());
		return err_exit_code(EXIT_BAD_INPUT);
	}
	return EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args args = { .db_path = store_default_path() };
	struct side sides[COMPARE_MAX_DRIVES];
	struct store *db = NULL;
	unsigned loaded = 0;
	int rc = EXIT_BAD_INPUT;

	if (cmd_parse(&compare_spec, argc, argv, &args, &rc))
		return rc;
	if (args.nr_names < COMPARE_MIN_DRIVES) {
		fprintf(stderr, "drivebench compare: wants %d to %d runs or labels, got %u (see "
			"'drivebench compare --help')\n", COMPARE_MIN_DRIVES, COMPARE_MAX_DRIVES,
			args.nr_names);
		return EXIT_BAD_INPUT;
	}
	if ((rc = open_db(args.db_path, &db)) != EXIT_OK)
		return rc;
	memset(sides, 0, sizeof(sides));
	for (; loaded < args.nr_names; loaded++)
		if (load_side(db, args.names[loaded], &sides[loaded]) < 0) {
			fprintf(stderr, "drivebench compare: %s\n", err_msg());
			rc = sides[loaded].sel.unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
			loaded++;
			goto done;
		}
	rc = EXIT_OK;
	if (print_table(&args, sides, args.nr_names) < 0) {
		fprintf(stderr, "drivebench compare: %s\n", err_msg());
		rc = EXIT_RUN_FAILED;
	}
done:
	for (unsigned d = 0; d < loaded; d++)
		free_side(&sides[d]);
	store_close(db);
	return rc;
}
