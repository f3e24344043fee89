/* fio_import.c - turns fio 3.x JSON (normal and json+) and drivebench's own
 * fio-style JSON into result records: job options (global merged under the
 * job's), the workload point, per-direction counters, latency summaries,
 * percentiles and json+ bins, plus disk_util. Reports malformed or truncated
 * JSON with the file's line and column. Knows nothing of the database. */
#include "store/fio_import.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/error.h"
#include "util/text.h"
#include "util/units.h"

static const char *const dir_key[DIR_COUNT] = { "read", "write" };

/* The current job while parsing, for error messages. */
struct parse_ctx {
	const char *file;
	unsigned job_index;
	const char *job_name;
};

static int field_error(const struct parse_ctx *c, const char *path,
		       const char *key, const char *what)
{
	return err_set("%s: jobs[%u] ('%s'): %s%s%s %s", c->file, c->job_index,
		       c->job_name, path, path[0] ? "." : "", key, what);
}

/* 1-based line and column (in bytes) of text[offset]. */
static void line_and_column(const char *text, size_t offset, unsigned *line,
			    unsigned *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Offset of the first line whose first non-blank character is '{', or len
 * when there is none. Counts the lines skipped before it. */
static size_t find_json_start(const char *text, size_t len, unsigned *skipped)
{
	size_t pos = 0;

	*skipped = 0;
	/* A UTF-8 byte order mark is not a skipped line. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		pos = 3;
	while (pos < len) {
		size_t p = pos;

		while (p < len && (text[p] == ' ' || text[p] == '\t'))
			p++;
		if (p < len && text[p] == '{')
			return p;
		while (pos < len && text[pos] != '\n')
			pos++;
		if (pos < len)
			pos++;
		(*skipped)++;
	}
	return len;
}

/* True when the JSON starting at text[start] is still open (inside an
 * object, array or string) where the text ends: it was cut short. */
static bool json_left_open(const char *text, size_t start, size_t len)
{
	unsigned depth = 0;
	bool in_string = false, escaped = false;

	for (size_t i = start; i < len; i++) {
		char ch = text[i];

		if (in_string) {
			if (escaped)
				escaped = false;
			else if (ch == '\\')
				escaped = true;
			else if (ch == '"')
				in_string = false;
			continue;
		}
		if (ch == '"') {
			in_string = true;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (depth == 0)
				return false;
			depth--;
			if (depth == 0)
				return false;   /* closed: whatever is wrong, it is not the end */
		}
	}
	return depth > 0 || in_string;
}

/* ---- typed field access: a missing field reads as 0, a field of the wrong
 * type is an error naming it. */

/* obj[key] as a number; 0 (no error) when missing. */
static int get_number(const struct parse_ctx *c, const cJSON *obj,
		      const char *path, const char *key, double *value)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*value = 0.0;
	if (!item)
		return 0;
	if (!cJSON_IsNumber(item))
		return field_error(c, path, key, "is not a number");
	*value = item->valuedouble;
	return 0;
}

static int get_double(const struct parse_ctx *c, const cJSON *obj,
		      const char *path, const char *key, double *value)
{
	if (get_number(c, obj, path, key, value) < 0)
		return -1;
	/* every figure read this way (rates, bytes, latencies, times) is
	 * finite and not negative: 1e99999 parses as infinity, which a report
	 * printed as "inf" and an export as null */
	if (!isfinite(*value) || *value < 0)
		return field_error(c, path, key, "is not a finite number of 0 or more");
	return 0;
}

/* A whole number (fio writes counts, bytes and nanoseconds so): 1.5 bytes
 * is not rounded, it is refused. */
static int double_to_u64(double d, uint64_t *value)
{
	if (!(d >= 0.0) || d >= 18446744073709551616.0 || d != floor(d))
		return -1;
	*value = (uint64_t)d;
	return 0;
}

static int get_u64(const struct parse_ctx *c, const cJSON *obj,
		   const char *path, const char *key, uint64_t *value)
{
	double d;

	if (get_number(c, obj, path, key, &d) < 0)
		return -1;
	if (double_to_u64(d, value) < 0)
		return field_error(c, path, key, "is not a non-negative integer");
	return 0;
}

/* obj[key] as an object; NULL (no error) when missing. A null is an
 * error: fio never writes one, and "read": null would import a job as if
 * it had not read. */
static int get_object(const struct parse_ctx *c, const cJSON *obj,
		      const char *path, const char *key, const cJSON **out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!item)
		return 0;
	if (cJSON_IsNull(item))
		return field_error(c, path, key, "is null, not an object");
	if (!cJSON_IsObject(item))
		return field_error(c, path, key, "is not an object");
	*out = item;
	return 0;
}

/* ---- job options and the workload point */

static const char *option_text(const cJSON *options, const char *name,
			       const char *alias)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(options, name);

	if (!item && alias)
		item = cJSON_GetObjectItemCaseSensitive(options, alias);
	return cJSON_IsString(item) ? item->valuestring : NULL;
}

static bool rw_is_write_only(const char *rw)
{
	return !strncmp(rw, "write", 5) || !strncmp(rw, "randwrite", 9);
}

/* bs=R[,W[,T]]: the read size, or for a write-only job the write size. */
static int workload_bs(const struct parse_ctx *c, const char *text,
		       const char *rw, unsigned kb_base, uint64_t *bs)
{
	char part[64];
	const char *start = text, *comma = strchr(text, ',');
	size_t n;

	if (comma && rw_is_write_only(rw)) {
		start = comma + 1;
		comma = strchr(start, ',');
	}
	n = comma ? (size_t)(comma - start) : strlen(start);
	if (n >= sizeof(part))
		return err_set("%s: jobs[%u] ('%s'): bs '%s' is not a size", c->file,
			       c->job_index, c->job_name, text);
	memcpy(part, start, n);
	part[n] = '\0';
	if (!part[0]) {
		*bs = 4096;   /* "bs=,8k": this direction keeps fio's default */
		return 0;
	}
	if (units_parse_size(part, kb_base, bs) < 0 || *bs == 0)
		return err_set("%s: jobs[%u] ('%s'): bs '%s' is not a size", c->file,
			       c->job_index, c->job_name, text);
	return 0;
}

static int workload_count(const struct parse_ctx *c, const char *name,
			  const char *text, unsigned kb_base, unsigned *value)
{
	uint64_t v;

	if (units_parse_size(text, kb_base, &v) < 0 || v == 0 || v > 1000000000u)
		return err_set("%s: jobs[%u] ('%s'): %s '%s' is not a positive count",
			       c->file, c->job_index, c->job_name, name, text);
	*value = (unsigned)v;
	return 0;
}

/* fio's names for the same option, of those read here */
static const char *const option_aliases[][2] = {
	{ "rw", "readwrite" },
	{ "bs", "blocksize" },
};

/* Merges global options under the job's own, keeps the merge as JSON text
 * and reads rw, bs, iodepth and numjobs from it (fio's defaults otherwise). */
static int parse_options(const struct parse_ctx *c, const cJSON *global,
			 const cJSON *job_options, struct result_record *rec)
{
	cJSON *merged = global ? cJSON_Duplicate(global, true) : cJSON_CreateObject();
	const cJSON *opt;
	const char *text;
	unsigned kb_base;
	int rc = -1;

	if (!merged)
		return err_set("%s: out of memory", c->file);
	cJSON_ArrayForEach(opt, job_options) {
		cJSON *copy = cJSON_Duplicate(opt, true);

		if (!copy)
			goto out_nomem;
		cJSON_DeleteItemFromObjectCaseSensitive(merged, opt->string);
		/* a job's alias replaces the global under the other name too */
		for (unsigned i = 0; i < sizeof(option_aliases) / sizeof(option_aliases[0]); i++) {
			if (!strcmp(opt->string, option_aliases[i][0]))
				cJSON_DeleteItemFromObjectCaseSensitive(merged, option_aliases[i][1]);
			else if (!strcmp(opt->string, option_aliases[i][1]))
				cJSON_DeleteItemFromObjectCaseSensitive(merged, option_aliases[i][0]);
		}
		if (!cJSON_AddItemToObject(merged, opt->string, copy)) {
			cJSON_Delete(copy);
			goto out_nomem;
		}
	}
	rec->options_json = cJSON_PrintUnformatted(merged);
	if (!rec->options_json)
		goto out_nomem;

	/* sizes as fio read them: its kb_base rule, 1024 unless the job said 1000 */
	text = option_text(merged, "kb_base", NULL);
	kb_base = text && !strcmp(text, "1000") ? 1000 : 1024;
	text = option_text(merged, "rw", "readwrite");
	snprintf(rec->rw, sizeof(rec->rw), "%s", text ? text : "read");
	if (option_text(merged, "bssplit", NULL)) {
		rec->bs = 0;
	} else {
		text = option_text(merged, "bs", "blocksize");
		if (!text)
			rec->bs = 4096;
		else if (workload_bs(c, text, rec->rw, kb_base, &rec->bs) < 0)
			goto out;
	}
	rec->iodepth = 1;
	text = option_text(merged, "iodepth", NULL);
	if (text && workload_count(c, "iodepth", text, kb_base, &rec->iodepth) < 0)
		goto out;
	rec->numjobs = 1;
	text = option_text(merged, "numjobs", NULL);
	if (text && workload_count(c, "numjobs", text, kb_base, &rec->numjobs) < 0)
		goto out;
	rc = 0;
	goto out;
out_nomem:
	err_set("%s: out of memory", c->file);
out:
	cJSON_Delete(merged);
	return rc;
}

/* ---- one direction */

static int parse_lat_summary(const struct parse_ctx *c, const cJSON *dir,
			     const char *path, const char *key,
			     struct lat_summary *s, const cJSON **lat_obj)
{
	char sub[64];

	if (get_object(c, dir, path, key, lat_obj) < 0)
		return -1;
	if (!*lat_obj)
		return 0;
	snprintf(sub, sizeof(sub), "%s.%s", path, key);
	if (get_u64(c, *lat_obj, sub, "N", &s->n) < 0 ||
	    get_u64(c, *lat_obj, sub, "min", &s->min) < 0 ||
	    get_u64(c, *lat_obj, sub, "max", &s->max) < 0 ||
	    get_double(c, *lat_obj, sub, "mean", &s->mean) < 0 ||
	    get_double(c, *lat_obj, sub, "stddev", &s->stddev) < 0)
		return -1;
	if (s->n && s->min > s->max)
		return field_error(c, sub, "min", "is above max");
	return 0;
}

/* "percentile": {"99.990000": 851, ...} */
static int parse_percentiles(const struct parse_ctx *c, const cJSON *lat,
			     const char *path, struct pct_value *pcts,
			     unsigned *nr)
{
	const cJSON *obj, *item;

	*nr = 0;
	if (!lat || get_object(c, lat, path, "percentile", &obj) < 0)
		return lat ? -1 : 0;
	cJSON_ArrayForEach(item, obj) {
		char *end;
		double pct;

		errno = 0;
		pct = strtod(item->string, &end);
		if (errno || end == item->string || *end || !(pct >= 0.0 && pct <= 100.0))
			return field_error(c, path, "percentile", "has a key that is not a percentage");
		if (*nr == RECORD_PCT_MAX)
			return field_error(c, path, "percentile", "has more than 64 entries");
		if (!cJSON_IsNumber(item) || double_to_u64(item->valuedouble,
							   &pcts[*nr].value_ns) < 0)
			return field_error(c, path, "percentile", "has a value that is not a latency");
		pcts[*nr].pct = pct;
		(*nr)++;
	}
	return 0;
}

/* json+ "bins": {"<ns>": count, ...}; zero counts are dropped. */
static int parse_bins(const struct parse_ctx *c, const cJSON *lat,
		      const char *path, struct dir_record *d)
{
	const cJSON *obj, *item;
	int size;

	if (!lat || get_object(c, lat, path, "bins", &obj) < 0)
		return lat ? -1 : 0;
	if (!obj || (size = cJSON_GetArraySize(obj)) == 0)
		return 0;
	d->bins = calloc((size_t)size, sizeof(*d->bins));
	if (!d->bins)
		return err_set("%s: out of memory", c->file);
	cJSON_ArrayForEach(item, obj) {
		char *end;
		unsigned long long value;
		uint64_t count;

		errno = 0;
		value = strtoull(item->string, &end, 10);
		if (errno || end == item->string || *end || item->string[0] == '-')
			return field_error(c, path, "bins", "has a key that is not a latency in ns");
		if (!cJSON_IsNumber(item) || double_to_u64(item->valuedouble, &count) < 0)
			return field_error(c, path, "bins", "has a count that is not a non-negative integer");
		if (!count)
			continue;
		d->bins[d->nr_bins].value_ns = value;
		d->bins[d->nr_bins].count = count;
		d->nr_bins++;
	}
	return 0;
}

static int parse_direction(const struct parse_ctx *c, const cJSON *job,
			   int dir, struct dir_record *d)
{
	const char *path = dir_key[dir];
	const cJSON *obj, *slat, *clat, *lat;
	char sub[32];

	if (get_object(c, job, "", path, &obj) < 0)
		return -1;
	if (!obj)
		return 0;
	if (get_u64(c, obj, path, "io_bytes", &d->bytes) < 0 ||
	    get_u64(c, obj, path, "total_ios", &d->ios) < 0 ||
	    get_u64(c, obj, path, "runtime", &d->runtime_ms) < 0 ||
	    get_double(c, obj, path, "iops", &d->iops) < 0 ||
	    get_double(c, obj, path, "bw_bytes", &d->bw_bytes) < 0)
		return -1;
	if (parse_lat_summary(c, obj, path, "slat_ns", &d->slat, &slat) < 0 ||
	    parse_lat_summary(c, obj, path, "clat_ns", &d->clat, &clat) < 0 ||
	    parse_lat_summary(c, obj, path, "lat_ns", &d->lat, &lat) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.clat_ns", path);
	if (parse_percentiles(c, clat, sub, d->clat_pct, &d->nr_clat_pct) < 0 ||
	    parse_bins(c, clat, sub, d) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.lat_ns", path);
	return parse_percentiles(c, lat, sub, d->lat_pct, &d->nr_lat_pct);
}

/* ---- drivebench's own additions (the per-job "drivebench" object) */

static int json_text(const struct parse_ctx *c, const cJSON *obj,
		     const char *key, char **out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!item || cJSON_IsNull(item))
		return 0;
	*out = cJSON_PrintUnformatted(item);
	if (!*out)
		return err_set("%s: out of memory", c->file);
	return 0;
}

static int parse_series(const struct parse_ctx *c, const cJSON *extra,
			struct result_record *rec)
{
	const cJSON *series = cJSON_GetObjectItemCaseSensitive(extra, "series");
	const cJSON *point;
	double interval_ms;
	int size;

	if (get_double(c, extra, "drivebench", "series_interval_ms", &interval_ms) < 0)
		return -1;
	rec->series_interval_ms = (uint64_t)llround(interval_ms);
	if (!series)
		return 0;
	if (!cJSON_IsArray(series))
		return field_error(c, "drivebench", "series", "is not an array");
	size = cJSON_GetArraySize(series);
	if (!size)
		return 0;
	rec->series = calloc((size_t)size, sizeof(*rec->series));
	if (!rec->series)
		return err_set("%s: out of memory", c->file);
	cJSON_ArrayForEach(point, series) {
		struct series_record *p = &rec->series[rec->nr_series];
		double t_ms;

		if (!cJSON_IsObject(point))
			return field_error(c, "drivebench", "series", "has an entry that is not an object");
		if (get_double(c, point, "drivebench.series[]", "t_ms", &t_ms) < 0)
			return -1;
		p->t_ms = t_ms > 0 ? (uint64_t)llround(t_ms) : 0;
		for (int d = 0; d < DIR_COUNT; d++) {
			const cJSON *dir;

			if (get_object(c, point, "drivebench.series[]", dir_key[d], &dir) < 0)
				return -1;
			if (dir && (get_u64(c, dir, "drivebench.series[]", "ios", &p->ios[d]) < 0 ||
				    get_u64(c, dir, "drivebench.series[]", "bytes", &p->bytes[d]) < 0 ||
				    get_double(c, dir, "drivebench.series[]", "lat_mean_ns",
					       &p->lat_mean_ns[d]) < 0))
				return -1;
		}
		rec->nr_series++;
	}
	return 0;
}

static int parse_drivebench_extras(const struct parse_ctx *c, const cJSON *job,
				   struct result_record *rec)
{
	const cJSON *extra, *errors, *partial;

	if (get_object(c, job, "", "drivebench", &extra) < 0)
		return -1;
	if (!extra)
		return 0;
	partial = cJSON_GetObjectItemCaseSensitive(extra, "partial");
	if (cJSON_IsTrue(partial))
		rec->partial = true;
	if (cJSON_GetObjectItemCaseSensitive(extra, "runtime_ns") &&
	    get_u64(c, extra, "drivebench", "runtime_ns", &rec->runtime_ns) < 0)
		return -1;
	if (get_object(c, extra, "drivebench", "errors", &errors) < 0)
		return -1;
	for (int d = 0; errors && d < DIR_COUNT; d++)
		if (get_u64(c, errors, "drivebench.errors", dir_key[d],
			    &rec->dir[d].errors) < 0)
			return -1;
	if (parse_series(c, extra, rec) < 0 ||
	    json_text(c, extra, "drive_before", &rec->drive_before) < 0 ||
	    json_text(c, extra, "drive_after", &rec->drive_after) < 0 ||
	    json_text(c, extra, "drive_delta", &rec->drive_delta) < 0)
		return -1;
	return 0;
}

/* ---- one job entry */

static int parse_job(struct parse_ctx *c, const cJSON *job, const cJSON *global,
		     struct result_record *rec)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(job, "jobname");
	const cJSON *options;
	uint64_t value;

	if (!cJSON_IsObject(job))
		return err_set("%s: jobs[%u] is not an object", c->file, c->job_index);
	if (!cJSON_IsString(name))
		return err_set("%s: jobs[%u] has no \"jobname\"", c->file, c->job_index);
	c->job_name = name->valuestring;
	snprintf(rec->job_name, sizeof(rec->job_name), "%s", name->valuestring);
	if (get_u64(c, job, "", "groupid", &value) < 0)
		return -1;
	if (value > UINT32_MAX)
		return field_error(c, "", "groupid", "is out of range");
	rec->groupid = (unsigned)value;
	if (get_u64(c, job, "", "error", &value) < 0)
		return -1;
	if (value > INT32_MAX)
		return field_error(c, "", "error", "is out of range");
	rec->error = (int)value;
	if (get_object(c, job, "", "job options", &options) < 0 ||
	    parse_options(c, global, options, rec) < 0)
		return -1;
	for (int d = 0; d < DIR_COUNT; d++)
		if (parse_direction(c, job, d, &rec->dir[d]) < 0)
			return -1;
	/* fio's job_runtime is in ms; drivebench's extras carry ns */
	if (get_u64(c, job, "", "job_runtime", &value) < 0)
		return -1;
	rec->runtime_ns = value * 1000000u;
	return parse_drivebench_extras(c, job, rec);
}

void fio_import_free(struct fio_import *imp)
{
	if (!imp)
		return;
	for (unsigned i = 0; i < imp->nr_records; i++)
		record_free(&imp->records[i]);
	free(imp->records);
	free(imp->disk_util_json);
	memset(imp, 0, sizeof(*imp));
}

/* The file as export --format fio writes it back: each record keeps the
 * top level without "jobs" and its own job object (numbers as cJSON reads
 * them: doubles). */
static int keep_documents(const char *file, const cJSON *root, struct fio_import *out)
{
	cJSON *head = cJSON_Duplicate(root, true);
	const cJSON *job;
	char *head_text;
	unsigned i = 0;
	int rc = 0;

	if (head)
		cJSON_DeleteItemFromObjectCaseSensitive(head, "jobs");
	head_text = head ? cJSON_PrintUnformatted(head) : NULL;
	cJSON_Delete(head);
	if (!head_text)
		return err_set("%s: out of memory", file);
	cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(root, "jobs")) {
		struct result_record *rec = &out->records[i++];

		rec->fio_head = strdup(head_text);
		rec->fio_job = cJSON_PrintUnformatted(job);
		if (!rec->fio_head || !rec->fio_job) {
			rc = err_set("%s: out of memory", file);
			break;
		}
	}
	free(head_text);
	return rc;
}

static int parse_root(const char *file, const cJSON *root, struct fio_import *out)
{
	const cJSON *version, *jobs, *global, *job, *item;
	struct parse_ctx c = { .file = file };
	double ms;
	int size;

	if (!cJSON_IsObject(root))
		return err_set("%s: not fio JSON output (the JSON is not an object)", file);
	jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
	if (!cJSON_IsArray(jobs))
		return err_set("%s: not fio JSON output (no \"jobs\" array)", file);
	/* drivebench writes both keys ("fio version" for fio's readers) */
	out->from_drivebench = cJSON_GetObjectItemCaseSensitive(root, "drivebench version") != NULL;
	version = cJSON_GetObjectItemCaseSensitive(root, "fio version");
	if (!version)
		version = cJSON_GetObjectItemCaseSensitive(root, "drivebench version");
	if (cJSON_IsString(version))
		snprintf(out->tool_version, sizeof(out->tool_version), "%s",
			 version->valuestring);
	item = cJSON_GetObjectItemCaseSensitive(root, "timestamp_ms");
	if (!item) {
		item = cJSON_GetObjectItemCaseSensitive(root, "timestamp");
		ms = cJSON_IsNumber(item) ? item->valuedouble * 1000.0 : 0.0;
	} else {
		ms = cJSON_IsNumber(item) ? item->valuedouble : 0.0;
	}
	if (ms > 0)
		out->timestamp_ms = (uint64_t)llround(ms);
	global = cJSON_GetObjectItemCaseSensitive(root, "global options");
	if (global && !cJSON_IsObject(global))
		return err_set("%s: \"global options\" is not an object", file);
	item = cJSON_GetObjectItemCaseSensitive(root, "disk_util");
	if (item && !cJSON_IsNull(item)) {
		out->disk_util_json = cJSON_PrintUnformatted(item);
		if (!out->disk_util_json)
			return err_set("%s: out of memory", file);
	}
	size = cJSON_GetArraySize(jobs);
	if (size == 0)
		return err_set("%s: fio JSON output without jobs", file);
	out->records = calloc((size_t)size, sizeof(*out->records));
	if (!out->records)
		return err_set("%s: out of memory", file);
	cJSON_ArrayForEach(job, jobs) {
		c.job_index = out->nr_records;
		c.job_name = "";
		/* counted before parsing, so a failed record is freed too */
		out->nr_records++;
		if (parse_job(&c, job, global, &out->records[c.job_index]) < 0)
			return -1;
	}
	if (out->from_drivebench && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "partial")))
		for (unsigned i = 0; i < out->nr_records; i++)
			out->records[i].partial = true;
	return keep_documents(file, root, out);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A key given twice in one object: cJSON keeps both and a lookup finds
 * the first, where Python and jq keep the last, so one file would be two
 * results. Refused, naming the key by its path ("jobs[0].read.iops"). */
static int check_duplicate_keys(const char *file_name, const cJSON *node, char *path,
				size_t used, size_t cap)
{
	const char **names = NULL;
	unsigned n = 0, i = 0;
	int rc = 0;

	for (const cJSON *c = node->child; c; c = c->next)
		n++;
	if (cJSON_IsObject(node) && n > 1) {
		names = malloc(n * sizeof(*names));
		if (!names)
			return err_set("%s: out of memory", file_name);
		for (const cJSON *c = node->child; c; c = c->next)
			names[i++] = c->string ? c->string : "";
		qsort(names, n, sizeof(*names), compare_names);
		for (i = 1; i < n; i++)
			if (!strcmp(names[i - 1], names[i])) {
				rc = err_set("%s: the key \"%s\" is given twice in %s%s; a "
					     "duplicate key is ambiguous (readers keep the "
					     "first or the last), not fio JSON", file_name,
					     names[i], used ? "" : "the top-level object",
					     used ? path : "");
				break;
			}
		free(names);
		if (rc)
			return rc;
	}
	i = 0;
	for (const cJSON *c = node->child; c && !rc; c = c->next, i++) {
		int w;

		if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
			continue;
		if (cJSON_IsObject(node))
			w = snprintf(path + used, cap - used, "%s%s", used ? "." : "",
				     c->string ? c->string : "");
		else
			w = snprintf(path + used, cap - used, "[%u]", i);
		rc = check_duplicate_keys(file_name, c, path,
					  w > 0 && used + (size_t)w < cap ? used + (size_t)w : used,
					  cap);
		path[used] = '\0';
	}
	return rc;
}

int fio_import_parse(const char *text, size_t len, const char *file_name,
		     struct fio_import *out)
{
	char key_path[512] = "";
	const char *parse_end = NULL, *error_at;
	unsigned line, column;
	size_t start, offset;
	cJSON *root;
	int rc;

	memset(out, 0, sizeof(*out));
	error_at = memchr(text, '\0', len);
	if (error_at) {
		line_and_column(text, (size_t)(error_at - text), &line, &column);
		return err_set("%s: a NUL byte at line %u, column %u: binary data, not fio JSON",
			       file_name, line, column);
	}
	start = find_json_start(text, len, &out->skipped_lines);
	if (start == len) {
		size_t i = 0;

		while (i < len && is_blank(text[i]))
			i++;
		if (i == len)
			return err_set("%s: empty file, no fio JSON", file_name);
		return err_set("%s: not fio JSON output (no line starts with '{')",
			       file_name);
	}
	root = cJSON_ParseWithLengthOpts(text + start, len - start, &parse_end, false);
	if (!root) {
		error_at = cJSON_GetErrorPtr();
		offset = error_at && error_at >= text && error_at <= text + len ?
			 (size_t)(error_at - text) : start;
		size_t last = len;

		while (last > start && is_blank(text[last - 1]))
			last--;
		/* Truncated: still open at the end, and the parser stopped on the
		 * last line (an earlier error is malformed, whatever follows). */
		if (json_left_open(text, start, len) &&
		    !memchr(text + offset, '\n', last > offset ? last - offset : 0)) {
			/* name where the text stops: its last non-blank character */
			line_and_column(text, last ? last - 1 : 0, &line, &column);
			return err_set("%s: truncated JSON: the text ends at line %u, "
				       "column %u before the JSON is complete",
				       file_name, line, column);
		}
		line_and_column(text, offset, &line, &column);
		return err_set("%s: malformed JSON at line %u, column %u", file_name,
			       line, column);
	}
	offset = parse_end ? (size_t)(parse_end - text) : len;
	while (offset < len && is_blank(text[offset]))
		offset++;
	if (offset < len) {
		cJSON_Delete(root);
		line_and_column(text, offset, &line, &column);
		return err_set("%s: unexpected text after the JSON at line %u, column %u",
			       file_name, line, column);
	}
	rc = check_duplicate_keys(file_name, root, key_path, 0, sizeof(key_path));
	if (rc == 0)
		rc = parse_root(file_name, root, out);
	cJSON_Delete(root);
	if (rc < 0)
		fio_import_free(out);
	return rc;
}

#define FIO_JSON_MAX_BYTES ((size_t)256 << 20)

int fio_import_file(const char *path, struct fio_import *out)
{
	size_t len = 0, cap = 65536;
	char *text = malloc(cap), *grown;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (!text)
		return err_set("%s: out of memory", path);
	fd = text_open_input(path, NULL);
	if (fd < 0) {
		free(text);
		return -1;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			/* the parsed tree takes 10-20x the text: fio's JSON+ of a
			 * thousand jobs is about 100 MB */
			if (cap >= FIO_JSON_MAX_BYTES) {
				rc = err_set("%s: 256 MiB or more, larger than fio JSON this "
					     "import reads", path);
				goto out;
			}
			grown = realloc(text, cap * 2);
			if (!grown) {
				rc = err_set("%s: out of memory", path);
				goto out;
			}
			text = grown;
			cap *= 2;
		}
		n = read(fd, text + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = err_set("%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		/* binary data (/dev/zero): no need to read on to say so */
		if (memchr(text + len - (size_t)n, '\0', (size_t)n))
			break;
	}
	rc = fio_import_parse(text, len, path, out);
out:
	close(fd);
	free(text);
	return rc;
}
