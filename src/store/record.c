/* record.c - turns a measured job_result into a result_record, the shape the
 * database stores: per direction figures with fio's definitions, latency
 * summaries, percentiles from the spec's list, the non-empty clat histogram
 * buckets, the per-interval series, the job options as JSON and the drive
 * snapshots, and the verification counts and failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store/record.h"
#include "util/error.h"

static void summary_from(const struct lat_stat *s, struct lat_summary *out)
{
	out->n = s->n;
	out->min = s->n ? s->min : 0;
	out->max = s->n ? s->max : 0;
	out->mean = lat_mean(s);
	out->stddev = lat_stddev(s);
}

static void percentiles_from(const struct hist *h, const struct job_spec *spec,
			     struct pct_value *out, unsigned *nr)
{
	uint64_t values[PERCENTILE_MAX];
	unsigned n = spec->nr_percentiles;

	if (n > RECORD_PCT_MAX)
		n = RECORD_PCT_MAX;
	if (n > PERCENTILE_MAX)
		n = PERCENTILE_MAX;
	hist_percentiles(h, spec->percentiles, n, values);
	for (unsigned i = 0; i < n; i++) {
		out[i].pct = spec->percentiles[i];
		out[i].value_ns = values[i];
	}
	*nr = n;
}

static int bins_from(const struct hist *h, struct dir_record *d)
{
	unsigned used = 0, at = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			used++;
	d->bins = NULL;
	d->nr_bins = 0;
	if (!used)
		return 0;
	d->bins = calloc(used, sizeof(*d->bins));
	if (!d->bins)
		return err_set("out of memory");
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i]) {
			d->bins[at].value_ns = hist_bucket_value(i);
			d->bins[at].count = h->bucket[i];
			at++;
		}
	d->nr_bins = used;
	return 0;
}

/* "key=value" lines -> {"key":"value",...}; a bare "key" gets "" (as fio's
 * JSON shows flag options); a repeated key keeps its last value. */
static char *options_json_from(const char *text)
{
	cJSON *obj = cJSON_CreateObject();
	const char *line = text;
	char *json;

	if (!obj)
		return NULL;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *copy = strndup(line, len), *eq;
		cJSON *value;

		if (!copy)
			goto fail;
		eq = strchr(copy, '=');
		if (eq)
			*eq = '\0';
		if (copy[0]) {
			value = cJSON_CreateString(eq ? eq + 1 : "");
			if (!value) {
				free(copy);
				goto fail;
			}
			cJSON_DeleteItemFromObjectCaseSensitive(obj, copy);
			cJSON_AddItemToObject(obj, copy, value);
		}
		free(copy);
		line = end ? end + 1 : NULL;
	}
	json = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	return json;
fail:
	cJSON_Delete(obj);
	return NULL;
}

/* cJSON_free and free may differ; keep every string in the record malloc'd. */
static char *dup_or_null(const char *s, int *failed)
{
	char *copy;

	if (!s)
		return NULL;
	copy = strdup(s);
	if (!copy)
		*failed = 1;
	return copy;
}

static uint64_t point_bs(const struct job_spec *spec)
{
	enum io_dir d = job_spec_reads(spec) ? DIR_READ : DIR_WRITE;

	if (spec->bssplit_nr[d])
		return 0;
	if (job_spec_reads(spec) && job_spec_writes(spec) &&
	    (spec->bssplit_nr[DIR_WRITE] || spec->bs[DIR_WRITE] != spec->bs[DIR_READ]))
		return 0;
	return spec->bs[d];
}

/* One direction's figures of r: counts, rates, latency summaries, the
 * percentiles and the clat bins. 0, or -1 with err_msg. */
static int dir_record_from(const struct job_result *r, enum io_dir d,
			   struct dir_record *out)
{
	const struct dir_stats *in = &r->dir[d];

	out->ios = in->ios;
	out->bytes = in->bytes;
	out->errors = in->errors;
	out->first_error = in->first_error < 0 ? -in->first_error : in->first_error;
	out->first_error_offset = in->first_error_offset;
	out->runtime_ms = in->ios ? r->runtime_ns / 1000000u : 0;
	out->iops = result_iops(r, d);
	out->bw_bytes = result_bw_bytes(r, d);
	summary_from(&in->slat, &out->slat);
	summary_from(&in->clat, &out->clat);
	summary_from(&in->lat, &out->lat);
	percentiles_from(&in->clat.hist, r->spec, out->clat_pct, &out->nr_clat_pct);
	percentiles_from(&in->lat.hist, r->spec, out->lat_pct, &out->nr_lat_pct);
	return bins_from(&in->clat.hist, out) < 0 ? -1 : 0;
}

/* The per-interval series, with each interval's mean latency. 0, or -1
 * with err_msg. */
static int series_from(const struct job_result *r, struct result_record *rec)
{
	rec->series_interval_ms = r->series.interval_ns / 1000000u;
	if (!r->series.nr)
		return 0;
	rec->series = calloc(r->series.nr, sizeof(*rec->series));
	if (!rec->series)
		return err_set("out of memory");
	for (unsigned i = 0; i < r->series.nr; i++) {
		const struct series_point *p = &r->series.points[i];
		struct series_record *s = &rec->series[i];

		s->t_ms = p->t_ns / 1000000u;
		for (int d = 0; d < DIR_COUNT; d++) {
			s->ios[d] = p->ios[d];
			s->bytes[d] = p->bytes[d];
			s->lat_mean_ns[d] = p->ios[d] ?
				(double)p->lat_sum_ns[d] / (double)p->ios[d] : 0.0;
		}
	}
	rec->nr_series = r->series.nr;
	return 0;
}

/* verify's counts and its list of failures. 0, or -1 with err_msg. */
static int verify_from(const struct job_result *r, struct result_record *rec)
{
	rec->verify = r->spec->verify != VERIFY_NONE;
	rec->verify_seed = r->verify_seed;
	rec->verify_checked = r->verify_checked;
	rec->verify_failed = r->verify_failed;
	rec->verify_units = r->verify_units;
	rec->verify_stopped = r->verify_stopped;
	if (!r->nr_verify_failures)
		return 0;
	rec->verify_failures = malloc(r->nr_verify_failures * sizeof(*rec->verify_failures));
	if (!rec->verify_failures)
		return err_set("out of memory");
	memcpy(rec->verify_failures, r->verify_failures,
	       r->nr_verify_failures * sizeof(*rec->verify_failures));
	rec->nr_verify_failures = r->nr_verify_failures;
	return 0;
}

int record_from_result(const struct job_result *r, struct result_record *rec)
{
	const struct job_spec *spec = r->spec;
	int failed = 0;

	memset(rec, 0, sizeof(*rec));
	rec->nr_ranks = r->nr_ranks > 1 ? r->nr_ranks : 1;
	rec->first_done_ns = r->first_done_ns;
	for (int d = 0; d < DIR_ALL; d++) {
		rec->first_done_ios += r->first_done_ios[d];
		rec->first_done_bytes += r->first_done_bytes[d];
	}
	if (!spec)
		return err_set("result '%s' has no job spec", r->name);
	snprintf(rec->job_name, sizeof(rec->job_name), "%s", r->name);
	rec->groupid = r->groupid;
	rec->error = r->error < 0 ? -r->error : r->error;
	rec->partial = r->partial;
	snprintf(rec->rw, sizeof(rec->rw), "%s", job_spec_rw_name(spec->rw));
	rec->bs = point_bs(spec);
	rec->iodepth = spec->iodepth;
	rec->numjobs = spec->numjobs;
	rec->runtime_ns = r->runtime_ns;
	for (int d = 0; d < DIR_COUNT; d++)
		if (dir_record_from(r, (enum io_dir)d, &rec->dir[d]))
			goto fail;

	rec->options_json = options_json_from(spec->options_text);
	if (!rec->options_json) {
		err_set("out of memory");
		goto fail;
	}
	/* cJSON allocates with malloc unless hooks are installed (none are) */

	rec->max_buffer_bytes = r->max_buffer_bytes;
	if (series_from(r, rec))
		goto fail;
	rec->drive_before = dup_or_null(r->drive_before, &failed);
	rec->drive_after = dup_or_null(r->drive_after, &failed);
	rec->drive_delta = dup_or_null(r->drive_delta, &failed);
	if (failed) {
		err_set("out of memory");
		goto fail;
	}
	if (verify_from(r, rec))
		goto fail;
	return 0;
fail:
	record_free(rec);
	return -1;
}

void record_free(struct result_record *rec)
{
	if (!rec)
		return;
	for (int d = 0; d < DIR_COUNT; d++) {
		free(rec->dir[d].bins);
		rec->dir[d].bins = NULL;
		rec->dir[d].nr_bins = 0;
	}
	free(rec->options_json);
	free(rec->series);
	free(rec->drive_before);
	free(rec->drive_after);
	free(rec->drive_delta);
	free(rec->fio_head);
	free(rec->fio_job);
	rec->fio_head = rec->fio_job = NULL;
	free(rec->verify_failures);
	rec->verify_failures = NULL;
	rec->nr_verify_failures = 0;
	rec->options_json = NULL;
	rec->series = NULL;
	rec->nr_series = 0;
	rec->drive_before = rec->drive_after = rec->drive_delta = NULL;
}
