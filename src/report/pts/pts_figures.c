/* pts_figures.c - the figures the PTS pages read from stored results:
 * IOPS, MB/s, mean and maximum latency of a result, its read share,
 * latency percentiles of merged histograms, and a steady step's points,
 * rounds and measurement window. */
#include "report/pts/pts_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

double pts_fig(const struct result_record *r, enum pts_fig f)
{
	double sum = 0, ios = 0, max = 0;

	if (!r)
		return NAN;
	for (int d = 0; d < DIR_COUNT; d++) {
		switch (f) {
		case PTS_IOPS:
			sum += r->dir[d].iops;
			break;
		case PTS_MBS:
			sum += r->dir[d].bw_bytes / 1e6;
			break;
		case PTS_LAT_MEAN_US:
			sum += r->dir[d].lat.mean * (double)r->dir[d].lat.n;
			ios += (double)r->dir[d].lat.n;
			break;
		case PTS_LAT_MAX_US:
			if (r->dir[d].lat.n && (double)r->dir[d].lat.max > max)
				max = (double)r->dir[d].lat.max;
			break;
		}
	}
	if (f == PTS_LAT_MEAN_US)
		return ios ? sum / ios / 1e3 : NAN;
	if (f == PTS_LAT_MAX_US)
		return max / 1e3;
	return sum;
}

const char *pts_fig_unit(enum pts_fig f)
{
	switch (f) {
	case PTS_IOPS: return "IOPS";
	case PTS_MBS: return "MB/s";
	case PTS_LAT_MEAN_US: return "mean response time (\u00b5s)";
	case PTS_LAT_MAX_US: return "maximum response time (\u00b5s)";
	}
	return "";
}

unsigned pts_mix(const struct result_record *r)
{
	cJSON *opts = r->options_json ? cJSON_Parse(r->options_json) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(opts, "rwmixread");
	unsigned mix;

	if (cJSON_IsString(v) && v->valuestring)
		mix = (unsigned)atoi(v->valuestring);
	else if (strstr(r->rw, "rw") || !strcmp(r->rw, "readwrite"))
		mix = 50;                       /* fio's default rwmixread */
	else
		mix = strstr(r->rw, "read") ? 100 : 0;
	cJSON_Delete(opts);
	return mix > 100 ? 100 : mix;
}

static int by_value(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return x->value_ns < y->value_ns ? -1 : x->value_ns > y->value_ns;
}

/* A result's stored total-latency percentile pct (both directions' worst),
 * NAN when it was not recorded. */
static double stored_lat_pct(const struct result_record *r, double pct)
{
	double v = NAN;

	for (int d = 0; d < DIR_COUNT; d++)
		for (unsigned i = 0; i < r->dir[d].nr_lat_pct; i++)
			if (fabs(r->dir[d].lat_pct[i].pct - pct) < 1e-9 && r->dir[d].lat.n &&
			    !((double)r->dir[d].lat_pct[i].value_ns <= v))
				v = (double)r->dir[d].lat_pct[i].value_ns;
	return v;
}

bool pts_bin_possible(const struct result_record *r, int dir, const struct bin *b)
{
	/* a completion latency above the total latency's maximum cannot be
	 * (a clock step, or an engine's stamp before the submit: dropped) */
	return !r->dir[dir].lat.n || b->value_ns <= r->dir[dir].lat.max;
}

/* From the merged completion-latency bins, fio's rule: the value below
 * which pct of the samples lie. */
static double merged_bins_pct(const struct result_record *const *recs, unsigned n, double pct)
{
	unsigned total = 0, at = 0;
	uint64_t count = 0, seen = 0, want;
	struct bin *all;
	double value = NAN;

	for (unsigned i = 0; i < n; i++)
		for (int d = 0; d < DIR_COUNT; d++)
			total += recs[i]->dir[d].nr_bins;
	if (!total || !(all = calloc(total, sizeof(*all))))
		return NAN;
	for (unsigned i = 0; i < n; i++)
		for (int d = 0; d < DIR_COUNT; d++)
			for (unsigned b = 0; b < recs[i]->dir[d].nr_bins; b++) {
				if (!pts_bin_possible(recs[i], d, &recs[i]->dir[d].bins[b]))
					continue;
				all[at++] = recs[i]->dir[d].bins[b];
				count += recs[i]->dir[d].bins[b].count;
			}
	qsort(all, at, sizeof(*all), by_value);
	want = (uint64_t)ceil((double)count * pct / 100.0);
	for (unsigned i = 0; i < at; i++) {
		seen += all[i].count;
		if (seen >= want && want) {
			value = (double)all[i].value_ns / 1e3;
			break;
		}
	}
	free(all);
	return value;
}

double pts_percentile_us(const struct result_record *const *recs, unsigned n, double pct)
{
	double worst = NAN;

	for (unsigned i = 0; i < n; i++) {
		double v = stored_lat_pct(recs[i], pct);

		if (!isfinite(v))
			return merged_bins_pct(recs, n, pct);
		if (!(v <= worst))
			worst = v;
	}
	return n ? worst / 1e3 : NAN;
}

void pts_bs_name(uint64_t bs, char *buf, size_t len)
{
	if (bs % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(bs / 1024));
	else
		snprintf(buf, len, "%gK", (double)bs / 1024.0);
}

const struct result_record *pts_at(const struct pts_step *st, unsigned point)
{
	unsigned lo = 0, hi = st->nr_recs;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (st->recs[mid]->point < point)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->nr_recs && st->recs[lo]->has_point && st->recs[lo]->point == point
		? st->recs[lo] : NULL;
}

const struct pts_step *pts_step_of(const struct pts_run *run, const char *test,
				   const char *kind, unsigned nth)
{
	for (unsigned i = 0; i < run->nr_steps; i++) {
		const struct pts_step *st = &run->steps[i];

		if (strcmp(st->test, test) || (kind && strcmp(st->kind, kind)))
			continue;
		if (nth-- == 0)
			return st;
	}
	return NULL;
}

unsigned pts_window_first(const struct pts_step *st)
{
	unsigned w = st->window ? st->window : 5;

	return st->nr_rounds > w ? st->nr_rounds - w : 0;
}

unsigned pts_window_recs(const struct pts_step *st, unsigned k,
			 const struct result_record **recs, unsigned max)
{
	unsigned n = 0, np = st->points_per_round ? st->points_per_round : 1;

	for (unsigned r = pts_window_first(st); r < st->nr_rounds && n < max; r++) {
		const struct result_record *rec = pts_at(st, r * np + k);

		if (rec)
			recs[n++] = rec;
	}
	return n;
}

double pts_window_mean(const struct pts_step *st, unsigned k, enum pts_fig f)
{
	const struct result_record *recs[64];
	unsigned n = pts_window_recs(st, k, recs, 64);
	double sum = 0, max = 0;

	if (!n)
		return NAN;
	for (unsigned i = 0; i < n; i++) {
		double v = pts_fig(recs[i], f);

		sum += v;
		max = v > max ? v : max;
	}
	/* the maximum response time of a window is its rounds' largest */
	return f == PTS_LAT_MAX_US ? max : sum / n;
}
