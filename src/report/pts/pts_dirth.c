/* pts_dirth.c - the PTS pages of DIRTH and CBW: the preconditioning to
 * steady state at TC32/QD32, the demand-variation rounds (thread count x
 * queue depth) with their convergence and window, demand variation (IOPS
 * over queue depth per thread count) and demand intensity (mean response
 * time over IOPS), the TC x QD tables, and the MaxIOPS, MidIOPS and
 * MinIOPS operating points with their response-time histograms. */
#include "report/pts/pts_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/report.h"
#include "report/svg/svg.h"
#include "util/error.h"

#define GRID_MAX 16
/* Histogram buckets: 1-2-5 steps per decade from 1 µs to 10 s. */
#define BUCKETS 22

/* The demand-variation round as thread counts (rows) by queue depths
 * (columns, ascending). */
struct grid {
	unsigned ntc, nqd;
	unsigned tc[GRID_MAX], qd[GRID_MAX];
	int k[GRID_MAX][GRID_MAX];
};

static unsigned slot(unsigned *list, unsigned *n, unsigned v)
{
	unsigned i = 0;

	while (i < *n && list[i] != v)
		i++;
	if (i == *n && *n < GRID_MAX)
		list[(*n)++] = v;
	return i;
}

static int ascending(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

static void grid_of(const struct pts_step *st, struct grid *g)
{
	unsigned np = st->points_per_round ? st->points_per_round : 1;

	memset(g, 0, sizeof(*g));
	memset(g->k, -1, sizeof(g->k));
	for (unsigned k = 0; k < np; k++) {
		const struct result_record *r = pts_at(st, k);

		if (r) {
			slot(g->tc, &g->ntc, r->numjobs);
			slot(g->qd, &g->nqd, r->iodepth);
		}
	}
	qsort(g->qd, g->nqd, sizeof(g->qd[0]), ascending);
	for (unsigned k = 0; k < np; k++) {
		const struct result_record *r = pts_at(st, k);
		unsigned i, j;

		if (!r)
			continue;
		for (i = 0; i < g->ntc && g->tc[i] != r->numjobs; i++)
			;
		for (j = 0; j < g->nqd && g->qd[j] != r->iodepth; j++)
			;
		if (i < GRID_MAX && j < GRID_MAX)
			g->k[i][j] = (int)k;
	}
}

static double grid_cell(const struct pts_step *st, const struct grid *g, unsigned i, unsigned j,
			enum pts_fig f)
{
	return g->k[i][j] < 0 ? NAN : pts_window_mean(st, (unsigned)g->k[i][j], f);
}

static void grid_table(FILE *out, const char *id, const char *what, const struct pts_step *st,
		       const struct grid *g, enum pts_fig f)
{
	fprintf(out, "<h3>%s</h3>\n<table data-pts=\"%s\"><tr><th class=\"l\">TC \\ QD</th>", what, id);
	for (unsigned j = 0; j < g->nqd; j++)
		fprintf(out, "<th>%u</th>", g->qd[j]);
	fputs("</tr>\n", out);
	for (unsigned i = 0; i < g->ntc; i++) {
		fprintf(out, "<tr><td class=\"l\">TC %u</td>", g->tc[i]);
		for (unsigned j = 0; j < g->nqd; j++) {
			fputs("<td>", out);
			pts_num(out, grid_cell(st, g, i, j, f));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Demand variation: IOPS over QD per TC; demand intensity: mean response
 * time over IOPS per TC. */
static int demand_plots(FILE *out, const char *test, const struct pts_step *st,
			const struct grid *g)
{
	double iops[GRID_MAX][GRID_MAX], lat[GRID_MAX][GRID_MAX];
	char names[GRID_MAX][16], qd_names[GRID_MAX][16], id[64];
	const char *qd_ptr[GRID_MAX];
	struct svg_series dv[GRID_MAX], di[GRID_MAX];
	int rc;

	for (unsigned j = 0; j < g->nqd; j++) {
		snprintf(qd_names[j], sizeof(qd_names[j]), "%u", g->qd[j]);
		qd_ptr[j] = qd_names[j];
	}
	for (unsigned i = 0; i < g->ntc; i++) {
		snprintf(names[i], sizeof(names[i]), "TC %u", g->tc[i]);
		for (unsigned j = 0; j < g->nqd; j++) {
			iops[i][j] = grid_cell(st, g, i, j, PTS_IOPS);
			lat[i][j] = grid_cell(st, g, i, j, PTS_LAT_MEAN_US);
		}
		dv[i] = (struct svg_series){ names[i], NULL, iops[i], g->nqd };
		di[i] = (struct svg_series){ names[i], iops[i], lat[i], g->nqd };
	}
	snprintf(id, sizeof(id), "%s-demand-variation", test);
	pts_figure_open(out, id);
	struct svg_chart c1 = { .title = "Demand variation: IOPS over queue depth",
				.x_label = "queue depth (per thread)", .y_label = "IOPS",
				.x_names = qd_ptr, .nx = g->nqd, .series = dv, .nr_series = g->ntc };
	rc = svg_line_chart(out, &c1);
	pts_figure_close(out, "One line per thread count; measurement-window means.");
	if (rc < 0)
		return -1;
	snprintf(id, sizeof(id), "%s-demand-intensity", test);
	pts_figure_open(out, id);
	struct svg_chart c2 = { .title = "Demand intensity: mean response time over IOPS",
				.x_label = "IOPS", .y_label = "mean response time (\u00b5s)",
				.series = di, .nr_series = g->ntc };
	rc = svg_line_chart(out, &c2);
	pts_figure_close(out, "Each line one thread count, its queue depths from 1 up.");
	return rc;
}

/* A histogram of one result's completion latencies in 1-2-5 buckets. */
static int histogram(FILE *out, const char *id, const char *title, const struct result_record *r)
{
	static const double steps[3] = { 1, 2, 5 };
	double edge[BUCKETS], share[BUCKETS] = { 0 }, total = 0;
	char names[BUCKETS][24];
	const char *ptr[BUCKETS];
	unsigned first = BUCKETS, last = 0;
	int rc;

	for (unsigned b = 0; b < BUCKETS; b++)
		edge[b] = steps[b % 3] * pow(10, b / 3);          /* µs, upper edges */
	for (int d = 0; d < DIR_COUNT; d++)
		for (unsigned i = 0; i < r->dir[d].nr_bins; i++) {
			double us = (double)r->dir[d].bins[i].value_ns / 1e3;
			unsigned b = 0;

			if (!pts_bin_possible(r, d, &r->dir[d].bins[i]))
				continue;
			while (b + 1 < BUCKETS && us > edge[b])
				b++;
			share[b] += (double)r->dir[d].bins[i].count;
			total += (double)r->dir[d].bins[i].count;
		}
	for (unsigned b = 0; b < BUCKETS; b++) {
		if (share[b] > 0) {
			first = b < first ? b : first;
			last = b;
		}
		share[b] = total ? 100 * share[b] / total : 0;
		if (edge[b] >= 1000)
			snprintf(names[b], sizeof(names[b]), "<= %g ms", edge[b] / 1000);
		else
			snprintf(names[b], sizeof(names[b]), "<= %g \u00b5s", edge[b]);
		ptr[b] = names[b];
	}
	pts_figure_open(out, id);
	if (first > last) {
		fputs("<p class=\"note\">No histogram stored.</p>", out);
		pts_figure_close(out, NULL);
		return 0;
	}
	rc = svg_bar_chart(out, title, "% of I/Os", &ptr[first], &share[first], last - first + 1,
			   NULL);
	pts_figure_close(out, "Response-time histogram: the share of the I/Os completing within "
			 "each bucket (completion latency).");
	return rc;
}

/* The operating points' table and histograms. */
static int operating_points(FILE *out, const struct pts_run *run, const char *test)
{
	const struct pts_step *st;
	char id[64], title[160];
	bool any = false;

	for (unsigned n = 0; (st = pts_step_of(run, test, "measure", n)); n++)
		any = any || st->operating_point[0];
	if (!any)
		return 0;
	fprintf(out, "<h3>Operating points</h3>\n<table data-pts=\"%s-op-table\"><tr><th class=\"l\">"
		"point</th><th>TC / QD</th><th>IOPS</th><th>mean (\u00b5s)</th><th>maximum (\u00b5s)"
		"</th><th>99.99th (\u00b5s)</th><th>99.999th (\u00b5s)</th><th class=\"l\">chosen</th>"
		"</tr>\n", test);
	for (unsigned n = 0; (st = pts_step_of(run, test, "measure", n)); n++) {
		const struct result_record *r = st->nr_recs ? st->recs[0] : NULL;

		if (!st->operating_point[0] || !r)
			continue;
		fprintf(out, "<tr><td class=\"l\">%sIOPS</td><td>%u / %u</td><td>",
			!strcmp(st->operating_point, "max") ? "Max" :
			!strcmp(st->operating_point, "mid") ? "Mid" : "Min", r->numjobs, r->iodepth);
		pts_num(out, pts_fig(r, PTS_IOPS));
		fputs("</td><td>", out);
		pts_num(out, pts_fig(r, PTS_LAT_MEAN_US));
		fputs("</td><td>", out);
		pts_num(out, pts_fig(r, PTS_LAT_MAX_US));
		fputs("</td><td>", out);
		pts_num(out, pts_percentile_us(&st->recs[0], 1, 99.99));
		fputs("</td><td>", out);
		pts_num(out, pts_percentile_us(&st->recs[0], 1, 99.999));
		fputs("</td><td class=\"l\">from ", out);
		pts_esc(out, st->operating_from);
		if (st->lat_ceiling_ns > 0)
			fprintf(out, ", mean response at most %g ms", st->lat_ceiling_ns / 1e6);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	for (unsigned n = 0; (st = pts_step_of(run, test, "measure", n)); n++) {
		if (!st->operating_point[0] || !st->nr_recs)
			continue;
		snprintf(id, sizeof(id), "%s-histogram-%s", test, st->operating_point);
		snprintf(title, sizeof(title), "Response-time histogram at %sIOPS (TC %u / QD %u)",
			 !strcmp(st->operating_point, "max") ? "Max" :
			 !strcmp(st->operating_point, "mid") ? "Mid" : "Min", st->recs[0]->numjobs,
			 st->recs[0]->iodepth);
		if (histogram(out, id, title, st->recs[0]) < 0)
			return -1;
	}
	return 0;
}

int pts_dirth_page(FILE *out, const struct pts_run *run, const char *test)
{
	bool cbw = !strcmp(test, "cbw");
	const struct pts_step *pc = pts_step_of(run, test, "steady", 0);
	const struct pts_step *dv = pts_step_of(run, test, "steady", 1);
	unsigned ks[GRID_MAX], nk = 0, one = 0;
	char id[64];
	struct grid g;

	pts_test_header(out, run, test, cbw ? "Composite block-size workload (CBW)" :
			"Demand intensity / response time histogram (DIRTH)",
			cbw ? "PTS 2.0.2 section 13: the composite workload (R/W 40/60, twelve block "
			"sizes, three LBA zones) over thread count x queue depth, then the "
			"operating points." : "PTS-E 1.1 section 14: 4KiB random writes over thread "
			"count x queue depth, then the operating points.",
			cbw ? "random R/W 40/60, block sizes 0.5K..64K (4K 67%), zones 50/5:30/15:20/80" :
			"random 4KiB writes, TC 32..1 x QD 32..1");
	if (!pc || !dv || !dv->nr_recs) {
		fprintf(out, "<p class=\"warn\">No %s preconditioning and demand-variation rounds "
			"stored in this run.</p>\n</section>\n", test);
		return 0;
	}
	snprintf(id, sizeof(id), "%s-pc-convergence", test);
	if (pts_convergence(out, id, "Preconditioning: IOPS per round (TC32/QD32, 100% write)", pc,
			    &one, 1, PTS_IOPS) < 0)
		return -1;
	snprintf(id, sizeof(id), "%s-pc-window", test);
	if (pts_window(out, id, pc) < 0)
		return -1;
	grid_of(dv, &g);
	for (unsigned i = 0; i < g.ntc; i++)       /* the tracked thread count, every QD */
		for (unsigned j = 0; j < g.nqd; j++) {
			const struct result_record *t = pts_at(dv, dv->tracked_point);

			if (t && g.tc[i] == t->numjobs && g.k[i][j] >= 0 && nk < GRID_MAX)
				ks[nk++] = (unsigned)g.k[i][j];
		}
	if (!nk)
		ks[nk++] = dv->tracked_point;
	snprintf(id, sizeof(id), "%s-dv-convergence", test);
	if (pts_convergence(out, id, "Demand variation rounds: IOPS per round at the tracked "
			    "thread count", dv, ks, nk, PTS_IOPS) < 0)
		return -1;
	snprintf(id, sizeof(id), "%s-dv-window", test);
	if (pts_window(out, id, dv) < 0 || demand_plots(out, test, dv, &g) < 0)
		return -1;
	snprintf(id, sizeof(id), "%s-dv-iops", test);
	grid_table(out, id, "IOPS by thread count and queue depth", dv, &g, PTS_IOPS);
	snprintf(id, sizeof(id), "%s-dv-lat", test);
	grid_table(out, id, "Mean response time (\u00b5s) by thread count and queue depth", dv, &g,
		   PTS_LAT_MEAN_US);
	if (operating_points(out, run, test) < 0)
		return -1;
	fputs("</section>\n", out);
	return 0;
}
