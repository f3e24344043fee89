/* json_dir.c - fio's per-direction objects of a job in its JSON: each
 * direction's bytes, rates and latencies (slat, clat, lat, the cmdprio
 * "prios"), unified_rw_reporting's "mixed", and the job's latency ranges
 * (the schema of fio's stat.c add_ddir_status_json). See json.c. */
#include "output/json_dir.h"

#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "job/checks.h"
#include "output/json_shared.h"


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

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void json_percentile_list(const struct job_spec *spec, struct percentile_list *list)
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

void json_add_lat(struct json_builder *b, cJSON *parent, const char *name,
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

enum unified_rw result_unified_rw(const struct job_result *r)
{
	return report_switches(r)->unified_rw;
}

void result_mixed_direction(const struct job_result *r, struct dir_stats *out)
{
	*out = r->dir[DIR_READ];   /* fio's mixed direction takes trims too */
	for (int d = DIR_WRITE; d < DIR_ALL; d++) {
		out->ios += r->dir[d].ios;
		out->bytes += r->dir[d].bytes;
		lat_merge(&out->slat, &r->dir[d].slat);
		lat_merge(&out->clat, &r->dir[d].clat);
		lat_merge(&out->lat, &r->dir[d].lat);
	}
}

void result_mixed_rates(const struct job_result *r, struct rate_stat *bw,
			struct rate_stat *iops)
{
	static const struct rate_stat no_samples;   /* samples == 0 */

	*bw = *iops = no_samples;
	for (int k = 0; k < DIR_ALL; k++) {
		rate_stat_sum(bw, &r->bw_stat[k]);
		rate_stat_sum(iops, &r->iops_stat[k]);
	}
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
		json_add_lat(b, entry, "clat_ns", &p->clat, pcts, false);
	}
}

void json_add_dir(struct json_builder *b, cJSON *job, const char *name,
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
		result_mixed_rates(r, &mixed_bw, &mixed_io);
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
	json_add_lat(b, obj, "slat_ns", ds ? &ds->slat : &empty_lat,
		     c->slat_percentiles ? pcts : NULL, json_plus);
	json_add_lat(b, obj, "clat_ns", ds ? &ds->clat : &empty_lat,
		     c->clat_percentiles ? pcts : NULL, json_plus);
	json_add_lat(b, obj, "lat_ns", ds ? &ds->lat : &empty_lat,
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
void json_add_latency_ranges(struct json_builder *b, cJSON *job,
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

/* unified_rw_reporting: "mixed", both directions as one (fio's
 * sum_thread_stats with UNIFIED_MIXED), after "sync" with "both"; with
 * "mixed" it takes the place of "read", and "write", "trim" and "sync"
 * are left out, as fio leaves them. */
void json_add_unified(struct json_builder *b, cJSON *job,
		      const struct job_result *res, unsigned nr,
		      const struct job_result *r, const struct percentile_list *pcts,
		      bool json_plus)
{
	enum unified_rw u = result_unified_rw(r);
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
	result_mixed_direction(r, mixed);
	/* fio's group aggregate: all bytes with "mixed", the reads' with "both" */
	if (u == UNIFIED_MIXED)
		agg += group_agg_bytes(res, nr, r->groupid, DIR_WRITE);
	json_add_dir(b, holder, "mixed", r, mixed, (enum io_dir)DIR_ALL, agg, pcts, json_plus);
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
