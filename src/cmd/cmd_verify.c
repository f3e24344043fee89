/* cmd_verify.c - `drivebench verify`: fio's verify_only. Reads back the
 * region an earlier write job wrote and checks every verify unit, writing
 * nothing. The job comes from a job file or options as for `run`, or from
 * the options stored with a run (--run ID); the seed from --seed or from
 * the stored run. The jobs then run through run's machinery
 * (cmd/run_command.h) with verify_only set. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/run_command.h"
#include "store/store.h"
#include "util/error.h"
#include "util/units.h"
#include "job/options.h"

struct verify_args {
	struct run_args run;          /* first: the run options' callbacks */
	const char *seed;             /* --seed */
	const char *run_id;           /* --run */
};

static const struct cmdopt verify_options[] = {
	CMDOPT_STRING("--seed", 0, struct verify_args, seed, "N",
		      "the verify seed of the writing run, as its summary\n"
		      "printed it (\"verify: crc32c, seed N\")"),
	CMDOPT_STRING("--run", 0, struct verify_args, run_id, "ID",
		      "take the seed from stored run ID; without a job file\n"
		      "or options, the jobs too"),
	CMDOPT_GROUP("as for 'drivebench run':"),
	RUN_OPTIONS(struct verify_args, run),
};

static const struct cmdopt_spec verify_spec = {
	.command = "verify",
	.synopsis = "verify (--seed N | --run ID) [options] [JOBFILE] [--FIO_OPTION=VALUE ...]",
	.about =
	"Reads back the region of an earlier write job with verify=crc32c and\n"
	"checks every verify unit in it (fio's verify_only); nothing is written.\n"
	"Describe the job as it was written (the same job file or options); its\n"
	"smallest block size (or verify_interval) is the unit checked. Every unit\n"
	"is checked and every bad one reported; --verify_fatal=1 (or --set\n"
	"verify_fatal=1 with --run) stops at the first. A file shorter than the\n"
	"region is checked as far as it goes; the rest is a failure naming the\n"
	"missing range.\n",
	.options = verify_options,
	.nr_options = CMDOPT_COUNT(verify_options),
	.footer =
	"Exit status: 0 every unit checked good, 1 a failure was found (the\n"
	"summary names each unit's offset and verdict, and says \"checked X of Y\n"
	"units\"), a range is missing, or an I/O error, 2 bad input (a target\n"
	"that does not exist included). Lost writes cannot be told here: that\n"
	"needs the writing run's own map (do_verify, verify_backlog). See\n"
	"docs/verify.md.\n",
	.positional = run_args_positional,
	.pass_unknown = true,
};

/* The job options of a stored run, as fio options; every string is owned. */
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

static int parse_id(const char *text, const char *what, uint64_t *out)
{
	if (units_parse_count(text, 1, INT64_MAX, out))
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
			  struct arg_list *out, uint64_t *seed_out)
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
	*seed_out = seed;
	rc = 0;
done:
	store_results_free(recs, nr);
	if (db)
		store_close(db);
	return rc ? -1 : 0;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_args a = { 0 };
	struct arg_list stored = { 0 };
	struct job_list jobs = { 0 };
	char seed_set[64];
	uint64_t number, seed = 0;
	bool have_jobs;
	int rc = EXIT_BAD_INPUT;

	/* room for the user's --set and the two verify adds */
	if (run_args_init(&a.run, argc, argv) ||
	    !(a.run.sets = calloc((size_t)argc + 3, sizeof(*a.run.sets)))) {
		err_set("out of memory");
		goto fail;
	}
	if (cmd_parse(&verify_spec, argc, argv, &a, &rc))
		goto end;
	rc = EXIT_BAD_INPUT;
	if (run_args_done(&a.run))
		goto fail;
	have_jobs = a.run.jobfile || a.run.nr_fio_args;
	if (a.seed && a.run_id) {
		err_set("give --seed or --run, not both");
		goto fail;
	}
	if (a.seed)
		snprintf(seed_set, sizeof(seed_set), "verify_seed=%s", a.seed);
	if (a.run_id) {
		if (!a.run.store.db_path) {
			err_set("--run needs the database (not --no-db)");
			goto fail;
		}
		if (parse_id(a.run_id, "--run", &number) ||
		    use_stored_run(a.run.store.db_path, number, have_jobs, &stored, &seed))
			goto fail;
		if (have_jobs) {
			snprintf(seed_set, sizeof(seed_set), "verify_seed=%llu",
				 (unsigned long long)seed);
		} else {   /* the stored jobs, as fio options */
			free(a.run.fio_args);
			a.run.fio_args = (const char **)stored.argv;
			a.run.nr_fio_args = (unsigned)stored.argc;
		}
	} else if (!have_jobs) {
		err_set("no job: give a job file or fio options, or --run ID (see 'drivebench verify --help')");
		goto fail;
	}
	if (a.seed || (a.run_id && have_jobs))
		a.run.sets[a.run.nr_sets++] = seed_set;
	a.run.sets[a.run.nr_sets++] = "verify_only=1";
	cmd_catch_stop_signals();
	if (run_command_jobs(&a.run, &jobs)) {
		rc = err_exit_code(EXIT_BAD_INPUT);
		goto fail;
	}
	rc = run_command_execute("verify", &a.run, &jobs);
	goto end;
fail:
	fprintf(stderr, "drivebench verify: %s\n", err_msg());
end:
	if (a.run.fio_args == (const char **)stored.argv)
		a.run.fio_args = NULL;
	job_list_free(&jobs);
	run_args_free(&a.run);
	arg_free(&stored);
	return rc;
}
