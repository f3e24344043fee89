/* cmd_import.c - `drivebench import --label LABEL [--db FILE] [--spec INI]
 * FILE...`: stores fio JSON (or drivebench JSON) results as runs, one run
 * per file, tagged with a drive label. Every file is parsed before anything
 * is written, so one bad file imports nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "store/fio_import.h"
#include "report/analysis/spec.h"
#include "store/store.h"
#include "util/error.h"
#include "util/text.h"
#include "util/clock.h"

struct import_args {
	const char *db_path;
	const char *label;
	const char *spec_path;
	const char **files;
	unsigned nr_files;
};

static int add_file(void *args, const char *v)
{
	struct import_args *a = args;

	a->files[a->nr_files++] = v;
	return 0;
}

static const struct cmdopt import_options[] = {
	CMDOPT_STRING("--label", 0, struct import_args, label, "LABEL",
		      "the drive these results belong to (required)"),
	CMDOPT_STRING("--db", 0, struct import_args, db_path, "FILE",
		      "the database (default " STORE_PATH_HELP ")"),
	CMDOPT_STRING("--spec", 0, struct import_args, spec_path, "FILE.ini",
		      "attach this drive spec sheet to LABEL"),
};

static const struct cmdopt_spec import_spec = {
	.command = "import",
	.synopsis = "import --label LABEL [--db FILE] [--spec FILE.ini] FILE...",
	.about =
	"Imports fio 3.x JSON output (--output-format=json or json+, also\n"
	"drivebench's own JSON) into the results database: one run per FILE, one\n"
	"result per job entry, tagged with the drive label LABEL so the results\n"
	"compare with measured runs. Every FILE is checked first; if one is\n"
	"malformed, truncated or not fio output, nothing is imported (exit 2).\n"
	"Lines before the JSON (fio's \"note: ...\" warnings) are skipped.\n",
	.options = import_options,
	.nr_options = CMDOPT_COUNT(import_options),
	.footer = "See docs/import.md.\n",
	.positional = add_file,
};

static int check_args(const struct import_args *a)
{
	if (!a->label || !a->label[0])
		return err_set("missing --label LABEL (the drive the results belong to)");
	if (!a->nr_files)
		return err_set("missing FILE (fio JSON output to import)");
	return 0;
}

/* The whole of a small text file, NUL-terminated; caller frees. */
static int read_text_file(const char *path, char **out)
{
	FILE *f = text_open_input_stream(path, "--spec file");
	char *text = NULL;
	size_t len = 0, cap = 0;

	struct stat st;

	*out = NULL;
	if (!f)
		return -1;
	/* a regular file (text_open_input_stream): its size says it at once */
	if (fstat(fileno(f), &st) == 0 && st.st_size > (off_t)(16u << 20)) {
		fclose(f);
		return err_set("%s: larger than 16 MiB, not a spec sheet", path);
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *grown;

			if (cap > (16u << 20)) {
				fclose(f);
				free(text);
				return err_set("%s: larger than 16 MiB, not a spec sheet", path);
			}
			grown = realloc(text, cap + 65536);
			if (!grown) {
				fclose(f);
				free(text);
				return err_set("%s: out of memory", path);
			}
			text = grown;
			cap += 65536;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(text);
		return err_set("%s: read error", path);
	}
	fclose(f);
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		return err_set("%s: contains a NUL byte, not a spec sheet", path);
	}
	*out = text;
	return 0;
}

/* fio's disk_util, when the file has any, goes with the run as its drive
 * JSON: {"disk_util": [...]} (no identity fields: fio does not record them). */
static char *disk_util_drive_json(const struct fio_import *imp)
{
	static const char prefix[] = "{\"disk_util\":";
	size_t n;
	char *json;

	if (!imp->disk_util_json || !strcmp(imp->disk_util_json, "[]"))
		return NULL;
	n = sizeof(prefix) + strlen(imp->disk_util_json) + 1;
	json = malloc(n);
	if (json)
		snprintf(json, n, "%s%s}", prefix, imp->disk_util_json);
	return json;
}

static int import_one(struct store *db, const struct import_args *a,
		      const char *path, const struct fio_import *imp)
{
	struct run_meta meta = {
		.label = a->label,
		.source = "import",
		.command = path,
		.target = "",
		.started_ms = imp->timestamp_ms ? imp->timestamp_ms : wallclock_ms(),
	};
	int64_t run_id;
	char *drive_json = disk_util_drive_json(imp);
	unsigned i;
	int rc;

	if (imp->disk_util_json && !drive_json && strcmp(imp->disk_util_json, "[]"))
		return err_set("%s: out of memory", path);
	meta.drive_json = drive_json;
	/* one transaction: a file is imported whole or not at all */
	rc = store_transaction_begin(db);
	if (rc == 0)
		rc = store_run_begin(db, &meta, &run_id);
	free(drive_json);
	for (i = 0; rc == 0 && i < imp->nr_records; i++)
		if (store_result_add(db, run_id, &imp->records[i], NULL))
			rc = -1;   /* the store names the job */
	if (rc == 0)
		rc = store_run_end(db, run_id, false);
	if (rc == 0)
		rc = store_transaction_commit(db);
	if (rc) {
		store_transaction_rollback(db);
		return err_prefix("%s: nothing imported from it", path);
	}
	printf("imported %u result%s from %s as run %lld (label %s)\n", imp->nr_records,
	       imp->nr_records == 1 ? "" : "s", path, (long long)run_id, a->label);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { 0 };
	struct fio_import *imports = NULL;
	struct store *db = NULL;
	char *spec_text = NULL;
	unsigned parsed = 0;
	int rc = EXIT_BAD_INPUT;

	a.db_path = store_default_path();
	a.files = calloc((size_t)argc + 1, sizeof(*a.files));
	if (!a.files) {
		fprintf(stderr, "drivebench import: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	if (cmd_parse(&import_spec, argc, argv, &a, &rc))
		goto out;
	if (check_args(&a)) {
		fprintf(stderr, "drivebench import: %s (see 'drivebench import --help')\n",
			err_msg());
		goto out;
	}
	if (a.spec_path) {
		struct drive_spec spec;

		/* a bad sheet is refused here, not discovered by a later report */
		if (read_text_file(a.spec_path, &spec_text) ||
		    spec_parse(spec_text, a.spec_path, &spec)) {
			fprintf(stderr, "drivebench import: %s\n", err_msg());
			goto out;
		}
	}
	imports = calloc(a.nr_files, sizeof(*imports));
	if (!imports) {
		fprintf(stderr, "drivebench import: out of memory\n");
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	/* every file first: one bad file imports nothing */
	for (parsed = 0; parsed < a.nr_files; parsed++) {
		if (fio_import_file(a.files[parsed], &imports[parsed])) {
			fprintf(stderr, "drivebench import: %s; nothing imported\n", err_msg());
			goto out;
		}
	}
	if (store_open(a.db_path, &db)) {
		fprintf(stderr, "drivebench import: %s\n", err_msg());
		rc = err_exit_code(rc);
		goto out;
	}
	rc = EXIT_RUN_FAILED;
	for (unsigned i = 0; i < a.nr_files; i++) {
		if (import_one(db, &a, a.files[i], &imports[i])) {
			fprintf(stderr, "drivebench import: %s\n", err_msg());
			goto out;
		}
	}
	if (spec_text) {
		if (store_spec_set(db, a.label, spec_text)) {
			fprintf(stderr, "drivebench import: %s: %s\n", a.spec_path, err_msg());
			goto out;
		}
		printf("attached spec sheet %s to label %s\n", a.spec_path, a.label);
	}
	rc = EXIT_OK;
out:
	store_close(db);
	for (unsigned i = 0; imports && i < parsed; i++)
		fio_import_free(&imports[i]);
	free(imports);
	free(spec_text);
	free(a.files);
	return rc;
}
