/* cmd_suite.c - `drivebench suite`: loads a suite (by name or file), picks
 * the target (the scratch file by default), and runs or resumes the suite
 * unattended (suite/suiterun.h), or on several targets at once
 * (suite_targets.h); Ctrl-C or SIGTERM stops within a second and leaves a
 * run that --resume continues. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/run_live.h"
#include "cmd/parse_options.h"
#include "cmd/suite_report.h"
#include "cmd/suite_targets.h"
#include "device/model_target.h"
#include "ranks/ranks.h"
#include "record/rank_run.h"
#include "store/store.h"
#include "suite/suite.h"
#include "suite/suiterun.h"
#include "util/error.h"
#include "util/units.h"
#include "util/text.h"
#include "job/options.h"

#define DEFAULT_SUITE SUITE_DEFAULT

struct suite_args {
	const char *suite;
	const char **targets;          /* TARGET and --target, in order (room for argc) */
	unsigned nr_targets;
	const char **labels;           /* --label, one per target (CMDOPT_APPEND's) */
	const char *metrics_file;      /* --metrics-file */
	const char *status_interval;   /* --status-interval: how often */
	const char *report;            /* --report FILE */
	unsigned nr_labels;
	struct store_args store;      /* --db, --destroy-data */
	bool resume;
	uint64_t max_buffer_mem;
	const char *time_scale;        /* --time-scale F, NULL = 1 */
	char **only, **skip;           /* NULL-terminated, strdup'd names */
	unsigned nr_only, nr_skip;
	const char **sets;             /* --set overrides, NULL-terminated */
	unsigned nr_sets;
};

/* Splits "a,b" into names appended to list (room for argc entries). */
static int add_names(const char *option, const char *value, char **list, unsigned *nr)
{
	char *copy = strdup(value), *save = NULL;

	if (!copy)
		return err_set("out of memory");
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		char *trimmed = text_trim(name);

		if (!trimmed[0])
			continue;
		if (!(list[*nr] = strdup(trimmed))) {
			free(copy);
			return err_set("out of memory");
		}
		(*nr)++;
	}
	free(copy);
	if (!*nr)
		return err_set("%s needs step names", option);
	return 0;
}

static int add_only(void *args, const struct cmdopt *o, const char *v)
{
	struct suite_args *a = args;

	return add_names(o->name, v, a->only, &a->nr_only);
}

static int add_skip(void *args, const struct cmdopt *o, const char *v)
{
	struct suite_args *a = args;

	return add_names(o->name, v, a->skip, &a->nr_skip);
}

static int add_target(void *args, const char *v)
{
	struct suite_args *a = args;

	if (!v[0])
		return err_set("empty target name");
	a->targets[a->nr_targets++] = v;
	return 0;
}

static int add_target_option(void *args, const struct cmdopt *o, const char *v)
{
	(void)o;
	return add_target(args, v);
}

static const struct cmdopt suite_options[] = {
	CMDOPT_STRING("--suite", 0, struct suite_args, suite, "NAME|FILE",
		      "the suite (default: " DEFAULT_SUITE "; with --resume: the\n"
		      "one the interrupted run ran)"),
	CMDOPT_VALUE_FN("--target", 0, add_target_option, "TARGET",
			"a target (repeatable: several run the suite at once,\n"
			"each its own run and drive; as TARGET arguments)"),
	CMDOPT_FLAG("--resume", 0, struct suite_args, resume,
		    "continue the last unfinished suite run on TARGET\n"
		    "(on each TARGET given)"),
	CMDOPT_VALUE_FN("--only", 0, add_only, "STEP[,STEP...]",
			"run only these steps or tests (repeatable)"),
	CMDOPT_VALUE_FN("--skip", 0, add_skip, "STEP[,STEP...]",
			"leave these steps or tests out (repeatable)"),
	STORE_OPTION_DB(struct suite_args, store),
	CMDOPT_APPEND("--label", struct suite_args, labels, nr_labels, "LABEL",
		      "the drive's name in reports and comparisons; with\n"
		      "several targets one per target, in their order, or none"),
	STORE_OPTION_DESTROY(struct suite_args, store),
	CMDOPT_APPEND("--set", struct suite_args, sets, nr_sets, "[NAME.]KEY=VALUE",
		      "an option or step parameter for every step that takes\n"
		      "it, or for step or test NAME's (repeatable)"),
	CMDOPT_STRING("--time-scale", 0, struct suite_args, time_scale, "F",
		      "every step's runtime, ramp, pause and idle x F\n"
		      "(0.01-100; fills and checkpoints keep their bytes)"),
	CMDOPT_STRING("--metrics-file", 0, struct suite_args, metrics_file, "PATH",
		      "write live metrics for Prometheus (OpenMetrics text,\n"
		      "atomically) to PATH every --status-interval and\n"
		      "after each point (node_exporter's textfile collector);\n"
		      "under mpirun each rank its own: %r in PATH"),
	CMDOPT_STRING("--status-interval", 0, struct suite_args, status_interval, "TIME",
		      "how often --metrics-file is written (default 5s)"),
	CMDOPT_STRING("--report", 0, struct suite_args, report, "FILE",
		      "the HTML report of the run (of every target's), rewritten\n"
		      "after every step (marked in progress, with the ETA; a\n"
		      "browser reloads it), at the end as `report --db DB RUN...`\n"
		      "writes it"),
	CMDOPT_SIZE("--max-buffer-mem", struct suite_args, max_buffer_mem,
		    "refuse jobs needing more memory for I/O buffers,\n"
		    "verify maps, series and histograms (each target's;\n"
		    "the default, a quarter of RAM, is shared by targets)"),
};

static const struct cmdopt_spec suite_spec = {
	.command = "suite",
	.synopsis = "suite [options] [TARGET...]",
	.about =
	"Runs a suite (suites/NAME.suite) on TARGET unattended: every step through\n"
	"the runner, each step's results stored as it completes. Interrupted (Ctrl-C,\n"
	"kill, power loss), --resume continues the last run on TARGET at its first\n"
	"incomplete step, in the same run. The database (--db) is where resume\n"
	"finds its run.\n"
	"\n"
	"Several targets (TARGET arguments or --target, repeatable) run the suite\n"
	"at once, one process each, each stored as its own run and drive exactly as\n"
	"a run on that target alone. Every target is checked (one drive named twice,\n"
	"the safety gate, --resume) before any starts; one refused stops them all.\n"
	"A target that fails is named and the others finish; Ctrl-C stops them all;\n"
	"--resume resumes each (one whose last run finished is left out). Output\n"
	"lines carry their target: [TARGET] ...; a summary names each target's run.\n",
	.options = suite_options,
	.nr_options = CMDOPT_COUNT(suite_options),
	.footer =
	"Without TARGET the suite runs on the 1 GiB scratch file\n"
	"./drivebench-scratch.dat ($DRIVEBENCH_SCRATCH overrides). Several targets:\n"
	"--target A --target B, or A B (a comma is part of a path, not a list).\n"
	"Exit codes: 0 every selected step done; 1 a step failed or interrupted;\n"
	"2 bad input; 3 refused by the safety gate; with several targets the most\n"
	"severe of theirs. See docs/suite-run.md (\"Many drives at once\").\n",
	.positional = add_target,
};

/* Room for the step names (each option adds at most one name per
 * character of argv) and the store's arguments, then the table. */
static int parse_args(int argc, char **argv, struct suite_args *a, int *exit_code)
{
	size_t room = 1;

	for (int i = 1; i < argc; i++)
		room += strlen(argv[i]) + 1;
	a->only = calloc(room, sizeof(char *));
	a->skip = calloc(room, sizeof(char *));
	a->targets = calloc((size_t)argc + 1, sizeof(char *));
	if (!a->only || !a->skip || !a->targets || store_args_init(&a->store, argc)) {
		fprintf(stderr, "drivebench suite: out of memory\n");
		*exit_code = EXIT_RUN_FAILED;
		return 1;
	}
	return cmd_parse(&suite_spec, argc, argv, a, exit_code);
}

static void free_names(char **names)
{
	for (char **n = names; n && *n; n++)
		free(*n);
	free(names);
}

static int apply_time_scale(struct suite *s, const char *text)
{
	double f;

	if (units_parse_double(text, &f))
		return err_set("--time-scale: '%s' is not a number", text);
	return suite_scale_time(s, f);
}

/* The target the suite's steps are checked for (suite_load_on): a
 * modelled drive when every target is one (each process aims the steps at
 * its own), so the options of ioengine=vssd (vssd_state=) are the steps'. */
static const char *steps_target(const struct suite_args *a)
{
	for (unsigned i = 0; i < a->nr_targets; i++)
		if (!model_target_is(a->targets[i]))
			return NULL;
	return a->nr_targets ? a->targets[0] : NULL;
}

/* --resume without --suite: the suite file the targets' runs ran, the
 * same for every target. */
static int recorded_suite(const struct suite_args *a, char *path, size_t len)
{
	char other[JOB_PATH_MAX];

	if (suite_resume_lookup(a->store.db_path, a->targets[0], path, len))
		return -1;
	for (unsigned i = 1; i < a->nr_targets; i++) {
		if (suite_resume_lookup(a->store.db_path, a->targets[i], other, sizeof(other)))
			return -1;
		if (strcmp(path, other))
			return err_set("--resume: the last runs on '%s' and '%s' ran different suites "
				       "('%s', '%s'): resume them one at a time, or name one with --suite",
				       a->targets[0], a->targets[i], path, other);
	}
	return 0;
}

/* One label per target, or none: one label on several drives would
 * make them one drive in every report. */
static int check_labels(const struct suite_args *a)
{
	unsigned targets = a->nr_targets ? a->nr_targets : 1;

	if (a->nr_labels == 0 || a->nr_labels == targets)
		return 0;
	if (targets == 1)
		return err_set("--label is given %u times for one target", a->nr_labels);
	return err_set("--label is given %u time%s for %u targets: give one per target, in "
		       "their order, or none (one label for several drives would show them as "
		       "one drive)", a->nr_labels, a->nr_labels == 1 ? "" : "s", targets);
}

/* The finished page, whatever the suite's outcome; its failure fails a
 * suite that otherwise succeeded (the results are stored). */
static void final_report(const struct suite_report *r, int *rc)
{
	char runs[2048] = "";
	size_t used = 0;
	bool written;
	int failed = suite_report_final(r, &written);
	int64_t *ids = calloc(r->nr, sizeof(*ids));
	unsigned n = ids ? suite_report_runs(r, ids) : 0;

	for (unsigned i = 0; i < n && used < sizeof(runs); i++)
		used += (size_t)snprintf(runs + used, sizeof(runs) - used, "%s%lld",
					 used ? " " : "", (long long)ids[i]);
	free(ids);
	if (!failed && written)
		fprintf(stderr, "drivebench: report of run%s %s in %s\n", n > 1 ? "s" : "", runs,
			r->path);
	if (!failed)
		return;
	fprintf(stderr, "drivebench suite: %s; `drivebench report --db %s %s --out %s` "
		"writes it\n", err_msg(), r->db_path, runs, r->path);
	if (*rc == EXIT_OK)
		*rc = EXIT_RUN_FAILED;
}

int cmd_suite(int argc, char **argv)
{
	struct suite_args a = { 0 };
	struct suite s = { 0 };
	struct suite_options opt = { 0 };
	char recorded[JOB_PATH_MAX], command[8192], own_target[JOB_PATH_MAX];
	const char *target = NULL;
	struct suite_report report = { 0 };
	bool loaded = false;
	int rc = EXIT_BAD_INPUT, eta_mode;

	if (parse_args(argc, argv, &a, &rc))
		goto done;
	if (check_labels(&a))
		goto fail;
	/* before anything is read or written: the scratch file, the suite */
	if (a.report && suite_report_check(a.report, a.nr_targets ? a.nr_targets : 1)) {
		rc = err_exit_code(EXIT_BAD_INPUT);   /* 3: the gate's refusals */
		goto fail;
	}
	if (a.metrics_file && a.nr_targets > 1) {
		err_set("--metrics-file: one target at a time (a suite per target, each its own file)");
		goto fail;
	}
	if (a.metrics_file && (metrics_check_path(a.metrics_file) ||
			       metrics_check_other(a.metrics_file, "--report", a.report) ||
			       metrics_check_other(a.metrics_file, "--db", a.store.db_path) ||
			       metrics_check_other(a.metrics_file, "the target",
						   a.nr_targets ? a.targets[0] : NULL))) {
		rc = err_exit_code(EXIT_BAD_INPUT);   /* 3: the gate's refusals */
		goto fail;
	}
	cmd_catch_stop_signals();   /* before the scratch layout, which may take a while */
	/* the suite file is read (and refused when it is no regular file)
	 * before the default target is laid out, unless --resume finds it
	 * in the database by the target */
	if ((a.suite || !a.resume) &&
	    suite_load_on(a.suite ? a.suite : DEFAULT_SUITE, a.sets, a.nr_sets, steps_target(&a),
			  &s))
		goto fail;
	loaded = a.suite || !a.resume;
	if (!a.nr_targets && cmd_default_target(&a.targets[a.nr_targets++])) {
		rc = err_exit_code(EXIT_BAD_INPUT);   /* 1 when a signal cut the layout */
		goto fail;
	}
	target = a.targets[0];
	if (!loaded) {
		if (recorded_suite(&a, recorded, sizeof(recorded)))
			goto fail;
		a.suite = recorded;
		if (suite_load_on(a.suite, a.sets, a.nr_sets, steps_target(&a), &s))
			goto fail;
		loaded = true;
	}
	if (a.time_scale && apply_time_scale(&s, a.time_scale))
		goto fail;
	cmd_join_command(argc, argv, command, sizeof(command));
	if (a.nr_targets > 1 && ranks_active()) {
		/* a process per target: MPI does not cross a fork, and under
		 * mpirun each rank has its own target already */
		err_set("several targets at once do not run under mpirun: give one TARGET "
			"(each rank its own with %%r, %%h, %%l or %%t)");
		goto fail;
	}
	/* under mpirun each rank its own target (%r, %h, %l, %t) */
	if (a.nr_targets == 1 && rank_own_target(target, own_target, sizeof(own_target)))
		goto fail;
	opt.target = a.nr_targets == 1 ? own_target : target;
	opt.db_path = a.store.db_path;
	opt.label = a.nr_labels ? a.labels[0] : "";
	opt.resume = a.resume;
	opt.only = a.nr_only ? (const char *const *)a.only : NULL;
	opt.skip = a.nr_skip ? (const char *const *)a.skip : NULL;
	opt.destroy_ids = a.store.destroy_ids;
	opt.nr_destroy_ids = a.store.nr_destroy_ids;
	opt.max_buffer_mem = a.max_buffer_mem;
	opt.stop = &cmd_stop_requested;
	opt.progress_tty = isatty(STDERR_FILENO) == 1;
	opt.command = command;
	opt.metrics_file = a.metrics_file;
	opt.metrics_ns = RUN_METRICS_DEFAULT_NS;
	if (a.status_interval && run_live_parse(a.status_interval, NULL, &opt.metrics_ns, &eta_mode))
		goto fail;
	if (a.report && suite_report_init(&report, a.report, a.store.db_path, a.targets,
					  a.nr_targets))
		goto fail;
	if (a.report && a.nr_targets == 1) {
		opt.step_done = suite_report_step;
		opt.step_done_arg = &report;
	}
	if (a.nr_targets > 1) {
		struct suite_targets t = {
			.targets = a.targets,
			.labels = a.nr_labels ? a.labels : NULL,
			.nr = a.nr_targets,
			.report = a.report ? &report : NULL,
		};

		rc = suite_targets_run(&s, &opt, &t);
		if (a.report)
			final_report(&report, &rc);
		goto done;
	}
	if (suite_run(&s, &opt, &rc) == 0) {
		fprintf(stderr, "drivebench: suite '%s' complete; results in %s\n", s.name, a.store.db_path);
		if (a.report)
			final_report(&report, &rc);
		goto done;
	}
	if (cmd_stop_requested || strstr(err_msg(), "interrupted")) {
		fprintf(stderr, "drivebench suite: %s\n", err_msg());
		if (strstr(err_msg(), "nothing was run"))   /* stopped opening the database */
			fprintf(stderr, "interrupted before the first step: nothing to resume\n");
		else
			fprintf(stderr, "interrupted: resume with drivebench suite --resume --db %s %s\n",
				a.store.db_path, target);
		if (a.report)
			final_report(&report, &rc);
		goto done;
	}
	if (a.report && report.last[0].run_id) {   /* the step's failure, then the page */
		fprintf(stderr, "drivebench suite: %s\n", err_msg());
		final_report(&report, &rc);
		goto done;
	}
fail:
	fprintf(stderr, "drivebench suite: %s\n", err_msg());
done:
	if (loaded)
		suite_free(&s);
	free_names(a.only);
	free_names(a.skip);
	free(a.sets);
	free(a.targets);
	free(a.labels);
	suite_report_free(&report);
	store_args_free(&a.store);
	return rc;
}
