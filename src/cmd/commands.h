/* commands.h - the subcommand entry points (one file each in src/cmd/). Each
 * takes argv with argv[0] = the command name and returns the exit code. */
#ifndef DRIVEBENCH_COMMANDS_H
#define DRIVEBENCH_COMMANDS_H

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_checkpoint(int argc, char **argv);
int cmd_gds(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_vssd_serve(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);

#endif
