/* json.c - results as fio 3.x JSON (the schema of fio's stat.c
 * show_thread_status_json), so tools that read fio's output read ours;
 * json+ adds the clat histogram bins. drivebench-only figures live in a
 * per-job "drivebench" object. See docs/output.md. */
#include "output/output.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "io/engine.h"
#include "io/fault.h"
#include "util/error.h"
#include "verify/verify.h"

/* fio's default percentile_list */
static const double default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/* fio's latency_ns / latency_us / latency_ms range labels (upper bounds) */
#define LAT_RANGES 10
#define LAT_RANGES_MS 12
static const unsigned lat_range_limit[LAT_RANGES] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
};
static const char *const lat_range_name[LAT_RANGES_MS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

static const char *const dir_name[DIR_COUNT] = { "read", "write" };

/* Every add goes through these; the first allocation failure is remembered
 * and the whole document is dropped at the end. */
struct json_builder {
	bool failed;
};

static cJSON *attach(struct json_builder *b, cJSON *parent, const char *name,
		     cJSON *item)
{
	if (!item || !parent) {
		cJSON_Delete(item);
		b->failed = true;
		return NULL;
	}
	if (!(cJSON_IsArray(parent) ? cJSON_AddItemToArray(parent, item) :
				      cJSON_AddItemToObject(parent, name, item))) {
		cJSON_Delete(item);
		b->failed = true;
		return NULL;
	}
	return item;
}

static cJSON *add_object(struct json_builder *b, cJSON *parent, const char *name)
{
	return attach(b, parent, name, cJSON_CreateObject());
}

static cJSON *add_array(struct json_builder *b, cJSON *parent, const char *name)
{
	return attach(b, parent, name, cJSON_CreateArray());
}

/* 64-bit counters are written as exact decimal integers (raw), not through
 * cJSON's double formatting, which can drop the last digit above 10^15. */
static void add_u64(struct json_builder *b, cJSON *parent, const char *name,
		    uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	attach(b, parent, name, cJSON_CreateRaw(text));
}

static void add_int(struct json_builder *b, cJSON *parent, const char *name,
		    long long value)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", value);
	attach(b, parent, name, cJSON_CreateRaw(text));
}

static void add_double(struct json_builder *b, cJSON *parent, const char *name,
		       double value)
{
	attach(b, parent, name, cJSON_CreateNumber(isfinite(value) ? value : 0.0));
}

static void add_string(struct json_builder *b, cJSON *parent, const char *name,
		       const char *value)
{
	attach(b, parent, name, cJSON_CreateString(value));
}

static int positive_errno(int error)
{
	return error < 0 ? -error : error;
}

/* The percentile list to report, ascending like fio sorts it. */
struct percentile_list {
	double p[PERCENTILE_MAX];
	unsigned nr;
};

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void percentile_list_of(const struct job_spec *spec,
			       struct percentile_list *list)
{
	const double *from = default_percentiles;
	unsigned nr = sizeof(default_percentiles) / sizeof(default_percentiles[0]);

	if (spec && spec->nr_percentiles) {
		from = spec->percentiles;
		nr = spec->nr_percentiles < PERCENTILE_MAX ?
			spec->nr_percentiles : PERCENTILE_MAX;
	}
	list->nr = 0;
	for (unsigned i = 0; i < nr; i++)
		if (from[i] > 0.0 && from[i] <= 100.0)
			list->p[list->nr++] = from[i];
	qsort(list->p, list->nr, sizeof(list->p[0]), compare_double);
}

/* {min, max, mean, stddev, N [, percentile] [, bins]} as fio's
 * add_ddir_lat_json writes it. */
static void add_lat_json(struct json_builder *b, cJSON *parent, const char *name,
			 const struct lat_stat *s, const struct percentile_list *pcts,
			 bool with_bins)
{
	cJSON *lat = add_object(b, parent, name);
	uint64_t values[PERCENTILE_MAX];
	char key[64];

	add_u64(b, lat, "min", s->n ? s->min : 0);
	add_u64(b, lat, "max", s->n ? s->max : 0);
	add_double(b, lat, "mean", lat_mean(s));
	add_double(b, lat, "stddev", lat_stddev(s));
	add_u64(b, lat, "N", s->n);
	if (!pcts || !s->n || !pcts->nr)
		return;

	cJSON *percentile = add_object(b, lat, "percentile");

	hist_percentiles(&s->hist, pcts->p, pcts->nr, values);
	for (unsigned i = 0; i < pcts->nr; i++) {
		snprintf(key, sizeof(key), "%f", pcts->p[i]);
		add_u64(b, percentile, key, values[i]);
	}
	if (!with_bins)
		return;

	cJSON *bins = add_object(b, lat, "bins");

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!s->hist.bucket[i])
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
		add_u64(b, bins, key, s->hist.bucket[i]);
	}
}

/* Per-interval bandwidth (KiB/s) and IOPS, fio's bw_* / iops_* fields. */
struct rate_summary {
	uint64_t samples;
	double bw_min, bw_max, bw_mean, bw_dev;
	double iops_min, iops_max, iops_mean, iops_dev;
};

static void summarize_rates(const struct series *s, enum io_dir d,
			    struct rate_summary *out)
{
	double bw_sum = 0, iops_sum = 0, bw_sq = 0, iops_sq = 0;
	uint64_t prev_t = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < s->nr; i++) {
		const struct series_point *p = &s->points[i];
		uint64_t span = p->t_ns > prev_t ? p->t_ns - prev_t : 0;
		double seconds, bw, iops;

		prev_t = p->t_ns;
		/* A short last interval (the run ended inside it) is not a
		 * sample, as fio only samples at whole intervals; unless it is
		 * the only one. */
		if (span == 0 || (i == s->nr - 1 && i > 0 && span < s->interval_ns))
			continue;
		seconds = (double)span / 1e9;
		bw = (double)p->bytes[d] / 1024.0 / seconds;
		iops = (double)p->ios[d] / seconds;
		if (out->samples == 0 || bw < out->bw_min)
			out->bw_min = bw;
		if (bw > out->bw_max)
			out->bw_max = bw;
		if (out->samples == 0 || iops < out->iops_min)
			out->iops_min = iops;
		if (iops > out->iops_max)
			out->iops_max = iops;
		bw_sum += bw;
		iops_sum += iops;
		out->samples++;
	}
	if (!out->samples)
		return;
	out->bw_mean = bw_sum / (double)out->samples;
	out->iops_mean = iops_sum / (double)out->samples;
	if (out->samples < 2)
		return;
	prev_t = 0;
	for (unsigned i = 0; i < s->nr; i++) {
		const struct series_point *p = &s->points[i];
		uint64_t span = p->t_ns > prev_t ? p->t_ns - prev_t : 0;
		double seconds, bw, iops;

		prev_t = p->t_ns;
		if (span == 0 || (i == s->nr - 1 && i > 0 && span < s->interval_ns))
			continue;
		seconds = (double)span / 1e9;
		bw = (double)p->bytes[d] / 1024.0 / seconds;
		iops = (double)p->ios[d] / seconds;
		bw_sq += (bw - out->bw_mean) * (bw - out->bw_mean);
		iops_sq += (iops - out->iops_mean) * (iops - out->iops_mean);
	}
	out->bw_dev = sqrt(bw_sq / (double)(out->samples - 1));
	out->iops_dev = sqrt(iops_sq / (double)(out->samples - 1));
}

/* The group's aggregate bandwidth in bytes/s for one direction: all bytes
 * of the entries sharing groupid over the longest runtime (fio's rs->agg). */
static double group_agg_bytes(const struct job_result *res, unsigned nr,
			      unsigned groupid, enum io_dir d)
{
	uint64_t bytes = 0, max_run = 0;

	for (unsigned i = 0; i < nr; i++) {
		if (res[i].groupid != groupid)
			continue;
		bytes += res[i].dir[d].bytes;
		if (res[i].dir[d].ios && res[i].runtime_ns > max_run)
			max_run = res[i].runtime_ns;
	}
	return max_run ? (double)bytes / ((double)max_run / 1e9) : 0.0;
}

/* fio's "prios": the clat of each I/O priority (cmdprio), written when at
 * least two of them completed I/Os. */
static void add_prios_json(struct json_builder *b, cJSON *obj, const struct job_result *r,
			   enum io_dir d, const struct percentile_list *pcts)
{
	unsigned with_samples = 0;
	cJSON *list;

	for (unsigned i = 0; i < r->nr_prio_clat[d]; i++)
		with_samples += r->prio_clat[d][i].clat.n > 0;
	if (with_samples < 2)
		return;
	list = add_array(b, obj, "prios");
	for (unsigned i = 0; i < r->nr_prio_clat[d]; i++) {
		const struct prio_clat *p = &r->prio_clat[d][i];
		cJSON *entry;

		if (!p->clat.n)
			continue;
		entry = add_object(b, list, NULL);
		if (!entry)
			return;
		add_u64(b, entry, "prioclass", p->ioprio >> 13);
		add_u64(b, entry, "prio", p->ioprio & 7);
		add_u64(b, entry, "priohint", (p->ioprio >> 3) & 1023);
		add_lat_json(b, entry, "clat_ns", &p->clat, pcts, false);
	}
}

static void add_dir_json(struct json_builder *b, cJSON *job, const char *name,
			 const struct job_result *r, const struct dir_stats *ds,
			 enum io_dir d, double group_agg,
			 const struct percentile_list *pcts, bool json_plus)
{
	static const struct lat_stat empty_lat;  /* n == 0: printed as zeros */
	cJSON *obj = add_object(b, job, name);
	struct rate_summary rates = { 0 };
	double bw_bytes = 0, iops = 0, agg_pct = 0;
	bool no_data;

	if (ds) {
		bw_bytes = result_bw_bytes(r, d);
		iops = result_iops(r, d);
		summarize_rates(&r->series, d, &rates);
	}
	/* an engine that moves no data (cpuio, exec): fio's direction has no
	 * runtime, so no iops or bandwidth samples; its iops samples stay */
	no_data = ds && r->spec && engine_has(engine_base(r->spec->ioengine), ENGINE_NO_IO);
	if (no_data) {
		iops = 0;
		rates.bw_min = rates.bw_max = rates.bw_mean = rates.bw_dev = 0;
	}
	add_u64(b, obj, "io_bytes", ds ? ds->bytes : 0);
	add_u64(b, obj, "io_kbytes", ds ? ds->bytes >> 10 : 0);
	add_u64(b, obj, "bw_bytes", (uint64_t)bw_bytes);
	add_u64(b, obj, "bw", (uint64_t)bw_bytes / 1024);  /* KiB/s, as fio */
	add_double(b, obj, "iops", iops);
	add_u64(b, obj, "runtime", ds && ds->ios && !no_data ?
		(r->runtime_ns + 500000) / 1000000 : 0);
	add_u64(b, obj, "total_ios", ds ? ds->ios : 0);
	add_u64(b, obj, "short_ios", 0);
	add_u64(b, obj, "drop_ios", 0);
	add_lat_json(b, obj, "slat_ns", ds ? &ds->slat : &empty_lat, NULL, false);
	add_lat_json(b, obj, "clat_ns", ds ? &ds->clat : &empty_lat, pcts, json_plus);
	add_lat_json(b, obj, "lat_ns", ds ? &ds->lat : &empty_lat, pcts, false);
	if (ds)
		add_prios_json(b, obj, r, d, pcts);

	if (rates.samples && !no_data) {
		/* fio's convert_agg_kbytes_percent */
		agg_pct = 100.0;
		if (group_agg > 1024.0) {
			agg_pct = rates.bw_mean * 100.0 / (group_agg / 1024.0);
			if (agg_pct > 100.0)
				agg_pct = 100.0;
		}
	}
	add_u64(b, obj, "bw_min", (uint64_t)rates.bw_min);
	add_u64(b, obj, "bw_max", (uint64_t)rates.bw_max);
	add_double(b, obj, "bw_agg", agg_pct);
	add_double(b, obj, "bw_mean", rates.bw_mean);
	add_double(b, obj, "bw_dev", rates.bw_dev);
	add_u64(b, obj, "bw_samples", no_data ? 0 : rates.samples);
	add_u64(b, obj, "iops_min", (uint64_t)rates.iops_min);
	add_u64(b, obj, "iops_max", (uint64_t)rates.iops_max);
	add_double(b, obj, "iops_mean", rates.iops_mean);
	add_double(b, obj, "iops_stddev", rates.iops_dev);
	add_u64(b, obj, "iops_samples", rates.samples);
}

/* Index into fio's 10 ns/us ranges, or 10 past the end. */
static unsigned lat_range_index(uint64_t value)
{
	unsigned i = 0;

	while (i < LAT_RANGES && value >= lat_range_limit[i])
		i++;
	return i;
}

/* latency_ns / latency_us / latency_ms: percent of I/Os by total latency,
 * from the lat histograms (each bucket counted at its midpoint). */
static void add_latency_ranges(struct json_builder *b, cJSON *job,
			       const struct job_result *r)
{
	uint64_t ns[LAT_RANGES] = { 0 }, us[LAT_RANGES] = { 0 };
	uint64_t ms[LAT_RANGES_MS] = { 0 }, total = 0;

	for (int d = 0; d < DIR_COUNT; d++) {
		const struct hist *h = &r->dir[d].lat.hist;

		for (unsigned i = 0; i < HIST_BUCKETS; i++) {
			uint64_t value = hist_bucket_value(i), count = h->bucket[i];

			if (!count)
				continue;
			total += count;
			if (value < 1000)
				ns[lat_range_index(value)] += count;
			else if (value < 1000000)
				us[lat_range_index(value / 1000)] += count;
			else if (value < 2000000000ull)
				ms[lat_range_index(value / 1000000)] += count;
			else
				ms[LAT_RANGES_MS - 1] += count;
		}
	}

	const struct { const char *name; const uint64_t *count; unsigned nr; } kinds[] = {
		{ "latency_ns", ns, LAT_RANGES },
		{ "latency_us", us, LAT_RANGES },
		{ "latency_ms", ms, LAT_RANGES_MS },
	};
	for (unsigned k = 0; k < 3; k++) {
		cJSON *obj = add_object(b, job, kinds[k].name);

		for (unsigned i = 0; i < kinds[k].nr; i++) {
			double pct = 0.0;

			if (total) {
				pct = 100.0 * (double)kinds[k].count[i] / (double)total;
				/* fio shows any non-empty range as at least 0.01 */
				if (pct < 0.01 && kinds[k].count[i])
					pct = 0.01;
			}
			add_double(b, obj, lat_range_name[i], pct);
		}
	}
}

/* "job options": spec->options_text, "key=value" per line; a later line
 * for the same key (a job overriding a global) wins. */
static void add_job_options(struct json_builder *b, cJSON *job,
			    const struct job_spec *spec)
{
	cJSON *opts = add_object(b, job, "job options");
	const char *text = spec->options_text;
	size_t len = strnlen(text, sizeof(spec->options_text)), pos = 0;

	while (opts && pos < len) {
		size_t line_end = pos, key_start, key_end, value_start, value_end;
		char key[256], value[1024];

		while (line_end < len && text[line_end] != '\n')
			line_end++;
		key_start = pos;
		while (key_start < line_end && (text[key_start] == ' ' || text[key_start] == '\t'))
			key_start++;
		key_end = key_start;
		while (key_end < line_end && text[key_end] != '=')
			key_end++;
		value_start = key_end < line_end ? key_end + 1 : line_end;
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
		if (key_end > key_start) {
			snprintf(key, sizeof(key), "%.*s", (int)(key_end - key_start),
				 text + key_start);
			snprintf(value, sizeof(value), "%.*s",
				 (int)(value_end - value_start), text + value_start);
			cJSON_DeleteItemFromObjectCaseSensitive(opts, key);
			add_string(b, opts, key, value);
		}
		pos = line_end + 1;
	}
}

static void add_series(struct json_builder *b, cJSON *parent,
		       const struct series *s)
{
	cJSON *points = add_array(b, parent, "series");

	for (unsigned i = 0; i < s->nr && points; i++) {
		const struct series_point *p = &s->points[i];
		cJSON *point = add_object(b, points, NULL);

		add_double(b, point, "t_ms", (double)p->t_ns / 1e6);
		for (int d = 0; d < DIR_COUNT; d++) {
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

	add_string(b, verify, "method", "crc32c");
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
	for (int d = 0; d < DIR_COUNT; d++) {
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
	}
	if (verify_result_present(r)) {
		struct verify_totals t = {
			.seed = r->verify_seed, .units = r->verify_units,
			.checked = r->verify_checked, .failed = r->verify_failed,
			.stopped = r->verify_stopped,
		};

		attach(b, extra, "verify",
		       output_verify_json(&t, r->verify_failures, r->nr_verify_failures));
	}
	add_double(b, extra, "series_interval_ms", (double)r->series.interval_ns / 1e6);
	add_series(b, extra, &r->series);
	if (r->drive_before)
		attach(b, extra, "drive_before", cJSON_Parse(r->drive_before));
	if (r->drive_after)
		attach(b, extra, "drive_after", cJSON_Parse(r->drive_after));
	if (r->drive_delta)
		attach(b, extra, "drive_delta", cJSON_Parse(r->drive_delta));
}

static void add_job_json(struct json_builder *b, cJSON *jobs,
			 const struct job_result *res, unsigned nr, unsigned index,
			 bool json_plus)
{
	const struct job_result *r = &res[index];
	const struct job_spec *spec = r->spec;
	cJSON *job = add_object(b, jobs, NULL);
	struct percentile_list pcts;
	uint64_t job_ns = r->runtime_ns + r->ramp_ns;
	double job_s = (double)job_ns / 1e9;

	percentile_list_of(spec, &pcts);
	add_string(b, job, "jobname", r->name);
	add_u64(b, job, "groupid", r->groupid);
	add_u64(b, job, "job_start", r->start_unix_ms);
	add_int(b, job, "error", positive_errno(r->error));
	add_u64(b, job, "eta", 0);
	add_u64(b, job, "elapsed", (job_ns + 500000000) / 1000000000);
	if (spec)
		add_job_options(b, job, spec);
	for (int d = 0; d < DIR_COUNT; d++)
		add_dir_json(b, job, dir_name[d], r, &r->dir[d], (enum io_dir)d,
			     group_agg_bytes(res, nr, r->groupid, (enum io_dir)d),
			     &pcts, json_plus);
	add_dir_json(b, job, "trim", r, NULL, DIR_READ, 0.0, &pcts, false);

	cJSON *sync = add_object(b, job, "sync");
	static const struct lat_stat empty_lat;

	add_u64(b, sync, "total_ios", 0);
	add_lat_json(b, sync, "lat_ns", &empty_lat, NULL, false);

	/* fio's job_runtime and CPU shares cover the whole job, ramp included */
	add_u64(b, job, "job_runtime", (job_ns + 500000) / 1000000);
	add_double(b, job, "usr_cpu", job_s > 0 ? r->usr_cpu_s * 100.0 / job_s : 0.0);
	add_double(b, job, "sys_cpu", job_s > 0 ? r->sys_cpu_s * 100.0 / job_s : 0.0);
	add_u64(b, job, "ctx", r->ctx_switches);
	add_u64(b, job, "majf", 0);
	add_u64(b, job, "minf", 0);
	add_latency_ranges(b, job, r);
	add_u64(b, job, "latency_depth", spec && spec->iodepth ? spec->iodepth : 1);
	add_u64(b, job, "latency_target", 0);
	add_double(b, job, "latency_percentile", 100.0);
	add_u64(b, job, "latency_window", 0);
	if (spec && spec->description[0])
		add_string(b, job, "desc", spec->description);
	if (spec && spec->continue_on_error) {
		/* fio adds these two only for continue_on_error jobs */
		uint64_t total_err = 0;

		for (int d = 0; d < DIR_COUNT; d++)
			total_err += r->dir[d].errors;
		add_u64(b, job, "total_err", total_err);
		add_int(b, job, "first_error", positive_errno(r->error));
	}
	add_drivebench_extras(b, job, r);
}

int output_json(FILE *f, const struct job_result *res, unsigned nr,
		const struct run_info *info)
{
	static const struct run_info no_info;
	struct json_builder b = { false };
	char time_text[64] = "";
	time_t when;
	struct tm tm;
	cJSON *root, *jobs;
	char *text;
	int rc = 0;

	if (!f || (nr && !res))
		return err_set("output_json: no %s", f ? "results" : "output stream");
	if (!info)
		info = &no_info;

	when = (time_t)info->timestamp_s;
	if (localtime_r(&when, &tm))
		strftime(time_text, sizeof(time_text), "%a %b %e %H:%M:%S %Y", &tm);

	root = cJSON_CreateObject();
	if (!root)
		return err_set("output_json: out of memory");
	add_string(&b, root, "drivebench version", DRIVEBENCH_VERSION);
	add_u64(&b, root, "timestamp", info->timestamp_s);
	add_u64(&b, root, "timestamp_ms", info->timestamp_ms);
	add_string(&b, root, "time", time_text);
	if (info->partial)
		attach(&b, root, "partial", cJSON_CreateTrue());
	add_object(&b, root, "global options");
	jobs = add_array(&b, root, "jobs");
	for (unsigned i = 0; i < nr && jobs; i++)
		add_job_json(&b, jobs, res, nr, i, info->json_plus);
	add_array(&b, root, "disk_util");

	if (b.failed) {
		cJSON_Delete(root);
		return err_set("output_json: out of memory");
	}
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
