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

#include "cmd/parse_options.h"
#include "store/store.h"

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
	bool no_db;                   /* --no-db given (store_args_done clears db_path) */
	const char *default_db;       /* db_path before parsing: --db changed it when they differ */
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

/* The same options as table entries (parse_options.h) for a command whose
 * argument struct st holds a struct store_args named f. */
#define STORE_OPTION_DB(st, f) \
	CMDOPT_STRING("--db", 0, st, f.db_path, "FILE", \
		      "the results database (default " STORE_PATH_HELP ")")
#define STORE_OPTION_NO_DB(st, f) \
	CMDOPT_FLAG("--no-db", 0, st, f.no_db, "do not record the results")
#define STORE_OPTION_LABEL(st, f) \
	CMDOPT_STRING("--label", 0, st, f.label, "LABEL", \
		      "the drive's name in reports and comparisons")
#define STORE_OPTION_DESTROY(st, f) \
	CMDOPT_APPEND("--destroy-data", st, f.destroy_ids, f.nr_destroy_ids, "ID", \
		      "allow writing over the device with this serial (or kernel\n" \
		      "name, e.g. loop3, when it has none), or over this existing\n" \
		      "file; repeatable")

/* cmdopt_parse for a command: returns 0 to go on, or 1 when the command is
 * done, with *exit_code EXIT_OK after --help or EXIT_BAD_INPUT after
 * printing "drivebench CMD: what is wrong". */
int cmd_parse(const struct cmdopt_spec *spec, int argc, char **argv, void *args,
	      int *exit_code);

/* After parsing: --no-db clears the database path; --no-db with --db FILE
 * is refused (-1, err_msg naming both). */
int store_args_done(struct store_args *a);

#endif
