/* cmd_suite.c - `drivebench suite`: loads a suite (by name or file), picks
 * the target (the scratch file by default), and runs or resumes the suite
 * unattended (suite/suiterun.h); Ctrl-C or SIGTERM stops within a second
 * and leaves a run that --resume continues. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "record/rank_run.h"
#include "store/store.h"
#include "suite/suite.h"
#include "suite/suiterun.h"
#include "util/error.h"
#include "util/units.h"
#include "util/text.h"
#include "job/options.h"

#define DEFAULT_SUITE "quick"

struct suite_args {
	const char *suite;
	const char *target;
	struct store_args store;      /* --db, --label, --destroy-data */
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

static int set_target(void *args, const char *v)
{
	struct suite_args *a = args;

	if (a->target)
		return err_set("unexpected argument '%s' (one target at most)", v);
	if (!v[0])
		return err_set("empty target name");
	a->target = v;
	return 0;
}

static const struct cmdopt suite_options[] = {
	CMDOPT_STRING("--suite", 0, struct suite_args, suite, "NAME|FILE",
		      "the suite (default: " DEFAULT_SUITE "; with --resume: the\n"
		      "one the interrupted run ran)"),
	CMDOPT_FLAG("--resume", 0, struct suite_args, resume,
		    "continue the last unfinished suite run on TARGET"),
	CMDOPT_VALUE_FN("--only", 0, add_only, "STEP[,STEP...]",
			"run only these steps or tests (repeatable)"),
	CMDOPT_VALUE_FN("--skip", 0, add_skip, "STEP[,STEP...]",
			"leave these steps or tests out (repeatable)"),
	STORE_OPTION_DB(struct suite_args, store),
	STORE_OPTION_LABEL(struct suite_args, store),
	STORE_OPTION_DESTROY(struct suite_args, store),
	CMDOPT_APPEND("--set", struct suite_args, sets, nr_sets, "[NAME.]KEY=VALUE",
		      "an option or step parameter for every step that takes\n"
		      "it, or for step or test NAME's (repeatable)"),
	CMDOPT_STRING("--time-scale", 0, struct suite_args, time_scale, "F",
		      "every step's runtime, ramp, pause and idle x F\n"
		      "(0.01-100; fills and checkpoints keep their bytes)"),
	CMDOPT_SIZE("--max-buffer-mem", struct suite_args, max_buffer_mem,
		    "refuse jobs needing more memory for I/O buffers,\n"
		    "verify maps, series and histograms"),
};

static const struct cmdopt_spec suite_spec = {
	.command = "suite",
	.synopsis = "suite [options] [TARGET]",
	.about =
	"Runs a suite (suites/NAME.suite) on TARGET unattended: every step through\n"
	"the runner, each step's results stored as it completes. Interrupted (Ctrl-C,\n"
	"kill, power loss), --resume continues the last run on TARGET at its first\n"
	"incomplete step, in the same run. The database (--db) is where resume\n"
	"finds its run.\n",
	.options = suite_options,
	.nr_options = CMDOPT_COUNT(suite_options),
	.footer =
	"Without TARGET the suite runs on the 1 GiB scratch file\n"
	"./drivebench-scratch.dat ($DRIVEBENCH_SCRATCH overrides). See docs/suite-run.md.\n",
	.positional = set_target,
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
	if (!a->only || !a->skip || store_args_init(&a->store, argc)) {
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

int cmd_suite(int argc, char **argv)
{
	struct suite_args a = { 0 };
	struct suite s = { 0 };
	struct suite_options opt = { 0 };
	char recorded[JOB_PATH_MAX], command[1024], own_target[JOB_PATH_MAX];
	bool loaded = false;
	int rc = EXIT_BAD_INPUT;

	if (parse_args(argc, argv, &a, &rc))
		goto done;
	cmd_catch_stop_signals();   /* before the scratch layout, which may take a while */
	if (!a.target && cmd_default_target(&a.target))
		goto fail;
	if (!a.suite && a.resume) {
		if (suite_resume_lookup(a.store.db_path, a.target, recorded, sizeof(recorded)))
			goto fail;
		a.suite = recorded;
	}
	if (suite_load_set(a.suite ? a.suite : DEFAULT_SUITE, a.sets, a.nr_sets, &s))
		goto fail;
	loaded = true;
	if (a.time_scale && apply_time_scale(&s, a.time_scale))
		goto fail;
	cmd_join_command(argc, argv, command, sizeof(command));
	/* under mpirun each rank its own target (%r, %h, %l, %t) */
	if (rank_own_target(a.target, own_target, sizeof(own_target)))
		goto fail;
	opt.target = own_target;
	opt.db_path = a.store.db_path;
	opt.label = a.store.label;
	opt.resume = a.resume;
	opt.only = a.nr_only ? (const char *const *)a.only : NULL;
	opt.skip = a.nr_skip ? (const char *const *)a.skip : NULL;
	opt.destroy_ids = a.store.destroy_ids;
	opt.nr_destroy_ids = a.store.nr_destroy_ids;
	opt.max_buffer_mem = a.max_buffer_mem;
	opt.stop = &cmd_stop_requested;
	opt.progress_tty = isatty(STDERR_FILENO) == 1;
	opt.command = command;
	if (suite_run(&s, &opt, &rc) == 0) {
		fprintf(stderr, "drivebench: suite '%s' complete; results in %s\n", s.name, a.store.db_path);
		goto done;
	}
	if (cmd_stop_requested || strstr(err_msg(), "interrupted")) {
		fprintf(stderr, "drivebench suite: %s\n", err_msg());
		fprintf(stderr, "interrupted: resume with drivebench suite --resume --db %s %s\n",
			a.store.db_path, a.target);
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
	store_args_free(&a.store);
	return rc;
}
