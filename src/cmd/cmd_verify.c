/* cmd_verify.c - `drivebench verify`: fio's verify_only. Reads back the
 * region an earlier write job wrote and checks every verify unit, writing
 * nothing. The job comes from a job file or options as for `run`, or from
 * the options stored with a run (--run ID); the seed from --seed or from
 * the stored run. The jobs then run through `run` with verify_only set. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "store/store.h"
#include "util/error.h"
#include "job/options.h"

static const char verify_usage[] =
	"usage: drivebench verify (--seed N | --run ID) [options] [JOBFILE] [--FIO_OPTION=VALUE ...]\n"
	"\n"
	"Reads back the region of an earlier write job with verify=crc32c and\n"
	"checks every verify unit in it (fio's verify_only); nothing is written.\n"
	"Describe the job as it was written (the same job file or options); its\n"
	"smallest block size (or verify_interval) is the unit checked. Every unit\n"
	"is checked and every bad one reported; --verify_fatal=1 (or --set\n"
	"verify_fatal=1 with --run) stops at the first. A file shorter than the\n"
	"region is checked as far as it goes; the rest is a failure naming the\n"
	"missing range.\n"
	"\n"
	"options:\n"
	"  --seed N                 the verify seed of the writing run, as its\n"
	"                           summary printed it (\"verify: crc32c, seed N\")\n"
	"  --run ID                 take the seed from stored run ID; without a\n"
	"                           job file or options, the jobs too\n"
	"  --set, --output-format, --terse-version, --minimal, --output,\n"
	"  --max-buffer-mem, --db, --no-db, --label\n"
	"                           as for 'drivebench run'\n"
	"  -h, --help               this text\n"
	"\n"
	"Exit status: 0 every unit checked good, 1 a failure was found (the\n"
	"summary names each unit's offset and verdict, and says \"checked X of Y\n"
	"units\"), a range is missing, or an I/O error, 2 bad input (a target\n"
	"that does not exist included). Lost writes cannot be told here: that\n"
	"needs the writing run's own map (do_verify, verify_backlog). See\n"
	"docs/verify.md.\n";

/* run's own options that take a value (as "--x V" or "--x=V") */
static const char *const valued_options[] = {
	"--set", "--output-format", "--output", "--max-buffer-mem", "--db", "--label",
	"--destroy-data", "--terse-version",
};

/* The argument list handed to cmd_run; every string is owned. */
struct arg_list {
	char **argv;
	int argc, cap;
};

static int arg_add(struct arg_list *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int arg_add(struct arg_list *a, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	if (a->argc + 1 >= a->cap) {
		int cap = a->cap ? a->cap * 2 : 32;
		char **grown = realloc(a->argv, (size_t)cap * sizeof(*grown));

		if (!grown)
			return err_set("out of memory");
		a->argv = grown;
		a->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return err_set("out of memory");
	a->argv[a->argc++] = text;
	a->argv[a->argc] = NULL;
	return 0;
}

static void arg_free(struct arg_list *a)
{
	for (int i = 0; i < a->argc; i++)
		free(a->argv[i]);
	free(a->argv);
	memset(a, 0, sizeof(*a));
}

static bool takes_value(const char *arg)
{
	for (size_t i = 0; i < sizeof(valued_options) / sizeof(valued_options[0]); i++)
		if (!strcmp(arg, valued_options[i]))
			return true;
	return false;
}

static bool is_run_option(const char *arg)
{
	size_t len;

	if (!strcmp(arg, "--no-db") || !strcmp(arg, "--minimal"))
		return true;
	for (size_t i = 0; i < sizeof(valued_options) / sizeof(valued_options[0]); i++) {
		len = strlen(valued_options[i]);
		if (!strncmp(arg, valued_options[i], len) && (arg[len] == '=' || !arg[len]))
			return true;
	}
	return false;
}

static int parse_id(const char *text, const char *what, uint64_t *out)
{
	if (parse_size(text, 1024, out) || strpbrk(text, "kKmMgGtTpPbB%"))
		return err_set("%s: bad number '%s'", what, text);
	return 0;
}

/* The jobs of a stored run: one per job name (clones share their options),
 * each with its stored options, the run's target when it named none, and
 * its seed. */
static int jobs_from_run(const struct result_record *recs, unsigned nr,
			 const char *target, struct arg_list *out)
{
	const char *last_name = NULL;

	for (unsigned i = 0; i < nr; i++) {
		const struct result_record *r = &recs[i];
		cJSON *opts, *item;
		bool has_target = false;

		if (!r->verify || (last_name && !strcmp(last_name, r->job_name)))
			continue;
		last_name = r->job_name;
		opts = cJSON_Parse(r->options_json ? r->options_json : "{}");
		if (!cJSON_IsObject(opts)) {
			cJSON_Delete(opts);
			return err_set("job '%s': stored options are not a JSON object", r->job_name);
		}
		if (arg_add(out, "--name=%s", r->job_name)) {
			cJSON_Delete(opts);
			return -1;
		}
		cJSON_ArrayForEach(item, opts) {
			const char *value = cJSON_GetStringValue(item);
			int rc;

			if (!item->string || !strcmp(item->string, "name") || !value)
				continue;
			if (!strcmp(item->string, "filename") || !strcmp(item->string, "directory"))
				has_target = true;
			rc = value[0] ? arg_add(out, "--%s=%s", item->string, value) :
					arg_add(out, "--%s", item->string);
			if (rc) {
				cJSON_Delete(opts);
				return -1;
			}
		}
		cJSON_Delete(opts);
		if ((!has_target && target[0] && arg_add(out, "--filename=%s", target)) ||
		    arg_add(out, "--verify_seed=%llu", (unsigned long long)r->verify_seed))
			return -1;
	}
	if (!last_name)
		return err_set("the run has no result with verify on");
	return 0;
}

/* --run ID: the seed (all jobs given on the command line share it) or,
 * without jobs, the jobs themselves. */
static int use_stored_run(const char *db_path, uint64_t run_id, bool have_jobs,
			  struct arg_list *out)
{
	struct store *db = NULL;
	struct stored_run run;
	struct result_record *recs = NULL;
	unsigned nr = 0;
	uint64_t seed = 0;
	bool found = false;
	int rc = -1;

	if (store_open(db_path, &db) || store_run_get(db, (int64_t)run_id, &run) ||
	    store_results_load(db, (int64_t)run_id, &recs, &nr))
		goto done;
	if (!have_jobs) {
		rc = jobs_from_run(recs, nr, run.target, out);
		if (rc)
			err_prefix("run %llu", (unsigned long long)run_id);
		goto done;
	}
	for (unsigned i = 0; i < nr; i++) {
		if (!recs[i].verify)
			continue;
		if (found && recs[i].verify_seed != seed) {
			err_set("run %llu: its jobs have different verify seeds; give --seed N",
				(unsigned long long)run_id);
			goto done;
		}
		seed = recs[i].verify_seed;
		found = true;
	}
	if (!found) {
		err_set("run %llu: no result with verify on", (unsigned long long)run_id);
		goto done;
	}
	rc = arg_add(out, "--set") || arg_add(out, "verify_seed=%llu", (unsigned long long)seed);
done:
	store_results_free(recs, nr);
	if (db)
		store_close(db);
	return rc ? -1 : 0;
}

int cmd_verify(int argc, char **argv)
{
	struct arg_list args = { 0 };
	const char *seed = NULL, *run = NULL, *db_path = NULL;
	bool have_jobs = false, no_db = false;
	uint64_t number;
	int rc = EXIT_BAD_INPUT;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(verify_usage, stdout);
			return EXIT_OK;
		}
	if (arg_add(&args, "verify"))
		goto fail;
	for (int i = 1; i < argc; i++) {
		const char *v;

		err_clear();
		if ((v = cmd_option("--seed", argc, argv, &i))) {
			if (err_msg()[0])
				goto fail;
			seed = v;
			continue;
		}
		if ((v = cmd_option("--run", argc, argv, &i))) {
			if (err_msg()[0])
				goto fail;
			run = v;
			continue;
		}
		if (!strcmp(argv[i], "--no-db"))
			no_db = true;
		if (!strncmp(argv[i], "--db=", 5))
			db_path = argv[i] + 5;
		else if (!strcmp(argv[i], "--db") && i + 1 < argc)
			db_path = argv[i + 1];
		if (!is_run_option(argv[i]))
			have_jobs = true;
		if (arg_add(&args, "%s", argv[i]))
			goto fail;
		if (takes_value(argv[i]) && i + 1 < argc && arg_add(&args, "%s", argv[++i]))
			goto fail;
	}
	if (seed && run) {
		err_set("give --seed or --run, not both");
		goto fail;
	}
	if (seed) {
		if (arg_add(&args, "--set") || arg_add(&args, "verify_seed=%s", seed))
			goto fail;
	}
	if (run) {
		if (no_db) {
			err_set("--run needs the database (not --no-db)");
			goto fail;
		}
		if (!db_path)
			db_path = getenv("DRIVEBENCH_DB") ? getenv("DRIVEBENCH_DB") : STORE_DEFAULT_PATH;
		if (parse_id(run, "--run", &number) ||
		    use_stored_run(db_path, number, have_jobs, &args))
			goto fail;
	} else if (!have_jobs) {
		err_set("no job: give a job file or fio options, or --run ID (see 'drivebench verify --help')");
		goto fail;
	}
	if (arg_add(&args, "--set") || arg_add(&args, "verify_only=1"))
		goto fail;
	rc = cmd_run(args.argc, args.argv);
	arg_free(&args);
	return rc;
fail:
	fprintf(stderr, "drivebench verify: %s\n", err_msg());
	arg_free(&args);
	return rc;
}
