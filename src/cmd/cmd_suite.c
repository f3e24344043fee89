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
#include "store/store.h"
#include "suite/suite.h"
#include "suite/suiterun.h"
#include "util/error.h"
#include "util/text.h"
#include "workload/options.h"

#define DEFAULT_SUITE "quick"

static const char suite_usage[] =
	"usage: drivebench suite [options] [TARGET]\n"
	"\n"
	"Runs a suite (suites/NAME.suite) on TARGET unattended: every step through\n"
	"the runner, each step's results stored as it completes. Interrupted (Ctrl-C,\n"
	"kill, power loss), --resume continues the last run on TARGET at its first\n"
	"incomplete step, in the same run.\n"
	"\n"
	"options:\n"
	"  --suite=NAME|FILE        the suite (default: " DEFAULT_SUITE "; with --resume: the\n"
	"                           one the interrupted run ran)\n"
	"  --resume                 continue the last unfinished suite run on TARGET\n"
	"  --only=STEP[,STEP...]    run only these steps (repeatable)\n"
	"  --skip=STEP[,STEP...]    leave these steps out (repeatable)\n"
	"  --db=FILE                the results database (default $DRIVEBENCH_DB or\n"
	"                           ./drivebench.db); resume finds its run there\n"
	"  --label=LABEL            the drive's name in reports and comparisons\n"
	"  --destroy-data=ID        allow writing over (and purging) the device with\n"
	"                           this serial or kernel name, or this existing file\n"
	"  --max-buffer-mem=SIZE    refuse jobs needing more memory for I/O buffers,\n"
	"                           verify maps, series and histograms\n"
	"  -h, --help               this text\n"
	"\n"
	"Without TARGET the suite runs on the 1 GiB scratch file\n"
	"./drivebench-scratch.dat ($DRIVEBENCH_SCRATCH overrides). See docs/suite-run.md.\n";


struct suite_args {
	const char *suite;
	const char *target;
	struct store_args store;      /* --db, --label, --destroy-data */
	bool resume;
	uint64_t max_buffer_mem;
	char **only, **skip;           /* NULL-terminated, strdup'd names */
	unsigned nr_only, nr_skip;
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

static int parse_args(int argc, char **argv, struct suite_args *a)
{
	/* each option adds at most one name per character of argv */
	size_t room = 1;

	for (int i = 1; i < argc; i++)
		room += strlen(argv[i]) + 1;
	a->only = calloc(room, sizeof(char *));
	a->skip = calloc(room, sizeof(char *));
	if (!a->only || !a->skip || store_args_init(&a->store, argc))
		return err_set("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *v;
		int rc;

		err_clear();
		if (!strcmp(argv[i], "--resume")) {
			a->resume = true;
		} else if ((v = cmd_option("--suite", argc, argv, &i))) {
			if (err_msg()[0])
				return -1;
			a->suite = v;
		} else if ((v = cmd_option("--only", argc, argv, &i))) {
			if (err_msg()[0] || add_names("--only", v, a->only, &a->nr_only))
				return -1;
		} else if ((v = cmd_option("--skip", argc, argv, &i))) {
			if (err_msg()[0] || add_names("--skip", v, a->skip, &a->nr_skip))
				return -1;
		} else if ((rc = store_args_option(&a->store, false, argc, argv, &i))) {
			if (rc < 0)
				return -1;
		} else if ((v = cmd_option("--max-buffer-mem", argc, argv, &i))) {
			if (err_msg()[0])
				return -1;
			if (parse_size(v, 1024, &a->max_buffer_mem) || !a->max_buffer_mem)
				return err_set("--max-buffer-mem: bad size '%s'", v);
		} else if (!strncmp(argv[i], "-", 1) && argv[i][1]) {
			return err_set("unknown option '%s' (see 'drivebench suite --help')", argv[i]);
		} else if (!a->target) {
			if (!argv[i][0])
				return err_set("empty target name");
			a->target = argv[i];
		} else {
			return err_set("unexpected argument '%s' (one target at most)", argv[i]);
		}
	}
	return 0;
}

static void free_names(char **names)
{
	for (char **n = names; n && *n; n++)
		free(*n);
	free(names);
}

int cmd_suite(int argc, char **argv)
{
	struct suite_args a = { 0 };
	struct suite s = { 0 };
	struct suite_options opt = { 0 };
	char recorded[JOB_PATH_MAX], command[1024];
	bool loaded = false;
	int rc = EXIT_BAD_INPUT;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(suite_usage, stdout);
			return EXIT_OK;
		}
	if (parse_args(argc, argv, &a))
		goto fail;
	cmd_catch_stop_signals();   /* before the scratch layout, which may take a while */
	if (!a.target && cmd_default_target(&a.target))
		goto fail;
	if (!a.suite && a.resume) {
		if (suite_resume_lookup(a.store.db_path, a.target, recorded, sizeof(recorded)))
			goto fail;
		a.suite = recorded;
	}
	if (suite_load(a.suite ? a.suite : DEFAULT_SUITE, &s))
		goto fail;
	loaded = true;
	cmd_join_command(argc, argv, command, sizeof(command));
	opt.target = a.target;
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
	store_args_free(&a.store);
	return rc;
}
