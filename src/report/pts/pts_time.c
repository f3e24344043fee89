/* pts_time.c - the PTS pages of the tests read over time: WSAT (IOPS per
 * minute against time and against the total gigabytes written, response
 * times, the fresh-out-of-box, lowest and steady figures), HIR (the
 * preconditioning's steady state, IOPS of every burst through the wait
 * states and baselines, each wait state against the steady IOPS) and XSR
 * (throughput and response times of the three access groups, and how
 * long the last took to recover the first's throughput). */
#include "report/pts/pts_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/report.h"
#include "report/svg/svg.h"
#include "util/error.h"

/* Share of the first group's throughput the last must reach (XSR). */
#define XSR_RECOVERED 0.9
/* Points of a group's end that make its reference throughput (XSR). */
#define XSR_TAIL 5

static void not_stored(FILE *out, const char *what)
{
	fprintf(out, "<p class=\"warn\">No %s stored in this run.</p>\n</section>\n", what);
}

static int chart(FILE *out, const char *id, const char *title, const char *x_label,
		 const char *y_label, const struct svg_series *s, unsigned n, const char *caption)
{
	struct svg_chart c = { .title = title, .x_label = x_label, .y_label = y_label,
			       .series = s, .nr_series = n };
	int rc;

	pts_figure_open(out, id);
	rc = svg_line_chart(out, &c);
	pts_figure_close(out, caption);
	return rc;
}

/* --- WSAT ------------------------------------------------------------- */

struct wsat_rows {
	unsigned n;
	double *minutes, *tgbw, *iops, *mean, *max, *p99999;
};

static int wsat_rows(const struct pts_step *st, struct wsat_rows *w)
{
	double t = 0, gb = 0;

	w->n = st->nr_recs;
	w->minutes = calloc(w->n + 1, sizeof(double));
	w->tgbw = calloc(w->n + 1, sizeof(double));
	w->iops = calloc(w->n + 1, sizeof(double));
	w->mean = calloc(w->n + 1, sizeof(double));
	w->max = calloc(w->n + 1, sizeof(double));
	w->p99999 = calloc(w->n + 1, sizeof(double));
	if (!w->minutes || !w->tgbw || !w->iops || !w->mean || !w->max || !w->p99999)
		return err_set("report: out of memory");
	for (unsigned i = 0; i < w->n; i++) {
		const struct result_record *r = st->recs[i];

		t += (double)r->runtime_ns / 60e9;
		gb += (double)r->dir[DIR_WRITE].bytes / 1e9;
		w->minutes[i] = t;
		w->tgbw[i] = gb;
		w->iops[i] = pts_fig(r, PTS_IOPS);
		w->mean[i] = pts_fig(r, PTS_LAT_MEAN_US);
		w->max[i] = pts_fig(r, PTS_LAT_MAX_US);
		w->p99999[i] = pts_percentile_us(&st->recs[i], 1, 99.999);
	}
	return 0;
}

static void wsat_free(struct wsat_rows *w)
{
	free(w->minutes);
	free(w->tgbw);
	free(w->iops);
	free(w->mean);
	free(w->max);
	free(w->p99999);
}

static void wsat_table(FILE *out, const struct pts_step *st, const struct wsat_rows *w,
		       uint64_t capacity)
{
	unsigned low = 0;

	for (unsigned i = 1; i < w->n; i++)
		if (w->iops[i] < w->iops[low])
			low = i;
	fputs("<h3>WSAT figures</h3>\n<table data-pts=\"wsat-table\"><tr><th class=\"l\">"
	      "</th><th>IOPS</th><th class=\"l\">where</th></tr>\n<tr><td class=\"l\">fresh out of "
	      "box (first minute)</td><td>", out);
	pts_num(out, w->iops[0]);
	fputs("</td><td class=\"l\">round 1</td></tr>\n<tr><td class=\"l\">lowest minute</td><td>",
	      out);
	pts_num(out, w->iops[low]);
	fprintf(out, "</td><td class=\"l\">round %u, %.2f GB written</td></tr>\n<tr><td class=\"l\">"
		"steady state (the last %u minutes)</td><td>", low + 1, w->tgbw[low], st->window);
	pts_num(out, st->has_window ? st->mean : NAN);
	fprintf(out, "</td><td class=\"l\">%s</td></tr>\n", st->steady_round ?
		"steady state reached" : "steady state not reached");
	fprintf(out, "<tr><td class=\"l\">written</td><td>%.2f GB</td><td class=\"l\">%.2f drive "
		"fills in %u rounds (%.1f minutes)</td></tr>\n</table>\n", w->n ? w->tgbw[w->n - 1] : 0,
		capacity && w->n ? w->tgbw[w->n - 1] * 1e9 / (double)capacity : 0, w->n,
		w->n ? w->minutes[w->n - 1] : 0);
	if (st->steady_round)
		fprintf(out, "<p class=\"note\">The steady-state window first passed at round %u.</p>\n",
			st->steady_round);
}

int pts_wsat_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *st = pts_step_of(run, "wsat", "steady", 0);
	struct wsat_rows w = { 0 };
	int rc = -1;

	pts_test_header(out, run, "wsat", "Write saturation (WSAT)", "PTS-E 1.1 section 10: from "
			"a purge, 4KiB random writes until 4x the user capacity or 24 hours; IOPS "
			"per minute.", "random 4KiB writes, continuous rounds");
	if (!st || !st->nr_recs) {
		not_stored(out, "WSAT rounds");
		return 0;
	}
	if (wsat_rows(st, &w))
		goto out;
	struct svg_series s1 = { "IOPS", w.minutes, w.iops, w.n };
	struct svg_series s2 = { "IOPS", w.tgbw, w.iops, w.n };
	struct svg_series s3[3] = { { "mean", w.tgbw, w.mean, w.n }, { "maximum", w.tgbw, w.max, w.n },
				    { "99.999th percentile", w.tgbw, w.p99999, w.n } };
	if (chart(out, "wsat-iops-time", "WSAT: IOPS over time", "time (minutes)", "IOPS", &s1, 1,
		  "IOPS of every minute from fresh out of box to steady state.") < 0 ||
	    chart(out, "wsat-iops-tgbw", "WSAT: IOPS over total GB written", "total GB written "
		  "(10^9 bytes)", "IOPS", &s2, 1, "The same minutes against the bytes written.") < 0 ||
	    chart(out, "wsat-lat-tgbw", "WSAT: response times over total GB written",
		  "total GB written (10^9 bytes)", "response time (\u00b5s)", s3, 3,
		  "Mean, maximum and 99.999th percentile response time of every minute.") < 0)
		goto out;
	wsat_table(out, st, &w, run->dev.size_bytes);
	if (pts_window(out, "wsat-window", st) < 0)
		goto out;
	fputs("</section>\n", out);
	rc = 0;
out:
	wsat_free(&w);
	return rc;
}

/* --- HIR and XSR: sweeps laid out in time ------------------------------ */

/* Minutes from the first run of the first step to the end of each run of
 * every step (each run's runtime and the idle after it). */
static double *timeline(const struct pts_step *const *steps, unsigned n, unsigned *total)
{
	double t = 0, *x;
	unsigned at = 0;

	*total = 0;
	for (unsigned s = 0; s < n; s++)
		*total += steps[s]->nr_recs;
	if (!(x = calloc(*total + 1, sizeof(*x))))
		return NULL;
	for (unsigned s = 0; s < n; s++)
		for (unsigned i = 0; i < steps[s]->nr_recs; i++) {
			t += (double)steps[s]->recs[i]->runtime_ns / 60e9;
			x[at++] = t;
			t += steps[s]->pause_ns / 60e9;
		}
	return x;
}

/* The test's sweep steps, in order (at most max). */
static unsigned sweeps_of(const struct pts_run *run, const char *test,
			  const struct pts_step **steps, unsigned max)
{
	unsigned n = 0;

	for (const struct pts_step *st; n < max && (st = pts_step_of(run, test, "sweep", n));)
		steps[n++] = st;
	return n;
}

/* One line per step of figure f over the timeline. */
static int time_chart(FILE *out, const char *id, const char *title, const char *y_label,
		      const struct pts_step *const *steps, unsigned n, enum pts_fig f,
		      const char *caption)
{
	unsigned total, at = 0;
	double *x = timeline(steps, n, &total), *y = calloc(total + 1, sizeof(*y));
	struct svg_series *s = calloc(n + 1, sizeof(*s));
	int rc = -1;

	if (!x || !y || !s) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned k = 0; k < n; k++) {
		s[k] = (struct svg_series){ steps[k]->name, &x[at], &y[at], steps[k]->nr_recs };
		for (unsigned i = 0; i < steps[k]->nr_recs; i++)
			y[at++] = pts_fig(steps[k]->recs[i], f);
	}
	rc = chart(out, id, title, "time (minutes)", y_label, s, n, caption);
out:
	free(x);
	free(y);
	free(s);
	return rc;
}

static double mean_of(const struct pts_step *st, enum pts_fig f, unsigned first)
{
	double sum = 0;
	unsigned n = 0;

	for (unsigned i = first; i < st->nr_recs; i++, n++)
		sum += pts_fig(st->recs[i], f);
	return n ? sum / n : NAN;
}

static double max_of(const struct pts_step *st, enum pts_fig f)
{
	double m = NAN;

	for (unsigned i = 0; i < st->nr_recs; i++) {
		double v = pts_fig(st->recs[i], f);

		if (isfinite(v) && !(v <= m))
			m = v;
	}
	return m;
}

int pts_hir_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *pc = pts_step_of(run, "hir", "steady", 0), *steps[32];
	unsigned n = sweeps_of(run, "hir", steps, 32), one = 0;
	double steady = pc && pc->has_window ? pc->mean : NAN;

	pts_test_header(out, run, "hir", "Host idle recovery (HIR)", "PTS-E 1.1 section 11: "
			"4KiB random writes to steady state, then bursts of 5 s separated by host "
			"idle of 5, 10, 15, 25 and 50 s, each wait state followed by a return to "
			"baseline.", "random 4KiB writes in 5 s bursts with wait states");
	if (!pc && !n) {
		not_stored(out, "HIR steps");
		return 0;
	}
	if (pc && (pts_convergence(out, "hir-convergence", "HIR preconditioning: IOPS per round",
				   pc, &one, 1, PTS_IOPS) < 0 ||
		   pts_window(out, "hir-window", pc) < 0))
		return -1;
	if (n && time_chart(out, "hir-iops-time", "HIR: IOPS of every burst, all wait states",
			    "IOPS", steps, n, PTS_IOPS, "Each point a burst; wait-state segments "
			    "and baselines in turn, the idle time on the time axis.") < 0)
		return -1;
	fputs("<h3>IOPS by wait state</h3>\n<table data-pts=\"hir-table\"><tr><th class=\"l\">"
	      "segment</th><th>wait state (s)</th><th>bursts</th><th>mean IOPS</th>"
	      "<th>first burst IOPS</th><th>mean / steady state</th></tr>\n", out);
	for (unsigned k = 0; k < n; k++) {
		double mean = mean_of(steps[k], PTS_IOPS, 0);

		fputs("<tr><td class=\"l\">", out);
		pts_esc(out, steps[k]->name);
		fprintf(out, "</td><td>%g</td><td>%u</td><td>", steps[k]->pause_ns / 1e9,
			steps[k]->nr_recs);
		pts_num(out, mean);
		fputs("</td><td>", out);
		pts_num(out, steps[k]->nr_recs ? pts_fig(steps[k]->recs[0], PTS_IOPS) : NAN);
		fputs("</td><td>", out);
		if (isfinite(steady) && steady > 0)
			fprintf(out, "%.2f", mean / steady);
		else
			fputs("-", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<p class=\"note\">Steady state: the preconditioning's measurement-window "
	      "mean; a ratio above 1 is recovered performance.</p>\n</section>\n", out);
	return 0;
}

/* Minutes of the last group until it reaches XSR_RECOVERED of the first
 * group's end throughput; -1 when it never does. */
static double xsr_recovery(const struct pts_step *first, const struct pts_step *last)
{
	unsigned tail = first->nr_recs > XSR_TAIL ? first->nr_recs - XSR_TAIL : 0;
	double ref = mean_of(first, PTS_MBS, tail), t = 0;

	for (unsigned i = 0; i < last->nr_recs; i++) {
		t += (double)last->recs[i]->runtime_ns / 60e9;
		if (pts_fig(last->recs[i], PTS_MBS) >= XSR_RECOVERED * ref)
			return t;
	}
	return -1;
}

int pts_xsr_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *steps[8];
	unsigned n = sweeps_of(run, "xsr", steps, 8);

	pts_test_header(out, run, "xsr", "Cross-stimulus recovery (XSR)", "PTS-E 1.1 section 12: "
			"access groups back to back: 1024KiB sequential writes (8 h), 8KiB random "
			"writes (6 h), 1024KiB sequential writes (8 h).",
			"sequential 1024KiB W, random 8KiB W, sequential 1024KiB W; per minute");
	if (!n) {
		not_stored(out, "XSR access groups");
		return 0;
	}
	if (time_chart(out, "xsr-tp-time", "XSR: throughput over time, all access groups", "MB/s",
		       steps, n, PTS_MBS, "Each point a minute.") < 0 ||
	    time_chart(out, "xsr-art-time", "XSR: mean response time over time",
		       "mean response time (\u00b5s)", steps, n, PTS_LAT_MEAN_US, NULL) < 0 ||
	    time_chart(out, "xsr-mrt-time", "XSR: maximum response time over time",
		       "maximum response time (\u00b5s)", steps, n, PTS_LAT_MAX_US, NULL) < 0)
		return -1;
	fputs("<h3>Access groups</h3>\n<table data-pts=\"xsr-table\"><tr><th class=\"l\">group</th>"
	      "<th class=\"l\">stimulus</th><th>minutes</th><th>end MB/s</th><th>mean MB/s</th>"
	      "<th>peak mean response (\u00b5s)</th><th>peak maximum response (\u00b5s)</th></tr>\n",
	      out);
	for (unsigned k = 0; k < n; k++) {
		const struct result_record *r = steps[k]->nr_recs ? steps[k]->recs[0] : NULL;
		double minutes = 0;
		char bs[32] = "-";

		for (unsigned i = 0; i < steps[k]->nr_recs; i++)
			minutes += (double)steps[k]->recs[i]->runtime_ns / 60e9;
		if (r)
			pts_bs_name(r->bs, bs, sizeof(bs));
		fputs("<tr><td class=\"l\">", out);
		pts_esc(out, steps[k]->name);
		fprintf(out, "</td><td class=\"l\">%s %s</td><td>%.1f</td><td>", r ? r->rw : "-", bs,
			minutes);
		pts_num(out, r ? pts_fig(steps[k]->recs[steps[k]->nr_recs - 1], PTS_MBS) : NAN);
		fputs("</td><td>", out);
		pts_num(out, mean_of(steps[k], PTS_MBS, 0));
		fputs("</td><td>", out);
		pts_num(out, max_of(steps[k], PTS_LAT_MEAN_US));
		fputs("</td><td>", out);
		pts_num(out, max_of(steps[k], PTS_LAT_MAX_US));
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	if (n >= 2) {
		double rec = xsr_recovery(steps[0], steps[n - 1]);

		fprintf(out, "<p data-pts=\"xsr-recovery\">Recovery: ");
		pts_esc(out, steps[n - 1]->name);
		if (rec >= 0)
			fprintf(out, " reached %.0f%% of the end throughput of ", 100 * XSR_RECOVERED);
		else
			fprintf(out, " did not reach %.0f%% of the end throughput of ", 100 * XSR_RECOVERED);
		pts_esc(out, steps[0]->name);
		if (rec >= 0)
			fprintf(out, " (its last %u minutes) after %.1f minutes.</p>\n", XSR_TAIL, rec);
		else
			fprintf(out, " (its last %u minutes).</p>\n", XSR_TAIL);
	}
	fputs("</section>\n", out);
	return 0;
}
