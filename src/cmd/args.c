/* args.c - what the subcommands share: reading "--name VALUE" options,
 * catching the stop signals, the recorded command line and the default
 * scratch target (see args.h). */
#include "cmd/args.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "device/safety.h"
#include "device/target.h"
#include "io/vssd.h"
#include "util/error.h"

const char *cmd_option(const char *name, int argc, char **argv, int *i)
{
	size_t n = strlen(name);

	err_clear();
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		err_set("%s needs a value", name);
		return "";
	}
	return argv[++*i];
}

volatile sig_atomic_t cmd_stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	cmd_stop_requested = 1;
}

void cmd_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	vssd_drives_stop_on(&cmd_stop_requested);   /* a suite's purge makes its drive */
	store_stop_on(&cmd_stop_requested);         /* a wait for the database's lock */
}

void cmd_join_command(int argc, char **argv, char *out, size_t len)
{
	size_t used = (size_t)snprintf(out, len, "drivebench");

	for (int i = 0; i < argc && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, " %s", argv[i]);
}

/* The scratch file is drivebench's own when the gate lets it write there
 * without consent (created by drivebench, no filesystem, backs no loop). */
static bool scratch_is_ours(const char *path)
{
	struct safety_verdict v;

	if (safety_check(path, NULL, &v) != 0) {
		err_clear();
		return false;
	}
	return v.allowed && !v.is_block;
}

int cmd_default_target(const char **path)
{
	struct target t;

	*path = target_scratch_path();
	if (target_probe(*path, &t))
		return -1;
	/* created only where nothing exists; completed (an interrupted layout)
	 * only when it is ours; anything else is used as it is, and the jobs'
	 * own checks decide (a read too long for it, a write without consent) */
	if (!t.exists) {
		struct safety_verdict v;

		if (safety_check(*path, NULL, &v))
			return -1;
		if (!v.allowed)
			return err_refuse("%s: refusing to create the default target: %s",
					  SCRATCH_ENV, v.reasons[0]);
		fprintf(stderr, "drivebench: creating the default target %s (1 GiB)\n", *path);
	} else if (!t.is_block && t.size < SCRATCH_DEFAULT_SIZE && scratch_is_ours(*path)) {
		fprintf(stderr, "drivebench: completing the default target %s (%llu of 1 GiB "
			"written)\n", *path, (unsigned long long)t.size);
	} else {
		return 0;
	}
	if (target_layout_file(*path, SCRATCH_DEFAULT_SIZE, &cmd_stop_requested) < 0)
		return -1;
	return 0;
}

int store_args_init(struct store_args *a, int argc)
{
	a->db_path = store_default_path();
	a->default_db = a->db_path;
	a->no_db = false;
	a->label = "";
	a->nr_destroy_ids = 0;
	a->destroy_ids = calloc((size_t)argc + 1, sizeof(char *));
	return a->destroy_ids ? 0 : err_set("out of memory");
}

int cmd_parse(const struct cmdopt_spec *spec, int argc, char **argv, void *args,
	      int *exit_code)
{
	int rc = cmdopt_parse(spec, argc, argv, args);

	if (rc == 0)
		return 0;
	if (rc > 0) {
		*exit_code = EXIT_OK;
	} else {
		fprintf(stderr, "drivebench %s: %s\n", spec->command, err_msg());
		*exit_code = EXIT_BAD_INPUT;
	}
	return 1;
}

int store_args_done(struct store_args *a)
{
	/* compared as pointers: --db FILE points into argv, even when FILE
	 * names the default */
	if (a->no_db && a->db_path && a->db_path != a->default_db)
		return err_set("--no-db and --db %s conflict: --no-db stores nothing, --db "
			       "stores in %s; give one", a->db_path, a->db_path);
	if (a->no_db)
		a->db_path = NULL;
	return 0;
}

void store_args_free(struct store_args *a)
{
	free(a->destroy_ids);
	a->destroy_ids = NULL;
}

int store_args_option(struct store_args *a, bool allow_no_db, int argc,
		      char **argv, int *i)
{
	const char *v;

	if (allow_no_db && !strcmp(argv[*i], "--no-db")) {
		if (a->db_path && a->db_path != a->default_db)
			return err_set("--no-db and --db %s conflict: give one", a->db_path);
		a->no_db = true;
		a->db_path = NULL;
		return 1;
	}
	if ((v = cmd_option("--db", argc, argv, i))) {
		if (err_msg()[0])
			return -1;
		if (!v[0])
			return err_set("--db needs a file name");
		if (a->no_db)
			return err_set("--no-db and --db %s conflict: give one", v);
		a->db_path = v;
		return 1;
	}
	if ((v = cmd_option("--label", argc, argv, i))) {
		if (err_msg()[0])
			return -1;
		a->label = v;
		return 1;
	}
	if ((v = cmd_option("--destroy-data", argc, argv, i))) {
		if (err_msg()[0])
			return -1;
		if (!v[0])
			return err_set("--destroy-data needs a device ID or a file path");
		a->destroy_ids[a->nr_destroy_ids++] = v;
		return 1;
	}
	return 0;
}
