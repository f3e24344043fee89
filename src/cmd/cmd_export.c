/* cmd_export.c - `drivebench export [--db FILE] --format json|csv [RUN...]`:
 * the stored runs (all, or the ones named) as one JSON array of runs with
 * their results, or as CSV with one row per result and direction. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/export_fio.h"
#include "cmd/export_select.h"
#include "cmd/parse_options.h"
#include "output/output.h"
#include "report/analysis/select.h"
#include "store/store.h"
#include "util/error.h"
#include "util/units.h"

static const char *const dir_names[DIR_COUNT] = { "read", "write" };

enum export_format { FORMAT_NONE, FORMAT_JSON, FORMAT_CSV, FORMAT_FIO };

/* Which directions a result's rw used; for names we do not know (imports),
 * the directions that did any I/O. */
static bool dir_used(const struct result_record *rec, int d)
{
	static const char *const names[DIR_COUNT][7] = {
		{ "read", "randread", "rw", "readwrite", "randrw" },
		{ "write", "randwrite", "rw", "readwrite", "randrw", "trimwrite" },
	};
	bool used[DIR_COUNT] = { false, false };

	for (int dir = 0; dir < DIR_COUNT; dir++)
		for (const char *const *name = names[dir]; *name; name++)
			used[dir] = used[dir] || !strcmp(rec->rw, *name);
	if (!used[DIR_READ] && !used[DIR_WRITE])
		return rec->dir[d].ios || rec->dir[d].errors;
	return used[d];
}

static const struct pct_value *find_pct(const struct pct_value *list, unsigned nr,
					double pct)
{
	for (unsigned i = 0; i < nr; i++)
		if (fabs(list[i].pct - pct) < 1e-9)
			return &list[i];
	return NULL;
}

/* --- CSV ------------------------------------------------------------------- */

static void csv_field(FILE *out, const char *text)
{
	if (!strpbrk(text, ",\"\n\r")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

static void csv_pct(FILE *out, const struct dir_record *r, double pct)
{
	const struct pct_value *p = find_pct(r->clat_pct, r->nr_clat_pct, pct);

	fputc(',', out);
	if (p)
		fprintf(out, "%" PRIu64, p->value_ns);
}

static void csv_rows(FILE *out, const struct stored_run *run,
		     const struct result_record *recs, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		const struct result_record *rec = &recs[i];

		for (int d = 0; d < DIR_COUNT; d++) {
			const struct dir_record *r = &rec->dir[d];

			if (!dir_used(rec, d))
				continue;
			fprintf(out, "%" PRId64 ",", run->id);
			csv_field(out, run->label);
			fputc(',', out);
			csv_field(out, rec->job_name);
			fputc(',', out);
			csv_field(out, rec->rw);
			fprintf(out, ",%" PRIu64 ",%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%.17g,%.17g,%.17g", rec->bs, rec->iodepth, rec->numjobs,
				dir_names[d], r->ios, r->bytes, r->runtime_ms, r->iops,
				r->bw_bytes, r->lat.mean);
			csv_pct(out, r, 99.0);
			csv_pct(out, r, 99.9);
			csv_pct(out, r, 99.99);
			fputc('\n', out);
		}
	}
}

/* --- JSON ------------------------------------------------------------------ */

static cJSON *summary_json(const struct lat_summary *l, const struct pct_value *pcts,
			   unsigned nr_pcts)
{
	cJSON *o = cJSON_CreateObject(), *list;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "min_ns", (double)l->min);
	cJSON_AddNumberToObject(o, "max_ns", (double)l->max);
	cJSON_AddNumberToObject(o, "mean_ns", l->mean);
	cJSON_AddNumberToObject(o, "stddev_ns", l->stddev);
	cJSON_AddNumberToObject(o, "n", (double)l->n);
	if (!pcts)
		return o;
	list = cJSON_AddObjectToObject(o, "percentiles");
	for (unsigned i = 0; list && i < nr_pcts; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%f", pcts[i].pct);
		cJSON_AddNumberToObject(list, key, (double)pcts[i].value_ns);
	}
	return o;
}

/* 64-bit values (seeds, offsets) exactly: a JSON double keeps 53 bits */
static void add_u64(cJSON *o, const char *name, uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	cJSON_AddItemToObject(o, name, cJSON_CreateRaw(text));
}

static cJSON *dir_json(const struct dir_record *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "ios", (double)r->ios);
	cJSON_AddNumberToObject(o, "bytes", (double)r->bytes);
	cJSON_AddNumberToObject(o, "errors", (double)r->errors);
	if (r->first_error) {   /* positive errno and the offset it failed at */
		cJSON_AddNumberToObject(o, "first_error", r->first_error);
		add_u64(o, "first_error_offset", r->first_error_offset);
	}
	cJSON_AddNumberToObject(o, "runtime_ms", (double)r->runtime_ms);
	cJSON_AddNumberToObject(o, "iops", r->iops);
	cJSON_AddNumberToObject(o, "bw_bytes", r->bw_bytes);
	cJSON_AddItemToObject(o, "slat", summary_json(&r->slat, NULL, 0));
	cJSON_AddItemToObject(o, "clat", summary_json(&r->clat, r->clat_pct, r->nr_clat_pct));
	cJSON_AddItemToObject(o, "lat", summary_json(&r->lat, r->lat_pct, r->nr_lat_pct));
	return o;
}

static cJSON *result_json(const struct result_record *rec)
{
	cJSON *o = cJSON_CreateObject(), *options;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "job", rec->job_name);
	cJSON_AddNumberToObject(o, "groupid", rec->groupid);
	cJSON_AddNumberToObject(o, "error", rec->error);
	cJSON_AddBoolToObject(o, "partial", rec->partial);
	cJSON_AddStringToObject(o, "rw", rec->rw);
	cJSON_AddNumberToObject(o, "bs", (double)rec->bs);
	cJSON_AddNumberToObject(o, "iodepth", rec->iodepth);
	cJSON_AddNumberToObject(o, "numjobs", rec->numjobs);
	cJSON_AddNumberToObject(o, "runtime_ns", (double)rec->runtime_ns);
	options = rec->options_json ? cJSON_Parse(rec->options_json) : NULL;
	cJSON_AddItemToObject(o, "options", options ? options : cJSON_CreateObject());
	for (int d = 0; d < DIR_COUNT; d++)
		cJSON_AddItemToObject(o, dir_names[d], dir_json(&rec->dir[d]));
	if (rec->verify) {
		/* the method as the job gave it (stored options; crc32c before
		 * there were others) */
		const cJSON *m = options ? cJSON_GetObjectItemCaseSensitive(options, "verify") : NULL;
		struct verify_totals t = {
			.method = cJSON_IsString(m) ? m->valuestring : NULL,
			.seed = rec->verify_seed, .units = rec->verify_units,
			.checked = rec->verify_checked, .failed = rec->verify_failed,
			.stopped = rec->verify_stopped,
		};

		cJSON_AddItemToObject(o, "verify",
				      output_verify_json(&t, rec->verify_failures,
							 rec->nr_verify_failures));
	}
	return o;
}

static cJSON *run_json(const struct stored_run *run, const struct result_record *recs,
		       unsigned nr)
{
	cJSON *o = cJSON_CreateObject(), *results;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "id", (double)run->id);
	cJSON_AddStringToObject(o, "label", run->label);
	cJSON_AddStringToObject(o, "source", run->source);
	cJSON_AddStringToObject(o, "command", run->command);
	cJSON_AddStringToObject(o, "target", run->target);
	cJSON_AddNumberToObject(o, "started_ms", (double)run->started_ms);
	cJSON_AddNumberToObject(o, "finished_ms", (double)run->finished_ms);
	cJSON_AddBoolToObject(o, "partial", run->partial);
	cJSON_AddBoolToObject(o, "incomplete", stored_run_incomplete(run));
	cJSON_AddStringToObject(o, "drive_model", run->drive_model);
	cJSON_AddStringToObject(o, "drive_serial", run->drive_serial);
	results = cJSON_AddArrayToObject(o, "results");
	for (unsigned i = 0; results && i < nr; i++)
		cJSON_AddItemToArray(results, result_json(&recs[i]));
	return o;
}

/* --- the command ------------------------------------------------------------ */

static int parse_run_id(const char *text, int64_t *id)
{
	uint64_t value;

	if (units_parse_count(text, 1, INT64_MAX, &value))
		return -1;
	*id = (int64_t)value;
	return 0;
}

static int export_runs(struct store *s, enum export_format format,
		       const struct stored_run *runs, unsigned nr_runs,
		       const struct export_steps *steps)
{
	cJSON *array = NULL;
	int rc = EXIT_OK;

	if (format == FORMAT_JSON) {
		array = cJSON_CreateArray();
		if (!array) {
			fprintf(stderr, "drivebench export: out of memory\n");
			return EXIT_RUN_FAILED;
		}
	} else {
		puts("run_id,label,job,rw,bs,iodepth,numjobs,dir,ios,bytes,runtime_ms,iops,"
		     "bw_bytes,lat_mean_ns,clat_p99_ns,clat_p99_9_ns,clat_p99_99_ns");
	}
	for (unsigned i = 0; i < nr_runs; i++) {
		struct result_record *recs;
		unsigned nr, kept;
		char warning[1024];

		if (store_results_load(s, runs[i].id, &recs, &nr)) {
			fprintf(stderr, "drivebench export: %s\n", err_msg());
			rc = EXIT_RUN_FAILED;
			break;
		}
		/* --step: only the steps named, and the runs that have them */
		kept = export_keep_steps(steps, recs, nr);
		if (kept || steps->nr == 0) {
			if (report_run_warning(&runs[i], warning, sizeof(warning)))
				fprintf(stderr, "drivebench export: warning: %s\n", warning);
			if (array)
				cJSON_AddItemToArray(array, run_json(&runs[i], recs, kept));
			else
				csv_rows(stdout, &runs[i], recs, kept);
		}
		store_results_free(recs, nr);
	}
	if (array) {
		char *text = rc == EXIT_OK ? cJSON_Print(array) : NULL;

		if (text) {
			puts(text);
			cJSON_free(text);
		} else if (rc == EXIT_OK) {
			fprintf(stderr, "drivebench export: out of memory\n");
			rc = EXIT_RUN_FAILED;
		}
		cJSON_Delete(array);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "drivebench export: writing output: %s\n", strerror(errno));
		rc = EXIT_RUN_FAILED;
	}
	return rc;
}

struct export_args {
	const char *db_path;
	enum export_format format;
	const char *dir;
	int64_t *ids;
	unsigned nr_ids;
	const char **labels;        /* --label, in order */
	unsigned nr_labels;
	struct export_steps steps;  /* --step */
};

static int set_format(void *args, const struct cmdopt *o, const char *v)
{
	struct export_args *a = args;

	(void)o;
	if (!strcmp(v, "json"))
		a->format = FORMAT_JSON;
	else if (!strcmp(v, "csv"))
		a->format = FORMAT_CSV;
	else if (!strcmp(v, "fio"))
		a->format = FORMAT_FIO;
	else
		return err_set("unknown format '%s' (json, csv or fio)", v);
	return 0;
}

static int add_label(void *args, const struct cmdopt *o, const char *v)
{
	struct export_args *a = args;

	(void)o;
	a->labels[a->nr_labels++] = v;
	return 0;
}

static int add_step(void *args, const struct cmdopt *o, const char *v)
{
	struct export_args *a = args;

	(void)o;
	a->steps.names[a->steps.nr++] = v;
	return 0;
}

static int add_run_id(void *args, const char *v)
{
	struct export_args *a = args;

	if (parse_run_id(v, &a->ids[a->nr_ids]))
		return err_set("'%s' is not a run id", v);
	a->nr_ids++;
	return 0;
}

static const struct cmdopt export_options[] = {
	CMDOPT_STRING("--db", 0, struct export_args, db_path, "FILE",
		      "the results database (default " STORE_PATH_HELP ")"),
	CMDOPT_VALUE_FN("--format", 0, set_format, "FORMAT", "json, csv or fio (required)"),
	CMDOPT_STRING("--dir", 0, struct export_args, dir, "DIR",
		      "with --format fio: the folder to write (new, or empty)"),
	CMDOPT_VALUE_FN("--label", 0, add_label, "LABEL",
			"add the runs of this drive label (repeatable)"),
	CMDOPT_VALUE_FN("--step", 0, add_step, "NAME",
			"only the results of the steps so named (repeatable)"),
};

static const struct cmdopt_spec export_spec = {
	.command = "export",
	.synopsis = "export [--db FILE] --format json|csv [--label L] [--step S] [RUN...]\n"
		    "       export [--db FILE] --format fio --dir DIR [--label L] [--step S] [RUN...]",
	.about =
	"Writes stored runs to standard output: all runs, or the RUN ids given\n"
	"(`drivebench export --format csv` lists them in its run_id column) and\n"
	"the runs of each --label; --step NAME keeps only the results of the\n"
	"steps so named (a suite step's name; `group N: JOB` for a run's group).\n"
	"\n"
	"  json  an array of runs, each with its results: per direction ios,\n"
	"        bytes, runtime, IOPS, bandwidth, slat/clat/lat summaries and\n"
	"        clat/lat percentiles (keys as fio's: \"99.900000\")\n"
	"  csv   one row per result and direction the job used, columns:\n"
	"        run_id,label,job,rw,bs,iodepth,numjobs,dir,ios,bytes,runtime_ms,\n"
	"        iops,bw_bytes,lat_mean_ns,clat_p99_ns,clat_p99_9_ns,clat_p99_99_ns\n"
	"        (a percentile the result does not have is an empty field)\n"
	"  fio   one fio JSON document per measured point (a run's reporting\n"
	"        group, a suite step's point, an imported file), as `run\n"
	"        --output-format=json+` wrote it, in fio-plot's layout:\n"
	"        DIR/<drive label>/<test>/<rw>-iodepth-<QD>-numjobs-<JOBS>.json\n"
	"        (<test>: the suite step, else the job name; a repeated point\n"
	"        gets -2, -3 ... before .json). DIR is new or an empty folder.\n",
	.options = export_options,
	.nr_options = CMDOPT_COUNT(export_options),
	.footer =
	"A run that is not whole (it never finished: \"incomplete\": true in JSON;\n"
	"or it was stopped early: \"partial\") gets a warning on standard error.\n"
	"\n"
	"Exit codes: 0 written; 2 usage error, missing database, unknown run,\n"
	"label or step, nothing to export, a --dir that exists and is not an\n"
	"empty folder; 3 a --dir the output gate refuses (/dev, /proc, /sys);\n"
	"1 the database or a file of --dir could not be read or written.\n",
	.positional = add_run_id,
};

int cmd_export(int argc, char **argv)
{
	struct export_args a = { .db_path = store_default_path(), .format = FORMAT_NONE };
	const char *db_path;
	enum export_format format;
	struct stored_run *runs = NULL;
	unsigned nr_runs = 0;
	int64_t *ids;
	unsigned nr_ids;
	struct store *s = NULL;
	struct stat st;
	int rc = EXIT_BAD_INPUT;

	ids = a.ids = calloc((size_t)argc + 1, sizeof(*ids));
	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	a.steps.names = calloc((size_t)argc + 1, sizeof(*a.steps.names));
	if (!ids || !a.labels || !a.steps.names) {
		free(ids);
		free(a.labels);
		free(a.steps.names);
		fprintf(stderr, "drivebench export: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	if (cmd_parse(&export_spec, argc, argv, &a, &rc))
		goto out;
	db_path = a.db_path;
	format = a.format;
	nr_ids = a.nr_ids;
	if (format == FORMAT_NONE) {
		fprintf(stderr, "drivebench export: --format json|csv|fio is required (see "
			"'drivebench export --help')\n");
		goto out;
	}
	if ((format == FORMAT_FIO) != (a.dir != NULL)) {
		fprintf(stderr, "drivebench export: %s\n", a.dir ?
			"--dir DIR goes with --format fio (json and csv write to standard output)" :
			"--format fio needs --dir DIR (the folder to write)");
		goto out;
	}
	/* export reads: never create an empty database by mistake */
	if (stat(db_path, &st) < 0) {
		fprintf(stderr, "drivebench export: %s: %s\n", db_path, strerror(errno));
		goto out;
	}
	if (store_open_read(db_path, "export", &s)) {
		fprintf(stderr, "drivebench export: %s\n", err_msg());
		rc = err_exit_code(rc);
		goto out;
	}
	rc = export_select_runs(s, ids, nr_ids, a.labels, a.nr_labels, &runs, &nr_runs);
	if (rc == 0)
		rc = export_check_steps(s, runs, nr_runs, &a.steps);
	if (rc) {
		fprintf(stderr, "drivebench export: %s\n", err_msg());
	} else if (format == FORMAT_FIO) {
		rc = export_fio(s, a.dir, runs, nr_runs, &a.steps);
		if (rc)
			fprintf(stderr, "drivebench export: %s\n", err_msg());
	} else {
		rc = export_runs(s, format, runs, nr_runs, &a.steps);
	}
out:
	free(runs);
	free(ids);
	free(a.labels);
	free(a.steps.names);
	store_close(s);
	return rc;
}
