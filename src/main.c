/* main.c - subcommand dispatch only: finds the command by name and hands it
 * the remaining arguments (each command lives in src/cmd/); under mpirun,
 * only rank 0 runs it and the other ranks serve it. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "ranks/ranks.h"
#include "record/rank_run.h"
#include "output/output.h"
#include "util/error.h"

static const struct command commands[] = {
	{ "run", cmd_run, "run fio-style jobs (options or a job file) and measure them" },
	{ "suite", cmd_suite, "run a suite of steps unattended, resumable (suites/NAME.suite)" },
	{ "checkpoint", cmd_checkpoint, "write DLIO-style LLM checkpoints in passes, or --plan their sizes" },
	{ "gds", cmd_gds, "run the gdsio-style GPU Direct Storage sweep through cuFile" },
	{ "verify", cmd_verify, "read back an earlier write job's region and check every block" },
	{ "vssd-serve", cmd_vssd_serve, "serve a modelled drive as a FUSE file for a loop device (docs/vssd.md)" },
	{ "info", cmd_info, "show a target's identity, health and safety verdict" },
	{ "import", cmd_import, "import fio JSON results into the database under a drive label" },
	{ "export", cmd_export, "write stored runs as JSON or CSV" },
	{ "report", cmd_report, "write the HTML review report (charts, tables, heatmaps)" },
	{ "compare", cmd_compare, "compare two runs or drive labels point by point" },
	{ "migrate", cmd_migrate, "upgrade a results database to this build's schema" },
	{ "plan", cmd_plan, "estimate a suite's bytes written and duration on a drive (no I/O)" },
	{ "version", cmd_version, "print the version" },
	{ "help", cmd_help, "list the commands" },
};

static const unsigned nr_commands = sizeof(commands) / sizeof(commands[0]);

int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("usage: drivebench <command> [options]\n\ncommands:\n");
	for (unsigned i = 0; i < nr_commands; i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n'drivebench <command> --help' describes a command.\n");
	return EXIT_OK;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("drivebench %s\n", DRIVEBENCH_VERSION);
	return EXIT_OK;
}

static int run_command_line(int argc, char **argv)
{
	if (argc < 2) {
		cmd_help(0, NULL);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(0, NULL);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(0, NULL);
	for (unsigned i = 0; i < nr_commands; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "drivebench: unknown command '%s' (see 'drivebench help')\n", argv[1]);
	return EXIT_BAD_INPUT;
}

/* Under mpirun (drivebench-mpi) rank 0 runs the command and the other
 * ranks serve it (record/rank_run.h); otherwise this is one process. */
int main(int argc, char **argv)
{
	int rc;

	if (ranks_init(&argc, &argv))   /* a bad --rank-map on any rank ends all */
		ranks_fail(EXIT_BAD_INPUT, "%s", err_msg());
	if (ranks_rank() != 0) {
		rc = rank_serve();
	} else {
		rc = run_command_line(argc, argv);
		rank_end();
	}
	ranks_finish(rc);
	return rc;
}
