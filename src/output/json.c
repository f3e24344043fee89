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
#include "output/json_fio.h"
#include "output/json_shared.h"
#include "target/disk_util.h"
#include "measure/check_results.h"
#include "output/checks_out.h"
#include "util/error.h"
#include "verify/verify.h"
#include "job/check_options.h"
#include "job/checks.h"

/* fio's default percentile_list */
static const double default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/* fio's latency_ns / latency_us / latency_ms range labels (upper bounds) */
static const unsigned lat_range_limit[LAT_RANGES] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
};
static const char *const lat_range_name[LAT_RANGES_MS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

static const char *const dir_name[DIR_ALL] = { "read", "write", "trim" };

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

/* fio writes these as floats ("iops" : 256000.000000): always with a
 * fraction or an exponent, so readers that type JSON numbers see a float
 * where fio's has one (cJSON would print 256000). */
static void add_double(struct json_builder *b, cJSON *parent, const char *name,
		       double value)
{
	char text[64];

	json_fio_float(isfinite(value) ? value : 0.0, text, sizeof(text));
	attach(b, parent, name, cJSON_CreateRaw(text));
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

/* The group's aggregate bandwidth in bytes/s for one direction: all bytes
 * of the entries sharing groupid over the longest runtime (fio's rs->agg). */
double group_agg_bytes(const struct job_result *res, unsigned nr,
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

/* The reporting switches of r's job (fio's defaults without one). */
static const struct job_checks *report_switches(const struct job_result *r)
{
	static struct job_checks defaults;
	static bool ready;

	if (r->spec)
		return &r->spec->checks;
	if (!ready) {
		job_checks_defaults(&defaults);
		ready = true;
	}
	return &defaults;
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
	static const struct rate_stat no_samples;   /* samples == 0 */
	const struct job_checks *c = report_switches(r);
	cJSON *obj = add_object(b, job, name);
	struct rate_stat mixed_bw = no_samples, mixed_io = no_samples;
	const struct rate_stat *bw = &no_samples, *io = &no_samples;
	double bw_bytes = 0, iops = 0, agg_pct = 0;
	bool no_data;

	if (ds && d == DIR_ALL) {   /* unified_rw_reporting: both directions */
		bw_bytes = r->runtime_ns ? (double)ds->bytes / ((double)r->runtime_ns / 1e9) : 0;
		iops = r->runtime_ns ? (double)ds->ios / ((double)r->runtime_ns / 1e9) : 0;
		/* fio's sum_thread_stats into the mixed direction: the two
		 * directions' samples as a pure sum (sum_stat, pure_sum) */
		for (int k = 0; k < DIR_ALL; k++) {
			rate_stat_sum(&mixed_bw, &r->bw_stat[k]);
			rate_stat_sum(&mixed_io, &r->iops_stat[k]);
		}
		bw = &mixed_bw;
		io = &mixed_io;
	} else if (ds) {
		bw = &r->bw_stat[d];
		io = &r->iops_stat[d];
		bw_bytes = result_bw_bytes(r, d);
		iops = result_iops(r, d);
	}
	/* an engine that moves no data (cpuio, exec): fio's direction has no
	 * runtime, so no iops or bandwidth samples; its iops samples stay */
	no_data = ds && r->spec && engine_has(engine_base(r->spec->ioengine), ENGINE_NO_IO);
	if (no_data) {
		iops = 0;
		bw = &no_samples;
	}
	add_u64(b, obj, "io_bytes", ds ? ds->bytes : 0);
	add_u64(b, obj, "io_kbytes", ds ? ds->bytes >> 10 : 0);
	add_u64(b, obj, "bw_bytes", (uint64_t)bw_bytes);
	add_u64(b, obj, "bw", (uint64_t)bw_bytes / 1024);  /* KiB/s, as fio */
	add_double(b, obj, "iops", iops);
	/* ms, rounded up from us as fio's update_runtime does */
	add_u64(b, obj, "runtime", ds && ds->ios && !no_data ?
		(r->runtime_ns / 1000 + 999) / 1000 : 0);
	add_u64(b, obj, "total_ios", ds ? ds->ios : 0);
	add_u64(b, obj, "short_ios", 0);
	add_u64(b, obj, "drop_ios", 0);
	/* fio: percentiles (and json+ bins) where the job's switch asks */
	add_lat_json(b, obj, "slat_ns", ds ? &ds->slat : &empty_lat,
		     c->slat_percentiles ? pcts : NULL, json_plus);
	add_lat_json(b, obj, "clat_ns", ds ? &ds->clat : &empty_lat,
		     c->clat_percentiles ? pcts : NULL, json_plus);
	add_lat_json(b, obj, "lat_ns", ds ? &ds->lat : &empty_lat,
		     c->lat_percentiles ? pcts : NULL, json_plus);
	if (ds && d < DIR_COUNT)
		add_prios_json(b, obj, r, d, pcts);

	if (bw->samples) {
		/* fio's convert_agg_kbytes_percent */
		agg_pct = 100.0;
		if (group_agg > 1024.0) {
			agg_pct = bw->mean * 100.0 / (group_agg / 1024.0);
			if (agg_pct > 100.0)
				agg_pct = 100.0;
		}
	}
	/* fio's bw_stat / iops_stat (measure/rate.h): all zero without samples */
	add_u64(b, obj, "bw_min", bw->samples ? bw->min : 0);
	add_u64(b, obj, "bw_max", bw->samples ? bw->max : 0);
	add_double(b, obj, "bw_agg", agg_pct);
	add_double(b, obj, "bw_mean", bw->mean);
	add_double(b, obj, "bw_dev", rate_stat_dev(bw));
	add_u64(b, obj, "bw_samples", bw->samples);
	add_u64(b, obj, "iops_min", io->samples ? io->min : 0);
	add_u64(b, obj, "iops_max", io->samples ? io->max : 0);
	add_double(b, obj, "iops_mean", io->mean);
	add_double(b, obj, "iops_stddev", rate_stat_dev(io));
	add_u64(b, obj, "iops_samples", io->samples);
}

/* Index into fio's 10 ns/us ranges, or 10 past the end. */
static unsigned lat_range_index(uint64_t value)
{
	unsigned i = 0;

	while (i < LAT_RANGES && value >= lat_range_limit[i])
		i++;
	return i;
}

void latency_ranges_count(const struct job_result *r, struct latency_ranges *out)
{
	uint64_t *ns = out->ns, *us = out->us, *ms = out->ms;

	memset(out, 0, sizeof(*out));
	for (int d = 0; d < DIR_ALL; d++) {
		const struct hist *h = &r->dir[d].clat.hist;

		for (unsigned i = 0; i < HIST_BUCKETS; i++) {
			uint64_t value = hist_bucket_value(i), count = h->bucket[i];

			if (!count)
				continue;
			out->total += count;
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
}

/* latency_ns / latency_us / latency_ms: percent of I/Os by completion
 * latency, as fio's io_u_mark_latency counts clat, from the clat
 * histograms (each bucket counted at its midpoint). */
static void add_latency_ranges(struct json_builder *b, cJSON *job,
			       const struct job_result *r)
{
	struct latency_ranges lr;
	const uint64_t *ns = lr.ns, *us = lr.us, *ms = lr.ms;
	uint64_t total;

	latency_ranges_count(r, &lr);
	total = lr.total;

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

/* unified_rw_reporting: "mixed", both directions as one (fio's
 * sum_thread_stats with UNIFIED_MIXED), after "sync" with "both"; with
 * "mixed" it takes the place of "read", and "write", "trim" and "sync"
 * are left out, as fio leaves them. */
static void add_unified_json(struct json_builder *b, cJSON *job,
			     const struct job_result *res, unsigned nr,
			     const struct job_result *r, const struct percentile_list *pcts,
			     bool json_plus)
{
	enum unified_rw u = report_switches(r)->unified_rw;
	struct dir_stats *mixed;
	double agg = group_agg_bytes(res, nr, r->groupid, DIR_READ);
	cJSON *holder, *item;

	if (u == UNIFIED_NONE)
		return;
	mixed = malloc(sizeof(*mixed));
	holder = cJSON_CreateObject();
	if (!mixed || !holder) {
		free(mixed);
		cJSON_Delete(holder);
		b->failed = true;
		return;
	}
	*mixed = r->dir[DIR_READ];   /* fio's mixed direction takes trims too */
	for (int d = DIR_WRITE; d < DIR_ALL; d++) {
		mixed->ios += r->dir[d].ios;
		mixed->bytes += r->dir[d].bytes;
		lat_merge(&mixed->slat, &r->dir[d].slat);
		lat_merge(&mixed->clat, &r->dir[d].clat);
		lat_merge(&mixed->lat, &r->dir[d].lat);
	}
	/* fio's group aggregate: all bytes with "mixed", the reads' with "both" */
	if (u == UNIFIED_MIXED)
		agg += group_agg_bytes(res, nr, r->groupid, DIR_WRITE);
	add_dir_json(b, holder, "mixed", r, mixed, (enum io_dir)DIR_ALL, agg, pcts, json_plus);
	free(mixed);
	item = cJSON_DetachItemFromObjectCaseSensitive(holder, "mixed");
	cJSON_Delete(holder);
	if (!item) {
		b->failed = true;
		return;
	}
	if (u == UNIFIED_BOTH) {
		attach(b, job, "mixed", item);
		return;
	}
	if (!cJSON_ReplaceItemInObjectCaseSensitive(job, "read", item)) {
		cJSON_Delete(item);
		b->failed = true;
		return;
	}
	cJSON_free(item->string);    /* the replacement took the name "read" */
	item->string = malloc(sizeof("mixed"));
	if (!item->string) {
		b->failed = true;
		return;
	}
	memcpy(item->string, "mixed", sizeof("mixed"));
	cJSON_DeleteItemFromObjectCaseSensitive(job, "write");
	cJSON_DeleteItemFromObjectCaseSensitive(job, "trim");
	cJSON_DeleteItemFromObjectCaseSensitive(job, "sync");
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
	/* fio's total_run_time: each clone's time from the end of its ramp
	 * to its end, summed over a group, and what CPU shares divide by */
	double run_s = (double)r->total_run_ns / 1e9;

	percentile_list_of(spec, &pcts);
	add_string(b, job, "jobname", r->name);
	add_u64(b, job, "groupid", r->groupid);
	add_u64(b, job, "job_start", r->start_unix_ms);
	add_int(b, job, "error", positive_errno(r->error));
	add_u64(b, job, "eta", 0);
	add_u64(b, job, "elapsed", (job_ns + 500000000) / 1000000000);
	if (spec)
		add_job_options(b, job, spec);
	for (int d = 0; d < DIR_ALL; d++)
		add_dir_json(b, job, dir_name[d], r, &r->dir[d], (enum io_dir)d,
			     group_agg_bytes(res, nr, r->groupid, (enum io_dir)d),
			     &pcts, json_plus);

	cJSON *sync = add_object(b, job, "sync");

	add_u64(b, sync, "total_ios", r->sync_ios);
	add_lat_json(b, sync, "lat_ns", &r->sync_lat, &pcts, json_plus);
	add_unified_json(b, job, res, nr, r, &pcts, json_plus);

	add_u64(b, job, "job_runtime", r->total_run_ns / 1000000);
	add_double(b, job, "usr_cpu", run_s > 0 ? r->usr_cpu_s * 100.0 / run_s : 0.0);
	add_double(b, job, "sys_cpu", run_s > 0 ? r->sys_cpu_s * 100.0 / run_s : 0.0);
	add_u64(b, job, "ctx", r->ctx_switches);
	add_u64(b, job, "majf", 0);
	add_u64(b, job, "minf", 0);
	attach(b, job, "iodepth_level", json_fio_depths(&r->depths, JSON_DEPTH_LEVEL));
	attach(b, job, "iodepth_submit", json_fio_depths(&r->depths, JSON_DEPTH_SUBMIT));
	attach(b, job, "iodepth_complete", json_fio_depths(&r->depths, JSON_DEPTH_COMPLETE));
	add_latency_ranges(b, job, r);
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
	for (unsigned i = 0; i < nr && jobs; i++)
		add_job_json(&b, jobs, res, nr, i, info->json_plus);
	/* as fio: only when a block device was under the targets */
	if (info->disk_util && info->disk_util->nr)
		attach(&b, root, "disk_util", json_fio_disk_util(info->disk_util));

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
