/* run_command.c - what `drivebench run` and `drivebench verify` share
 * (see the header): the run options, the jobs, the default scratch target,
 * fio's outputs, and the run through the record path. */
#include "cmd/run_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "cmd/run_live.h"
#include "io/engine.h"
#include "job/options.h"
#include "output/output.h"
#include "record/record_run.h"
#include "run/runner.h"
#include "store/store.h"
#include "device/disk_util.h"
#include "device/model_target.h"
#include "device/output_gate.h"
#include "device/target.h"
#include "util/error.h"
#include "verify/verify.h"

/* ---- options -------------------------------------------------------------- */

/* fio's --output-format: a comma-separated list of its formats. */
static int parse_formats(const char *text, unsigned *out)
{
	static const struct { const char *name; unsigned bits; } names[] = {
		{ "normal", FORMAT_NORMAL }, { "json", FORMAT_JSON },
		{ "json+", FORMAT_JSON | FORMAT_JSON_PLUS }, { "terse", FORMAT_TERSE },
	};
	char part[32];
	const char *p = text;

	*out = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		bool known = false;

		if (len == 0 || len >= sizeof(part))
			return err_set("--output-format: bad format list '%s' (normal, json, json+, terse, comma-separated)", text);
		memcpy(part, p, len);
		part[len] = '\0';
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(part, names[i].name)) {
				*out |= names[i].bits;
				known = true;
			}
		if (!known)
			return err_set("--output-format: unknown format '%s' (normal, json, json+, terse)", part);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int run_opt_minimal(void *args, const struct cmdopt *o, const char *value)
{
	struct run_args *a = args;   /* the first member of every command's args */

	(void)o;
	(void)value;
	a->output_format = "terse";
	return 0;
}

int run_args_positional(void *args, const char *value)
{
	struct run_args *a = args;

	if (!strncmp(value, "--", 2))
		a->fio_args[a->nr_fio_args++] = value;
	else if (!a->jobfile)
		a->jobfile = value;
	else
		return err_set("unexpected argument '%s' (one job file at most)", value);
	return 0;
}

int run_args_init(struct run_args *a, int argc, char **argv)
{
	a->argc = argc;
	a->argv = argv;
	a->fio_args = calloc((size_t)argc + 1, sizeof(char *));
	if (!a->fio_args || store_args_init(&a->store, argc))
		return err_set("out of memory");
	return 0;
}

int run_args_done(struct run_args *a)
{
	const char *v = a->terse_version;

	a->formats = FORMAT_NORMAL;
	if (a->output_format && parse_formats(a->output_format, &a->formats))
		return -1;
	a->terse = 3;
	if (v) {
		if (strlen(v) != 1 || v[0] < '2' || v[0] > '5')
			return err_set("--terse-version: '%s' is not 2, 3, 4 or 5", v);
		a->terse = v[0] - '0';
	}
	if (a->nr_sections && !a->jobfile)
		return err_set("--section %s: needs a job file", a->sections[0]);
	if (run_live_parse(a->status_interval, a->eta, &a->status_ns, &a->eta_mode))
		return -1;
	if (store_args_done(&a->store))
		return -1;
	if (a->metrics_file && (metrics_check_path(a->metrics_file) ||
				metrics_check_other(a->metrics_file, "--output", a->output) ||
				metrics_check_other(a->metrics_file, "--db", a->store.db_path)))
		return -1;
	return 0;
}

void run_args_free(struct run_args *a)
{
	free(a->fio_args);
	free(a->sets);
	free(a->sections);
	store_args_free(&a->store);
}

/* ---- jobs ------------------------------------------------------------------ */

int run_command_jobs(const struct run_args *a, struct job_list *jobs)
{
	char set[JOB_PATH_MAX + 64];

	if (a->jobfile) {
		if (jobfile_parse(a->jobfile, a->sections, a->nr_sections, jobs))
			return -1;
		for (unsigned i = 0; i < a->nr_fio_args; i++)
			if (job_list_set_all(jobs, a->fio_args[i] + 2))
				return -1;
	} else {
		if (a->nr_fio_args == 0)
			return err_set("no jobs: give a job file or fio options (see 'drivebench run --help')");
		if (cmdline_parse((int)a->nr_fio_args, (char *const *)a->fio_args, jobs))
			return -1;
	}
	for (unsigned i = 0; i < a->nr_sets; i++) {
		snprintf(set, sizeof(set), "%s", a->sets[i]);
		if (job_list_set_all(jobs, set))
			return -1;
	}
	/* a vssd: target names its drive: a job with no ioengine, or
	 * ioengine=vssd with no vssd_model nor vssd_scale of its own, takes
	 * them from it (another engine given stays an error at the target's
	 * check: it was asked for) */
	for (unsigned j = 0; j < jobs->nr; j++) {
		struct job_spec *s = &jobs->jobs[j];
		char target[sizeof(s->filename)];

		if ((s->ioengine_given && strcmp(s->ioengine, "vssd")) || s->eng.vssd.model[0] ||
		    s->eng.vssd.scale[0] || !model_target_is(s->filename))
			continue;
		snprintf(target, sizeof(target), "%s", s->filename);   /* aim rewrites it */
		if (model_target_aim(s, target))
			return -1;
	}
	/* checked after the overrides: --set runtime=1 completes a
	 * time_based job that has no runtime of its own */
	if (job_list_validate(jobs, 0))
		return -1;
	for (unsigned j = 0; j < jobs->nr; j++) {
		/* verify_only (drivebench verify): read and check, never write */
		if (jobs->jobs[j].verify_only && verify_only_convert(&jobs->jobs[j]))
			return -1;
	}
	return 0;
}

/* The directory the scratch file is in ("." for a bare name). */
static void scratch_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Points jobs with no filename or directory at the scratch file, creating
 * it (written, not sparse) on first use; a job with several files, or a
 * file-ops engine's, gets its files beside it, named as fio names them.
 * Returns 1 when the scratch is used. */
static int use_default_target(struct job_list *jobs, char *note, size_t len)
{
	const char *path = target_scratch_path();
	char dir[JOB_PATH_MAX];
	int used = 0;

	for (unsigned j = 0; j < jobs->nr; j++) {
		struct job_spec *s = &jobs->jobs[j];
		const struct engine_ops *ops = job_engine(s);

		if (s->filename[0] || s->directory[0] || (ops && !engine_needs_fd(ops)))
			continue;
		if (ops && engine_has(ops, ENGINE_NVME_CHAR))
			return err_set("job '%s': ioengine=%s needs filename=/dev/ngXnY (an NVMe "
				       "namespace's character device): it has no default target",
				       s->name, s->ioengine);
		if (job_files_many(s) || (ops && (engine_flags(ops) & ENGINE_FILE_OPS))) {
			scratch_dir(path, dir, sizeof(dir));
			if (job_spec_set_path(s->directory, sizeof(s->directory), dir))
				return -1;
			snprintf(note, len, "default directory: %s (the scratch file's; set "
				 "--directory or %s to change)", dir, SCRATCH_ENV);
			continue;
		}
		if (job_spec_set_path(s->filename, sizeof(s->filename), path))
			return -1;
		used = 1;
	}
	err_clear();
	if (!used)
		return 0;
	if (cmd_default_target(&path))
		return -1;
	snprintf(note, len, "default target: %s (scratch file; set --filename or %s to change)",
		 path, SCRATCH_ENV);
	return 1;
}

/* entries: what run_output_for_report made of out, for print and store.
 * Several formats print in fio's order: terse, json, normal. */
int run_command_print(FILE *f, const struct run_args *a, const struct run_output *out,
		      const struct job_result *entries, unsigned nr,
		      const char *note, time_t started, const struct disk_util *du,
		      const struct run_client *clients, unsigned nr_clients)
{
	struct run_info info = {
		.target_note = note[0] ? note : NULL,
		.partial = out->partial,
		.timestamp_s = (uint64_t)started,
		.timestamp_ms = (uint64_t)started * 1000,
		.json_plus = a->formats & FORMAT_JSON_PLUS,
		.disk_util = du,
		.clients = clients,
		.nr_clients = nr_clients,
	};

	if ((a->formats & FORMAT_TERSE) &&
	    output_terse(f, entries, nr, &info, a->terse))
		return -1;
	if ((a->formats & FORMAT_JSON) && output_json(f, entries, nr, &info))
		return -1;
	if (a->formats & FORMAT_NORMAL)
		return output_summary(f, entries, nr, &info);
	return 0;
}

/* fio's disk_util: the block devices under the jobs' targets, counted from
 * here to the end of the run (a job with disk_util=0, or an engine without
 * a target, adds none). */
static void start_disk_util(const struct job_list *jobs, struct disk_util *du)
{
	char path[JOB_PATH_MAX];

	for (unsigned j = 0; j < jobs->nr; j++) {
		const struct job_spec *s = &jobs->jobs[j];
		const struct engine_ops *ops = job_engine(s);

		if (!s->output.disk_util || !ops || !engine_needs_fd(ops))
			continue;
		for (unsigned c = 0; c < s->numjobs; c++)
			if (job_spec_path(s, c, path, sizeof(path)) == 0)
				disk_util_add(du, path);
	}
	err_clear();
}

/* The outputs, printed before anything is stored (record_run's
 * before_store), and closed: a run that cannot print stores nothing. */
struct printing {
	const struct run_args *a;
	FILE **output;
	const char *note;
	time_t started;
	struct disk_util *du;
	struct run_live *live;        /* its ETA line ends before the output */
};

static int print_then_store(void *arg, const struct recorded *r)
{
	struct printing *p = arg;
	FILE *printed = *p->output;
	struct recorded_clients cl;
	int rc;

	if (p->live) {
		struct recorded_own own;

		run_live_finish(p->live);
		if (recorded_own(r, &own)) {   /* MPI: rank 0's own, as its status */
			metrics_state_free(&p->live->metrics);
			return -1;
		}
		run_live_final_metrics(p->live, own.entries, own.nr);
		recorded_own_free(&own);
	}
	if (p->du)
		disk_util_finish(p->du);
	if (recorded_clients_make(&r->ranks, &cl))
		return -1;
	rc = run_command_print(printed, p->a, &r->out, r->entries, r->nr, p->note, p->started,
			       p->du, cl.c, cl.nr);
	recorded_clients_free(&cl);
	if (rc)
		return -1;
	*p->output = stdout;
	if (p->a->output && output_gate_close(printed, "--output", p->a->output))
		return -1;
	return 0;
}

static bool any_io_error(const struct run_output *out)
{
	for (unsigned i = 0; i < out->nr; i++)
		if (out->results[i].error || out->results[i].verify_failed)
			return true;
	return false;
}

/* ---- running ------------------------------------------------------------- */

int run_command_execute(const char *command, const struct run_args *a,
			struct job_list *jobs)
{
	struct run_options opt = { .stop = &cmd_stop_requested };
	struct store *db = NULL;
	FILE *output = stdout;
	struct disk_util *du = NULL;
	struct recorded rec = { 0 };
	char note[JOB_PATH_MAX + 128] = "", command_line[1024];
	int rc = EXIT_BAD_INPUT;
	time_t started = time(NULL);
	int64_t run_id = 0;
	struct run_meta meta = {
		.label = a->store.label, .source = "run", .command = command_line,
		.started_ms = (uint64_t)started * 1000,
	};
	struct printing printing = { .a = a, .output = &output, .note = note,
				     .started = started };
	struct run_live live = { .a = a, .output = &output, .note = note, .started = started };
	struct run_info stored_info = { .timestamp_s = (uint64_t)started,
					.timestamp_ms = (uint64_t)started * 1000 };
	struct record_place place = {
		.run_id = &run_id, .meta = &meta, .end_run = true,
		.step_per_group = true, .store_partial = true,
		.before_store = print_then_store, .arg = &printing,
	};

	if (use_default_target(jobs, note, sizeof(note)) < 0) {
		rc = err_exit_code(EXIT_BAD_INPUT);
		goto fail;
	}
	meta.target = jobs->nr ? jobs->jobs[0].filename : "";
	/* open the database and the output first: a long run must not end
	 * unable to store or print, and both pass the write gate */
	if (a->store.db_path && store_open(a->store.db_path, &db)) {
		rc = err_exit_code(EXIT_BAD_INPUT);
		goto fail;
	}
	if (a->output && !(output = output_gate_open("--output", a->output))) {
		rc = err_exit_code(EXIT_BAD_INPUT);
		goto fail;
	}
	du = calloc(1, sizeof(*du));
	if (du)
		start_disk_util(jobs, du);
	printing.du = du;
	/* the stored fio JSON has the top level run_command_print writes */
	stored_info.disk_util = du;
	place.info = &stored_info;
	place.db = db;
	opt.max_buffer_mem = a->max_buffer_mem;
	opt.destroy_ids = a->store.destroy_ids;
	opt.nr_destroy_ids = a->store.nr_destroy_ids;
	cmd_join_command(a->argc, a->argv, command_line, sizeof(command_line));
	run_live_start(&live, &opt);
	printing.live = &live;
	if (record_run(jobs, &opt, &place, &rec)) {
		rc = rec.ran ? EXIT_RUN_FAILED : run_failure_exit_code(rec.why);
		goto fail;
	}
	if (rec.stored)
		fprintf(stderr, "drivebench: results stored in %s as run %lld\n",
			a->store.db_path, (long long)run_id);
	rc = (rec.out.partial || any_io_error(&rec.out)) ? EXIT_RUN_FAILED : EXIT_OK;
	goto done;
fail:
	fprintf(stderr, "drivebench %s: %s\n", command, err_msg());
done:
	if (output && output != stdout)
		output_gate_close(output, "--output", a->output);
	if (db)
		store_close(db);
	recorded_free(&rec);
	free(du);
	return rc;
}
