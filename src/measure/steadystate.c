/* steadystate.c - fio's steady-state judgement over a window of interval
 * samples (steadystate.h): fio's steadystate_slope (least-squares slope,
 * x in intervals) and steadystate_deviation (largest |sample - mean|),
 * each as a value or in % of the window's mean, attained when the
 * absolute criterion is below the limit. The figures come from
 * measure/window.c, which SNIA PTS's test shares. */
#include "measure/steadystate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/window.h"
#include "util/error.h"

int steady_report_init(struct steady_report *s, const struct job_checks *c)
{
	memset(s, 0, sizeof(*s));
	s->metric = c->ss_metric;
	s->slope = c->ss_slope;
	s->pct = c->ss_pct;
	s->limit = c->ss_limit;
	s->dur_ns = c->ss_dur_ns;
	s->interval_ns = c->ss_interval_ns;
	s->ramp_ns = c->ss_ramp_ns;
	s->intervals = (unsigned)(c->ss_dur_ns / c->ss_interval_ns);
	if (!s->intervals)
		return err_set("steadystate: ss_dur is shorter than ss_interval");
	s->iops = calloc(s->intervals, sizeof(*s->iops));
	s->bw = calloc(s->intervals, sizeof(*s->bw));
	s->lat = calloc(s->intervals, sizeof(*s->lat));
	if (!s->iops || !s->bw || !s->lat) {
		steady_report_free(s);
		return err_set("steadystate: out of memory for %u intervals", s->intervals);
	}
	return 0;
}

void steady_report_free(struct steady_report *s)
{
	if (!s)
		return;
	free(s->iops);
	free(s->bw);
	free(s->lat);
	s->iops = s->bw = s->lat = NULL;
}

int steady_report_dup(struct steady_report **dst, const struct steady_report *src)
{
	struct steady_report *d;
	size_t bytes;

	*dst = NULL;
	if (!src)
		return 0;
	d = malloc(sizeof(*d));
	if (!d)
		return err_set("out of memory");
	*d = *src;
	bytes = (size_t)src->intervals * sizeof(uint64_t);
	d->iops = malloc(bytes);
	d->bw = malloc(bytes);
	d->lat = malloc(bytes);
	if (!d->iops || !d->bw || !d->lat) {
		steady_report_free(d);
		free(d);
		return err_set("out of memory");
	}
	memcpy(d->iops, src->iops, bytes);
	memcpy(d->bw, src->bw, bytes);
	memcpy(d->lat, src->lat, bytes);
	*dst = d;
	return 0;
}

static const uint64_t *tracked(const struct steady_report *s)
{
	return s->metric == SS_IOPS ? s->iops : s->metric == SS_BW ? s->bw : s->lat;
}

static void push(uint64_t *a, unsigned n, bool full, unsigned nr, uint64_t v)
{
	if (full) {
		memmove(a, a + 1, (n - 1) * sizeof(*a));
		a[n - 1] = v;
	} else {
		a[nr] = v;
	}
}

bool steady_report_add(struct steady_report *s, uint64_t iops, uint64_t bw, uint64_t lat)
{
	bool full = s->nr == s->intervals;
	double values[256], *v = values;
	struct window_fit fit;
	const uint64_t *data;

	if (s->attained)
		return true;
	push(s->iops, s->intervals, full, s->nr, iops);
	push(s->bw, s->intervals, full, s->nr, bw);
	push(s->lat, s->intervals, full, s->nr, lat);
	if (!full)
		s->nr++;
	if (s->nr < s->intervals)
		return false;
	if (s->intervals > sizeof(values) / sizeof(values[0]) &&
	    !(v = malloc(s->intervals * sizeof(*v))))
		return false;   /* judged again at the next interval */
	data = tracked(s);
	for (unsigned i = 0; i < s->intervals; i++)
		v[i] = (double)data[i];
	window_fit(v, s->intervals, &fit);
	if (v != values)
		free(v);
	if (s->slope) {
		/* fio divides by the mean in whole units here (integer sums) */
		s->slope_value = fit.slope;
		s->criterion = s->pct ? 100.0 * fit.slope /
			(double)steady_report_mean(s, data) : fit.slope;
	} else {
		s->max_deviation = fit.max_dev;
		s->criterion = s->pct ? 100.0 * fit.max_dev / fit.mean : fit.max_dev;
	}
	/* fio: the absolute value below the limit (a NaN, from a mean of 0,
	 * never is) */
	s->attained = fabs(s->criterion) < s->limit;
	return s->attained;
}

uint64_t steady_report_mean(const struct steady_report *s, const uint64_t *data)
{
	uint64_t sum = 0;

	if (!s->intervals)
		return 0;
	for (unsigned i = 0; i < s->intervals; i++)
		sum += data[i];
	return sum / s->intervals;
}

void steady_report_ss_text(const struct steady_report *s, char *out, unsigned len)
{
	static const char *const names[] = { [SS_IOPS] = "iops", [SS_BW] = "bw", [SS_LAT] = "lat" };

	snprintf(out, len, "%s%s:%f%s", names[s->metric], s->slope ? "_slope" : "",
		 (float)s->limit, s->pct ? "%" : "");
}

void steady_report_criterion_text(const struct steady_report *s, char *out, unsigned len)
{
	snprintf(out, len, "%f%s", (float)s->criterion, s->pct ? "%" : "");
}
