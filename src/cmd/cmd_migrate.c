/* cmd_migrate.c - `drivebench migrate [--db FILE]`: upgrades a results
 * database to this build's schema, the one step that changes an older
 * database apart from the commands that store results (report, compare and
 * export only read, and refuse an older schema naming this command). */
#include <stdio.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "store/schema.h"
#include "store/store.h"
#include "util/error.h"
#include "util/text.h"

struct migrate_args {
	const char *db_path;
};

static const struct cmdopt migrate_options[] = {
	CMDOPT_STRING("--db", 0, struct migrate_args, db_path, "FILE",
		      "the results database (default " STORE_PATH_HELP ")"),
};

static const struct cmdopt_spec migrate_spec = {
	.command = "migrate",
	.synopsis = "migrate [--db FILE]",
	.about =
	"Upgrades an existing results database to this build's schema (forward\n"
	"only: an older drivebench can then no longer open it). report, compare\n"
	"and export read a database as it is and refuse an older schema.\n",
	.options = migrate_options,
	.nr_options = CMDOPT_COUNT(migrate_options),
	.footer = "Exit codes: 0 up to date; 2 missing or not a database; 1 it failed.\n",
};

int cmd_migrate(int argc, char **argv)
{
	struct migrate_args a = { .db_path = store_default_path() };
	struct store *db;
	int fd, rc = EXIT_BAD_INPUT;

	if (cmd_parse(&migrate_spec, argc, argv, &a, &rc))
		return rc;
	/* an upgrade, never a new database; a regular file, opened without
	 * waiting (a FIFO named by mistake never holds the command) */
	if ((fd = text_open_input(a.db_path, "--db")) < 0) {
		fprintf(stderr, "drivebench migrate: %s\n", err_msg());
		return EXIT_BAD_INPUT;
	}
	close(fd);
	if (store_open(a.db_path, &db)) {
		fprintf(stderr, "drivebench migrate: %s\n", err_msg());
		return err_exit_code(EXIT_BAD_INPUT);
	}
	store_close(db);
	printf("%s: schema version %u\n", a.db_path, schema_version);
	return EXIT_OK;
}
