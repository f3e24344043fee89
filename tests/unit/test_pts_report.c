/* test_pts_report.c - the PTS report pages from plain structs (no
 * database): every test's tables and plots present, the measurement
 * window's figures (the IOPS table's cells are the window's means, the
 * latency percentiles the window's worst, the range and slope verdicts),
 * WSAT's fresh-out-of-box, lowest and steady figures, HIR's ratios, XSR's
 * recovery, the operating points, a test with nothing stored, a run that
 * never finished, the figures of one result (read share, percentiles from
 * stored values or from histograms without impossible bins) and a write
 * error. PTS_REPORT_PAGE=FILE keeps the page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/pts/pts.h"
#include "report/pts/pts_parts.h"
#include "util/error.h"

#define MAX_RECS 4096
#define MAX_STEPS 32

struct builder {
	struct pts_run run;
	struct result_record recs[MAX_RECS];
	unsigned nr;
	struct pts_step steps[MAX_STEPS];
	const struct result_record *ptrs[MAX_RECS];
	unsigned nptrs;
};

static struct result_record *add_rec(struct builder *b, unsigned point, const char *rw,
				     uint64_t bs, unsigned qd, unsigned jobs, int mix,
				     double iops, double lat_us)
{
	struct result_record *r = &b->recs[b->nr++];
	char opts[64];

	assert_true(b->nr <= MAX_RECS);
	memset(r, 0, sizeof(*r));
	r->has_point = true;
	r->point = point;
	snprintf(r->rw, sizeof(r->rw), "%s", rw);
	r->bs = bs;
	r->iodepth = qd;
	r->numjobs = jobs;
	r->runtime_ns = 60000000000ull;
	if (mix >= 0)
		snprintf(opts, sizeof(opts), "{\"rwmixread\":\"%d\"}", mix);
	else
		snprintf(opts, sizeof(opts), "{}");
	r->options_json = strdup(opts);
	r->dir[DIR_WRITE].iops = iops;
	r->dir[DIR_WRITE].bw_bytes = iops * (double)bs;
	r->dir[DIR_WRITE].bytes = (uint64_t)(iops * (double)bs * 60);
	r->dir[DIR_WRITE].lat.n = 1000;
	r->dir[DIR_WRITE].lat.mean = lat_us * 1e3;
	r->dir[DIR_WRITE].lat.max = (uint64_t)(lat_us * 1e3 * 10);
	r->dir[DIR_WRITE].nr_lat_pct = 2;
	r->dir[DIR_WRITE].lat_pct[0] = (struct pct_value){ 99.99, (uint64_t)(lat_us * 1e3 * 4) };
	r->dir[DIR_WRITE].lat_pct[1] = (struct pct_value){ 99.999, (uint64_t)(lat_us * 1e3 * 8) };
	r->dir[DIR_WRITE].bins = calloc(2, sizeof(struct bin));
	r->dir[DIR_WRITE].nr_bins = 2;
	r->dir[DIR_WRITE].bins[0] = (struct bin){ (uint64_t)(lat_us * 1e3), 990 };
	r->dir[DIR_WRITE].bins[1] = (struct bin){ (uint64_t)(lat_us * 1e3 * 5), 10 };
	return r;
}

static struct pts_step *add_step(struct builder *b, const char *name, const char *kind,
				 const char *test)
{
	struct pts_step *st = &b->steps[b->run.nr_steps++];

	assert_true(b->run.nr_steps <= MAX_STEPS);
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	snprintf(st->kind, sizeof(st->kind), "%s", kind);
	snprintf(st->test, sizeof(st->test), "%s", test);
	snprintf(st->status, sizeof(st->status), "done");
	st->recs = &b->ptrs[b->nptrs];
	return st;
}

/* The step's records are the last n added. */
static void take(struct builder *b, struct pts_step *st, unsigned n)
{
	for (unsigned i = b->nr - n; i < b->nr; i++)
		b->ptrs[b->nptrs++] = &b->recs[i];
	st->nr_recs += n;
}

static void purge_and_fill(struct builder *b, const char *test, bool fill)
{
	struct pts_step *st = add_step(b, "purge", "purge", test);

	snprintf(st->purge_method, sizeof(st->purge_method), "BLKDISCARD");
	st->purge_bytes = 1000000000000ull;
	if (!fill)
		return;
	st = add_step(b, "wipc", "precondition", test);
	add_rec(b, 0, "write", 131072, 32, 1, -1, 20000, 1000);
	take(b, st, 1);
}

/* A steady step of nr_rounds rounds whose point k of round r has the
 * figure base x (k + 1) + r; the tracked figure is the round's rounds[]. */
static struct pts_step *steady(struct builder *b, const char *name, const char *test,
			       unsigned np, unsigned nr_rounds, unsigned tracked,
			       void (*point)(struct builder *, unsigned, unsigned, unsigned))
{
	struct pts_step *st = add_step(b, name, "steady", test);

	st->steady = true;
	st->points_per_round = np;
	st->tracked_point = tracked;
	st->window = 5;
	st->max_rounds = 25;
	st->range_limit = 0.2;
	st->slope_limit = 0.1;
	st->nr_rounds = nr_rounds;
	st->rounds = calloc(nr_rounds, sizeof(double));
	snprintf(st->metric, sizeof(st->metric), "iops");
	for (unsigned r = 0; r < nr_rounds; r++) {
		for (unsigned k = 0; k < np; k++)
			point(b, r, k, r * np + k);
		st->rounds[r] = b->recs[b->nr - np + tracked].dir[DIR_WRITE].iops;
	}
	take(b, st, np * nr_rounds);
	st->has_window = nr_rounds >= st->window;
	st->reached = true;
	st->steady_round = nr_rounds;
	st->mean = st->rounds[nr_rounds - 1] - 2;
	st->range = 4;
	st->slope = 1;
	st->slope_excursion = 4;
	return st;
}

static const unsigned iops_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
static const uint64_t iops_bs[] = { 1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512 };

static void iops_point(struct builder *b, unsigned r, unsigned k, unsigned p)
{
	add_rec(b, p, "randrw", iops_bs[k % 8], 32, 4, (int)iops_mix[k / 8], 1000.0 * (k + 1) + r,
		100);
}

static void tp_point(struct builder *b, unsigned r, unsigned k, unsigned p)
{
	add_rec(b, p, "rw", 1048576, 32, 1, k ? 0 : 100, 3000.0 + r, 1000);
}

static const unsigned lat_mix[] = { 100, 65, 0 };
static const uint64_t lat_bs[] = { 8192, 4096, 512 };

static void lat_point(struct builder *b, unsigned r, unsigned k, unsigned p)
{
	add_rec(b, p, "randrw", lat_bs[k % 3], 1, 1, (int)lat_mix[k / 3], 10000, 50.0 + r);
}

static void flat_point(struct builder *b, unsigned r, unsigned k, unsigned p)
{
	(void)k;
	add_rec(b, p, "randwrite", 4096, 32, 4, -1, r < 3 ? 200000 : r == 3 ? 20000 : 50000, 100);
}

static const unsigned dv_tc[] = { 32, 16, 8, 4, 2, 1 };
static const unsigned dv_qd[] = { 32, 16, 8, 6, 4, 2, 1 };

static void dv_point(struct builder *b, unsigned r, unsigned k, unsigned p)
{
	unsigned tc = dv_tc[k / 7], qd = dv_qd[k % 7];

	add_rec(b, p, "randwrite", 4096, qd, tc, -1, 1000.0 * tc * qd + r, 10.0 * tc * qd);
}

static void build(struct builder *b, bool finished)
{
	struct pts_step *st;

	memset(b, 0, sizeof(*b));
	b->run.id = 7;
	b->run.steps = b->steps;
	snprintf(b->run.dev.model, sizeof(b->run.dev.model), "Example SSD 3.84TB");
	snprintf(b->run.dev.serial, sizeof(b->run.dev.serial), "SN123");
	snprintf(b->run.dev.host, sizeof(b->run.dev.host), "bench-host");
	b->run.dev.size_bytes = 3840000000000ull;
	b->run.dev.started_ms = 1700000000000ull;
	b->run.dev.finished_ms = finished ? 1700000100000ull : 0;

	purge_and_fill(b, "iops", true);
	steady(b, "iops", "iops", 56, 6, 54, iops_point);
	purge_and_fill(b, "tp", true);
	st = steady(b, "tp-1024k", "tp", 2, 5, 1, tp_point);
	snprintf(st->metric, sizeof(st->metric), "bw_bytes");
	purge_and_fill(b, "lat", true);
	st = steady(b, "lat", "lat", 9, 5, 7, lat_point);
	snprintf(st->metric, sizeof(st->metric), "lat_mean_ns");
	purge_and_fill(b, "wsat", false);
	st = steady(b, "wsat", "wsat", 1, 10, 0, flat_point);
	st->steady_round = 8;
	purge_and_fill(b, "hir", false);
	st = steady(b, "hir-pc", "hir", 1, 6, 0, flat_point);
	st->mean = 50000;
	for (unsigned k = 0; k < 2; k++) {
		st = add_step(b, k ? "hir-base1" : "hir-ws1", "sweep", "hir");
		st->pause_ns = k ? 0 : 5e9;
		for (unsigned i = 0; i < 3; i++)
			add_rec(b, i, "randwrite", 4096, 32, 4, -1, k ? 50000 : 75000, 100);
		take(b, st, 3);
	}
	purge_and_fill(b, "xsr", false);
	for (unsigned g = 0; g < 3; g++) {
		static const char *const names[] = { "xsr-seq1", "xsr-rnd", "xsr-seq2" };

		st = add_step(b, names[g], "sweep", "xsr");
		for (unsigned i = 0; i < 8; i++)
			add_rec(b, i, g == 1 ? "randwrite" : "write", g == 1 ? 8192 : 1048576, 32, 1,
				-1, g == 1 ? 100 : g == 0 ? 2000 : 300.0 * (i + 1) - 1, 500);
		take(b, st, 8);
	}
	purge_and_fill(b, "dirth", false);
	steady(b, "dirth-pc", "dirth", 1, 5, 0, flat_point);
	steady(b, "dirth-dv", "dirth", 42, 5, 0, dv_point);
	for (unsigned o = 0; o < 3; o++) {
		static const char *const ops[] = { "max", "mid", "min" };
		char name[32];

		snprintf(name, sizeof(name), "dirth-%s", ops[o]);
		st = add_step(b, name, "measure", "dirth");
		snprintf(st->operating_point, sizeof(st->operating_point), "%s", ops[o]);
		snprintf(st->operating_from, sizeof(st->operating_from), "dirth-dv");
		st->lat_ceiling_ns = o ? 0 : 5e6;
		add_rec(b, 0, "randwrite", 4096, o == 2 ? 1 : 16, o == 2 ? 1 : 32, -1, 400000, 900);
		take(b, st, 1);
	}
	/* a test of the suite nothing was stored for */
	add_step(b, "cbw-purge", "purge", "cbw");
}

static void unbuild(struct builder *b)
{
	for (unsigned i = 0; i < b->nr; i++) {
		free(b->recs[i].options_json);
		free(b->recs[i].dir[DIR_WRITE].bins);
	}
	for (unsigned i = 0; i < MAX_STEPS; i++)   /* a test may cut nr_steps */
		free(b->steps[i].rounds);
}

static char *render(const struct builder *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct pts_options opt = { NULL, "a test" };

	assert_non_null(out);
	if (pts_report_html(out, &b->run, 1, &opt))
		fail_msg("%s", err_msg());
	fclose(out);
	return text;
}

/* The text of the element marked data-pts="id" up to its end tag. */
static const char *block(const char *page, const char *id, const char *end, char *buf, size_t len)
{
	char mark[96];
	const char *at, *stop;

	snprintf(mark, sizeof(mark), "data-pts=\"%s\"", id);
	at = strstr(page, mark);
	if (!at)
		fail_msg("no %s on the page", id);
	stop = strstr(at, end);
	assert_non_null(stop);
	snprintf(buf, len, "%.*s", (int)(stop - at), at);
	return buf;
}

static void test_every_page_block(void **state)
{
	static const char *const ids[] = {
		"device", "iops-setup", "iops-convergence", "iops-window", "iops-window-table",
		"iops-table", "iops-2d", "iops-heatmap", "tp-setup", "tp-table", "tp-convergence-1",
		"tp-window-1", "lat-convergence", "lat-window", "lat-mean", "lat-max", "lat-p9999",
		"lat-p99999", "lat-2d-mean", "lat-2d-max", "wsat-iops-time", "wsat-iops-tgbw",
		"wsat-lat-tgbw", "wsat-table", "wsat-window", "hir-convergence", "hir-window",
		"hir-iops-time", "hir-table", "xsr-tp-time", "xsr-art-time", "xsr-mrt-time",
		"xsr-table", "xsr-recovery", "dirth-pc-convergence", "dirth-pc-window",
		"dirth-dv-convergence", "dirth-dv-window", "dirth-demand-variation",
		"dirth-demand-intensity", "dirth-dv-iops", "dirth-dv-lat", "dirth-op-table",
		"dirth-histogram-max", "dirth-histogram-mid", "dirth-histogram-min",
	};
	struct builder *b = calloc(1, sizeof(*b));
	char *page, buf[65536];

	(void)state;
	build(b, true);
	page = render(b);
	if (getenv("PTS_REPORT_PAGE")) {   /* keep the page to look at */
		FILE *f = fopen(getenv("PTS_REPORT_PAGE"), "w");

		if (f) {
			fputs(page, f);
			fclose(f);
		}
	}
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char mark[96];

		snprintf(mark, sizeof(mark), "data-pts=\"%s\"", ids[i]);
		if (!strstr(page, mark))
			fail_msg("no %s on the page", ids[i]);
	}
	/* the header: device, platform, purge and preconditioning */
	assert_non_null(strstr(page, "<th>model</th><td>Example SSD 3.84TB</td>"));
	assert_non_null(strstr(page, "<th>host</th><td>bench-host</td>"));
	assert_non_null(strstr(page, "<th>purge</th><td>BLKDISCARD over 1.00 TB</td>"));
	assert_non_null(strstr(page, "preconditioning (wipc)</th><td>sequential 128K, TC 1 / QD 32"));
	assert_null(strstr(page, "class=\"warn\">Run 7"));
	/* the IOPS table: 0/100 at 4K is point 54, 1000 x 55 + the window's
	 * rounds 1..5 (mean 3); 100/0 at 1024K point 0 */
	block(page, "iops-table", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td class=\"l\">0/100</td>"));
	assert_non_null(strstr(buf, "<td>55,003.0</td>"));
	assert_non_null(strstr(buf, "<td class=\"l\">100/0</td><td>1,003.0</td>"));
	/* the window's verdicts: range 4 of a mean, slope excursion 4 */
	block(page, "iops-window-table", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td>2..6</td><td>5</td>"));
	assert_non_null(strstr(buf, "class=\"l pass\">within"));
	/* latency: the mean is the window's mean (rounds 0..4: 52 µs), the
	 * 99.99th the window's worst stored (4 x 54 µs) */
	block(page, "lat-mean", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td>52.0</td>"));
	block(page, "lat-p9999", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td>216.0</td>"));
	block(page, "lat-max", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td>540.0</td>"));
	/* WSAT: fresh out of box 200K, the lowest minute 20K at round 4 */
	block(page, "wsat-table", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<td>200,000.0</td><td class=\"l\">round 1</td>"));
	assert_non_null(strstr(buf, "<td>20,000.0</td><td class=\"l\">round 4,"));
	assert_non_null(strstr(page, "The steady-state window first passed at round 8."));
	/* HIR: 75K after idle against the steady 50K */
	block(page, "hir-table", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "hir-ws1</td><td>5</td><td>3</td><td>75,000.0</td>"
			     "<td>75,000.0</td><td>1.50</td>"));
	/* XSR: the last group reaches 90% of the first's 2000 IOPS past its 6th minute (2100) */
	block(page, "xsr-recovery", "</p>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "xsr-seq2 reached 90% of the end throughput of xsr-seq1"));
	assert_non_null(strstr(buf, "after 7.0 minutes"));
	/* the operating points */
	block(page, "dirth-op-table", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "MaxIOPS</td><td>32 / 16</td>"));
	assert_non_null(strstr(buf, "MinIOPS</td><td>1 / 1</td>"));
	assert_non_null(strstr(buf, "mean response at most 5 ms"));
	/* demand variation: TC 32 x QD 1 is 32K + the window mean */
	block(page, "dirth-dv-iops", "</table>", buf, sizeof(buf));
	assert_non_null(strstr(buf, "<tr><td class=\"l\">TC 32</td><td>32,002.0</td>"));
	/* a test without stored rounds says so */
	assert_non_null(strstr(page, "No cbw preconditioning and demand-variation rounds stored"));
	/* the stimulus as it ran: one-minute points say so, µs as elsewhere */
	assert_non_null(strstr(page, "1024KiB .. 0.5KiB; each point ran 60 s</td>"));
	assert_null(strstr(page, "one minute each"));
	assert_null(strstr(page, " us<"));
	assert_non_null(strstr(page, "padding:0 24px"));
	free(page);
	/* a run at --time-scale 0.01: 0.6 s points, not "one minute" */
	for (unsigned i = 0; i < b->nr; i++)
		b->recs[i].runtime_ns = 600000000ull;
	page = render(b);
	assert_non_null(strstr(page, "1024KiB .. 0.5KiB; each point ran 0.6 s (the specification: "
			       "one minute)</td>"));
	free(page);
	unbuild(b);
	free(b);
}

static void test_incomplete_and_empty(void **state)
{
	struct builder *b = calloc(1, sizeof(*b));
	char *page;

	(void)state;
	build(b, false);
	/* the IOPS rounds fewer than a window: no window, said so */
	b->steps[2].nr_rounds = 3;
	b->steps[2].has_window = false;
	page = render(b);
	assert_non_null(strstr(page, "class=\"warn\">Run 7 is incomplete (it never finished)"));
	assert_non_null(strstr(page, "iops: 3 rounds, fewer than the window of 5"));
	free(page);
	/* a test whose steps hold nothing */
	b->run.nr_steps = 1;
	snprintf(b->steps[0].test, sizeof(b->steps[0].test), "wsat");
	page = render(b);
	assert_non_null(strstr(page, "No WSAT rounds stored in this run."));
	free(page);
	/* an unknown test: its steps listed */
	snprintf(b->steps[0].test, sizeof(b->steps[0].test), "custom");
	page = render(b);
	assert_non_null(strstr(page, "A test of the suite without a PTS page"));
	free(page);
	unbuild(b);
	free(b);
}

static void test_figures(void **state)
{
	struct builder *b = calloc(1, sizeof(*b));
	struct result_record *r;
	const struct result_record *one[1];
	char name[16];

	(void)state;
	r = add_rec(b, 0, "randrw", 4096, 1, 1, 65, 1000, 100);
	one[0] = r;
	assert_int_equal(pts_mix(r), 65);
	free(r->options_json);
	r->options_json = strdup("{}");
	assert_int_equal(pts_mix(r), 50);              /* fio's default rwmixread */
	snprintf(r->rw, sizeof(r->rw), "randread");
	assert_int_equal(pts_mix(r), 100);
	snprintf(r->rw, sizeof(r->rw), "write");
	assert_int_equal(pts_mix(r), 0);
	/* stored percentiles first */
	assert_true(fabs(pts_percentile_us(one, 1, 99.99) - 400) < 1e-9);
	/* without them, the histogram: 99% of 1000 at 100 µs, the rest at 500 */
	r->dir[DIR_WRITE].nr_lat_pct = 0;
	assert_true(fabs(pts_percentile_us(one, 1, 99.0) - 100) < 1e-9);
	assert_true(fabs(pts_percentile_us(one, 1, 99.5) - 500) < 1e-9);
	/* a bin above the maximum total latency cannot be: left out */
	r->dir[DIR_WRITE].bins[1].value_ns = r->dir[DIR_WRITE].lat.max + 1;
	assert_true(fabs(pts_percentile_us(one, 1, 99.5) - 100) < 1e-9);
	r->dir[DIR_WRITE].nr_bins = 0;
	assert_true(isnan(pts_percentile_us(one, 1, 99.5)));
	assert_true(fabs(pts_fig(r, PTS_MBS) - 4.096) < 1e-9);
	assert_true(fabs(pts_fig(r, PTS_LAT_MAX_US) - 1000) < 1e-9);
	assert_true(isnan(pts_fig(NULL, PTS_IOPS)));
	pts_bs_name(512, name, sizeof(name));
	assert_string_equal(name, "0.5K");
	pts_bs_name(1048576, name, sizeof(name));
	assert_string_equal(name, "1024K");
	unbuild(b);
	free(b);
}

static void test_write_error(void **state)
{
	struct builder *b = calloc(1, sizeof(*b));
	FILE *full = fopen("/dev/full", "w");

	(void)state;
	if (!full) {
		free(b);
		skip();
	}
	build(b, true);
	err_clear();
	assert_int_equal(pts_report_html(full, &b->run, 1, NULL), -1);
	assert_non_null(strstr(err_msg(), "write error"));
	fclose(full);
	unbuild(b);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_page_block),
		cmocka_unit_test(test_incomplete_and_empty),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
