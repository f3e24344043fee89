/* args.h - the one option reader every subcommand shares. */
#ifndef DRIVEBENCH_ARGS_H
#define DRIVEBENCH_ARGS_H

/* Takes "--name VALUE" or "--name=VALUE" at argv[*i] (advancing *i past a
 * separate value). Returns the value, or NULL when argv[*i] is another
 * argument. A missing value sets err_msg ("--name needs a value") and
 * returns "", so callers test err_msg()[0] after a non-NULL result. */
const char *cmd_option(const char *name, int argc, char **argv, int *i);

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Set by SIGINT / SIGTERM once cmd_catch_stop_signals ran: the commands
 * that run I/O hand it to the runner, which stops within a second. */
extern volatile sig_atomic_t cmd_stop_requested;
void cmd_catch_stop_signals(void);

/* "drivebench ARG..." into out, cut at len: the command a stored run
 * records. */
void cmd_join_command(int argc, char **argv, char *out, size_t len);

/* The default target, the scratch file (target_scratch_path()), created
 * (written, not sparse) on first use; stops early on cmd_stop_requested. */
int cmd_default_target(const char **path);

/* What every command that writes and stores results takes: --db FILE
 * (default $DRIVEBENCH_DB or ./drivebench.db), --no-db where the command
 * can run without a database, --label L, and repeatable --destroy-data ID. */
struct store_args {
	const char *db_path;          /* NULL after --no-db */
	const char *label;            /* "" = none */
	const char **destroy_ids;     /* room for every argument */
	unsigned nr_destroy_ids;
};

int store_args_init(struct store_args *a, int argc);
void store_args_free(struct store_args *a);
/* Takes argv[*i] when it is one of those options: returns 1 (consumed),
 * 0 (another argument) or -1 with err_msg. */
int store_args_option(struct store_args *a, bool allow_no_db, int argc,
		      char **argv, int *i);

#endif
