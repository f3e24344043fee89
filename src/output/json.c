/* json.c - results as fio 3.x JSON (the schema of fio's stat.c
 * show_thread_status_json), so tools that read fio's output read ours;
 * json+ adds the clat histogram bins. drivebench-only figures live in a
 * per-job "drivebench" object. See docs/output.md. */
#include "output/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "io/fault.h"
#include "output/json_builder.h"
#include "output/json_dir.h"
#include "output/json_fio.h"
#include "output/json_shared.h"
#include "device/disk_util.h"
#include "measure/check_results.h"
#include "output/checks_out.h"
#include "util/error.h"
#include "verify/verify.h"
#include "job/check_options.h"
#include "job/checks.h"

static const char *const dir_name[DIR_ALL] = { "read", "write", "trim" };

static int positive_errno(int error)
{
	return error < 0 ? -error : error;
}

/* An options object ("job options", "global options") from text[0..len),
 * "key=value" per line; a later line for the same key wins. A bare flag
 * ("direct", "group_reporting") is left out, as fio leaves out options
 * given without a value, and so is an empty object, as in fio. */
static void add_options(struct json_builder *b, cJSON *parent, const char *name,
			const char *text, size_t len)
{
	cJSON *opts = cJSON_CreateObject();
	size_t pos = 0;

	if (!opts) {
		b->failed = true;
		return;
	}
	while (opts && pos < len) {
		size_t line_end = pos, key_start, key_end, value_start, value_end;
		char key[256], value[1024];
		bool has_value;

		while (line_end < len && text[line_end] != '\n')
			line_end++;
		key_start = pos;
		while (key_start < line_end && (text[key_start] == ' ' || text[key_start] == '\t'))
			key_start++;
		key_end = key_start;
		while (key_end < line_end && text[key_end] != '=')
			key_end++;
		has_value = key_end < line_end;   /* found '=' */
		value_start = has_value ? key_end + 1 : line_end;
		value_end = line_end;
		while (key_end > key_start && (text[key_end - 1] == ' ' ||
					       text[key_end - 1] == '\t' ||
					       text[key_end - 1] == '\r'))
			key_end--;
		while (value_start < value_end && (text[value_start] == ' ' ||
						   text[value_start] == '\t'))
			value_start++;
		while (value_end > value_start && (text[value_end - 1] == ' ' ||
						   text[value_end - 1] == '\t' ||
						   text[value_end - 1] == '\r'))
			value_end--;
		if (key_end > key_start && has_value) {
			snprintf(key, sizeof(key), "%.*s", (int)(key_end - key_start),
				 text + key_start);
			snprintf(value, sizeof(value), "%.*s",
				 (int)(value_end - value_start), text + value_start);
			cJSON_DeleteItemFromObjectCaseSensitive(opts, key);
			add_string(b, opts, key, value);
		}
		pos = line_end + 1;
	}
	if (opts->child)
		attach(b, parent, name, opts);
	else
		cJSON_Delete(opts);
}

/* As fio: "job options" holds the job's own options, the global section's
 * (and those before the first --name) are the top level's "global
 * options" (spec->output.global_text_len marks where they end). */
static size_t global_len(const struct job_spec *spec)
{
	size_t len = strnlen(spec->options_text, sizeof(spec->options_text));

	return spec->output.global_text_len < len ? spec->output.global_text_len : len;
}

static void add_job_options(struct json_builder *b, cJSON *job,
			    const struct job_spec *spec)
{
	size_t len = strnlen(spec->options_text, sizeof(spec->options_text));
	size_t start = global_len(spec);

	/* the mark is at a line's end: its newline reads as an empty line */
	add_options(b, job, "job options", spec->options_text + start, len - start);
}

/* The global options of the run: the last job's (a later [global] adds to
 * the state the jobs after it start from). */
static void add_global_options(struct json_builder *b, cJSON *root,
			       const struct job_result *res, unsigned nr)
{
	const struct job_spec *spec = NULL;

	for (unsigned i = 0; i < nr; i++)
		if (res[i].spec)
			spec = res[i].spec;
	if (spec)
		add_options(b, root, "global options", spec->options_text, global_len(spec));
}

static void add_series(struct json_builder *b, cJSON *parent,
		       const struct series *s)
{
	cJSON *points = add_array(b, parent, "series");

	for (unsigned i = 0; i < s->nr && points; i++) {
		const struct series_point *p = &s->points[i];
		cJSON *point = add_object(b, points, NULL);

		add_double(b, point, "t_ms", (double)p->t_ns / 1e6);
		for (int d = 0; d < DIR_ALL; d++) {
			cJSON *dir = add_object(b, point, dir_name[d]);

			add_u64(b, dir, "ios", p->ios[d]);
			add_u64(b, dir, "bytes", p->bytes[d]);
			add_double(b, dir, "lat_mean_ns", p->ios[d] ?
				   (double)p->lat_sum_ns[d] / (double)p->ios[d] : 0.0);
		}
	}
}

cJSON *output_verify_json(const struct verify_totals *t,
			  const struct verify_failure *failures, unsigned nr)
{
	struct json_builder builder = { 0 }, *b = &builder;
	cJSON *verify = cJSON_CreateObject();
	cJSON *list;

	add_string(b, verify, "method", t->method ? t->method : "crc32c");
	add_u64(b, verify, "seed", t->seed);
	add_u64(b, verify, "units", t->units);
	add_u64(b, verify, "checked", t->checked);
	add_u64(b, verify, "failed", t->failed);
	add_u64(b, verify, "unlisted", verify_unlisted(t->failed, failures, nr));
	attach(b, verify, "stopped_by_verify_fatal", cJSON_CreateBool(t->stopped));
	list = add_array(b, verify, "failures");
	for (unsigned i = 0; i < nr && list; i++) {
		const struct verify_failure *v = &failures[i];
		cJSON *item = add_object(b, list, NULL);

		add_u64(b, item, "offset", v->offset);
		add_u64(b, item, "len", v->len);
		add_u64(b, item, "units", v->units);
		add_string(b, item, "verdict", verify_verdict_name(v->verdict));
		add_u64(b, item, "expected_seq", v->expected_seq);
		add_u64(b, item, "found_seq", v->found_seq);
		add_u64(b, item, "found_offset", v->found_offset);
		add_u64(b, item, "found_seed", v->found_seed);
		add_u64(b, item, "bad_offset", v->bad_offset);
		add_int(b, item, "expected_byte", v->expected_byte);
		add_int(b, item, "found_byte", v->found_byte);
	}
	if (b->failed) {
		cJSON_Delete(verify);
		return NULL;
	}
	return verify;
}

static void add_drivebench_extras(struct json_builder *b, cJSON *job,
				  const struct job_result *r)
{
	cJSON *extra = add_object(b, job, "drivebench");
	cJSON *errors, *first;

	add_u64(b, extra, "nr_merged", r->nr_merged);
	add_u64(b, extra, "clone", r->clone);
	attach(b, extra, "partial", cJSON_CreateBool(r->partial));
	add_u64(b, extra, "runtime_ns", r->runtime_ns);
	add_u64(b, extra, "ramp_ns", r->ramp_ns);
	add_u64(b, extra, "max_buffer_bytes", r->max_buffer_bytes);
	errors = add_object(b, extra, "errors");
	first = add_object(b, extra, "first_error");
	for (int d = 0; d < DIR_ALL; d++) {
		const struct dir_stats *ds = &r->dir[d];

		add_u64(b, errors, dir_name[d], ds->errors);
		if (ds->first_error) {
			cJSON *e = add_object(b, first, dir_name[d]);

			add_int(b, e, "errno", positive_errno(ds->first_error));
			add_string(b, e, "error", err_errno_text(ds->first_error));
			add_u64(b, e, "offset", ds->first_error_offset);
		}
	}
	if (r->spec && fault_engine_named(r->spec->ioengine)) {
		cJSON *faults = add_object(b, extra, "faults_injected");

		for (int k = 0; k < FAULT_KINDS; k++)
			add_u64(b, faults, fault_kind_name((enum fault_kind)k),
				r->faults_injected[k]);
		cJSON *calls = add_object(b, extra, "engine_calls");

		for (int k = 0; k < FAULT_CALLS; k++)
			add_u64(b, calls, fault_call_name((enum fault_call)k),
				r->engine_calls[k]);
	}
	if (verify_result_present(r)) {
		struct verify_totals t = {
			.method = r->spec && r->spec->verify != VERIFY_NONE ?
				verify_method_name(r->spec->verify) : NULL,
			.seed = r->verify_seed, .units = r->verify_units,
			.checked = r->verify_checked, .failed = r->verify_failed,
			.stopped = r->verify_stopped,
		};

		attach(b, extra, "verify",
		       output_verify_json(&t, r->verify_failures, r->nr_verify_failures));
	}
	if (r->checks && r->checks->sprandom)
		attach(b, extra, "sprandom", output_sprandom_json(r, &b->failed));
	add_double(b, extra, "series_interval_ms", (double)r->series.interval_ns / 1e6);
	add_series(b, extra, &r->series);
	if (r->drive_before)
		attach(b, extra, "drive_before", cJSON_Parse(r->drive_before));
	if (r->drive_after)
		attach(b, extra, "drive_after", cJSON_Parse(r->drive_after));
	if (r->drive_delta)
		attach(b, extra, "drive_delta", cJSON_Parse(r->drive_delta));
}

static cJSON *add_job_json(struct json_builder *b, cJSON *jobs,
			   const struct job_result *res, unsigned nr, unsigned index,
			   bool json_plus)
{
	const struct job_result *r = &res[index];
	const struct job_spec *spec = r->spec;
	cJSON *job = add_object(b, jobs, NULL);
	struct percentile_list pcts;
	uint64_t job_ns = r->runtime_ns + r->ramp_ns;
	/* fio's total_run_time: each clone's time from the end of its ramp
	 * to its end, summed over a group, and what CPU shares divide by */
	double run_s = (double)r->total_run_ns / 1e9;

	json_percentile_list(spec, &pcts);
	add_string(b, job, "jobname", r->name);
	add_u64(b, job, "groupid", r->groupid);
	add_u64(b, job, "job_start", r->start_unix_ms);
	add_int(b, job, "error", positive_errno(r->error));
	add_u64(b, job, "eta", 0);
	add_u64(b, job, "elapsed", (job_ns + 500000000) / 1000000000);
	if (spec)
		add_job_options(b, job, spec);
	for (int d = 0; d < DIR_ALL; d++)
		json_add_dir(b, job, dir_name[d], r, &r->dir[d], (enum io_dir)d,
			     group_agg_bytes(res, nr, r->groupid, (enum io_dir)d),
			     &pcts, json_plus);

	cJSON *sync = add_object(b, job, "sync");

	add_u64(b, sync, "total_ios", r->sync_ios);
	json_add_lat(b, sync, "lat_ns", &r->sync_lat, &pcts, json_plus);
	json_add_unified(b, job, res, nr, r, &pcts, json_plus);

	add_u64(b, job, "job_runtime", r->total_run_ns / 1000000);
	add_double(b, job, "usr_cpu", run_s > 0 ? r->usr_cpu_s * 100.0 / run_s : 0.0);
	add_double(b, job, "sys_cpu", run_s > 0 ? r->sys_cpu_s * 100.0 / run_s : 0.0);
	add_u64(b, job, "ctx", r->ctx_switches);
	add_u64(b, job, "majf", r->major_faults);
	add_u64(b, job, "minf", r->minor_faults);
	attach(b, job, "iodepth_level", json_fio_depths(&r->depths, JSON_DEPTH_LEVEL));
	attach(b, job, "iodepth_submit", json_fio_depths(&r->depths, JSON_DEPTH_SUBMIT));
	attach(b, job, "iodepth_complete", json_fio_depths(&r->depths, JSON_DEPTH_COMPLETE));
	json_add_latency_ranges(b, job, r);
	if (spec && spec->continue_on_error) {
		/* fio adds these two only for continue_on_error jobs */
		uint64_t total_err = 0;

		for (int d = 0; d < DIR_ALL; d++)
			total_err += r->dir[d].errors;
		add_u64(b, job, "total_err", total_err);
		add_int(b, job, "first_error", positive_errno(r->error));
	}
	/* fio's latency-target fields: the depth found, the target and window
	 * in us (as fio's options hold them), the percentile */
	add_u64(b, job, "latency_depth", r->latency_depth ? r->latency_depth :
		spec && spec->iodepth ? spec->iodepth : 1);
	add_u64(b, job, "latency_target", spec ? spec->pacing.latency_target_ns / 1000 : 0);
	add_double(b, job, "latency_percentile", spec ? spec->pacing.latency_percentile : 100.0);
	add_u64(b, job, "latency_window", spec ? spec->pacing.latency_window_ns / 1000 : 0);
	if (spec && spec->description[0])
		add_string(b, job, "desc", spec->description);
	if (r->checks && r->checks->steady)
		attach(b, job, "steadystate", output_steadystate_json(r, &b->failed));
	add_drivebench_extras(b, job, r);
	return job;
}

/* fio's client fields of an entry of client_stats: its host and port (an
 * MPI rank has none: 0, as fio writes a client on a local socket) at the
 * end of the job object, and which rank it is in the "drivebench" one. */
static void add_client_info(struct json_builder *b, cJSON *job, const char *hostname)
{
	if (!job)
		return;
	add_string(b, job, "hostname", hostname ? hostname : "");
	add_u64(b, job, "port", 0);
}

/* fio's "client_stats" (client.c, fio --client): every client's job
 * objects, each with its hostname and port, then the "All clients" sum.
 * Here every rank's entries in rank order, then one "All clients" entry
 * per aggregate entry: the aggregate's job object (jobs[i]) renamed, as
 * fio names its sum, with rank 0's host (fio takes the last client's). */
static void add_client_stats(struct json_builder *b, cJSON *root,
			     const struct job_result *res, unsigned nr,
			     const struct run_info *info)
{
	cJSON *clients = add_array(b, root, "client_stats");

	for (unsigned k = 0; k < info->nr_clients && clients; k++) {
		const struct run_client *c = &info->clients[k];

		for (unsigned i = 0; i < c->nr; i++) {
			cJSON *job = add_job_json(b, clients, c->res, c->nr, i, info->json_plus);
			cJSON *extra = job ? cJSON_GetObjectItemCaseSensitive(job, "drivebench") : NULL;

			add_client_info(b, job, c->hostname);
			add_u64(b, extra, "rank", c->rank);
			add_u64(b, extra, "local_rank", c->local_rank);
		}
	}
	for (unsigned i = 0; i < nr && clients; i++) {
		cJSON *job = add_job_json(b, clients, res, nr, i, info->json_plus);
		cJSON *extra = job ? cJSON_GetObjectItemCaseSensitive(job, "drivebench") : NULL;
		cJSON *name = cJSON_CreateString("All clients");

		if (!job || !name ||
		    !cJSON_ReplaceItemInObjectCaseSensitive(job, "jobname", name)) {
			cJSON_Delete(name);
			b->failed = true;
			return;
		}
		add_client_info(b, job, info->clients[0].hostname);
		add_string(b, extra, "jobname", res[i].name);
		add_u64(b, extra, "ranks", info->nr_clients);
	}
}

/* The document of res[0..nr) with the jobs from first to end (the others
 * still count in their group's bw_agg). NULL when out of memory. */
static cJSON *json_document(const struct job_result *res, unsigned nr,
			    const struct run_info *info, unsigned first, unsigned end)
{
	struct json_builder b = { false };
	char time_text[64] = "";
	time_t when;
	struct tm tm;
	cJSON *root, *jobs;

	when = (time_t)info->timestamp_s;
	if (localtime_r(&when, &tm))
		strftime(time_text, sizeof(time_text), "%a %b %e %H:%M:%S %Y", &tm);

	root = cJSON_CreateObject();
	if (!root)
		return NULL;
	/* fio's readers look this key up first */
	add_string(&b, root, "fio version", JSON_FIO_VERSION);
	add_string(&b, root, "drivebench version", DRIVEBENCH_VERSION);
	add_u64(&b, root, "timestamp", info->timestamp_s);
	add_u64(&b, root, "timestamp_ms", info->timestamp_ms);
	add_string(&b, root, "time", time_text);
	if (info->partial)
		attach(&b, root, "partial", cJSON_CreateTrue());
	add_global_options(&b, root, res, nr);
	jobs = add_array(&b, root, "jobs");
	for (unsigned i = first; i < end && jobs; i++)
		add_job_json(&b, jobs, res, nr, i, info->json_plus);
	if (info->nr_clients)
		add_client_stats(&b, root, res, nr, info);
	/* as fio: only when a block device was under the targets */
	if (info->disk_util && info->disk_util->nr)
		attach(&b, root, "disk_util", json_fio_disk_util(info->disk_util));
	if (b.failed) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int output_json_stored(const struct job_result *res, unsigned nr, unsigned index,
		       const struct run_info *info, char **head, char **job)
{
	cJSON *root, *jobs, *item;

	*head = *job = NULL;
	if (index >= nr || !info)
		return err_set("output_json_stored: no result %u", index);
	root = json_document(res, nr, info, index, index + 1);
	jobs = root ? cJSON_DetachItemFromObjectCaseSensitive(root, "jobs") : NULL;
	item = jobs ? cJSON_GetArrayItem(jobs, 0) : NULL;
	if (item) {
		*head = cJSON_PrintUnformatted(root);
		*job = cJSON_PrintUnformatted(item);
	}
	cJSON_Delete(jobs);
	cJSON_Delete(root);
	if (!*head || !*job) {
		cJSON_free(*head);
		cJSON_free(*job);
		*head = *job = NULL;
		return err_set("output_json_stored: out of memory");
	}
	return 0;
}

int output_json(FILE *f, const struct job_result *res, unsigned nr,
		const struct run_info *info)
{
	static const struct run_info no_info;
	cJSON *root;
	char *text;
	int rc = 0;

	if (!f || (nr && !res))
		return err_set("output_json: no %s", f ? "results" : "output stream");
	if (!info)
		info = &no_info;
	root = json_document(res, nr, info, 0, nr);
	if (!root)
		return err_set("output_json: out of memory");
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return err_set("output_json: out of memory");
	errno = 0;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) == EOF)
		rc = err_set("writing JSON output: %s",
			     errno ? strerror(errno) : "write error");
	cJSON_free(text);
	return rc;
}
