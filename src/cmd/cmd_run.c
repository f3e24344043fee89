/* cmd_run.c - `drivebench run`: reads jobs from a fio job file or fio-style
 * options, applies --set overrides, fills in the default scratch target,
 * runs them (Ctrl-C stops within a second and prints what completed) and
 * prints the summary or fio-schema JSON (cmd/run_command.c). */
#include <stdio.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/run_command.h"
#include "util/error.h"

struct run_command_args {
	struct run_args run;          /* first: the run options' callbacks */
};

static const struct cmdopt run_options[] = {
	RUN_OPTIONS(struct run_command_args, run),
};

static const struct cmdopt_spec run_spec = {
	.command = "run",
	.synopsis = "run [options] [JOBFILE] [--FIO_OPTION=VALUE ...]",
	.about =
	"Runs fio-style jobs. Without JOBFILE the fio options describe the jobs\n"
	"(options before the first --name are global, each --name starts a job);\n"
	"with JOBFILE they override every job, like --set.\n",
	.options = run_options,
	.nr_options = CMDOPT_COUNT(run_options),
	.footer =
	"Without filename= or directory=, jobs run on the default target, a 1 GiB\n"
	"scratch file ./drivebench-scratch.dat ($DRIVEBENCH_SCRATCH overrides).\n"
	"See docs/options.md for every job option.\n",
	.positional = run_args_positional,
	.pass_unknown = true,
};

int cmd_run(int argc, char **argv)
{
	struct run_command_args a = { 0 };
	struct job_list jobs = { 0 };
	int rc = EXIT_BAD_INPUT;

	if (run_args_init(&a.run, argc, argv)) {
		fprintf(stderr, "drivebench run: %s\n", err_msg());
	} else if (!cmd_parse(&run_spec, argc, argv, &a, &rc)) {
		cmd_catch_stop_signals();   /* before the scratch layout, which may take a while */
		if (run_args_done(&a.run) || run_command_jobs(&a.run, &jobs)) {
			rc = err_exit_code(EXIT_BAD_INPUT);
			fprintf(stderr, "drivebench run: %s\n", err_msg());
		} else {
			rc = run_command_execute("run", &a.run, &jobs);
		}
	}
	job_list_free(&jobs);
	run_args_free(&a.run);
	return rc;
}
