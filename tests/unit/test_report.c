/* test_report.c - the report module on synthetic data: SVG scales, ticks
 * and axis labels, the reviews' point order, heatmap colours, the computed
 * sentences, the spec sheet parser and its errors, and the page itself
 * (with runs that are not whole marked). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/analysis/report.h"
#include "report/review/review.h"
#include "report/analysis/spec.h"
#include "report/review/html_heat.h"
#include "report/svg/svg.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "helpers/tmpdir.h"
#include "helpers/fixtures.h"

static char *render(void (*draw)(FILE *, void *), void *arg)
{
	struct fx_capture c;

	draw(fx_capture_open(&c), arg);
	return fx_capture_text(&c);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_linear_scale(void **state)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	(void)state;

	svg_scale_init(&s, 3, 97, 300, 0, true);
	assert_false(s.log);
	assert_true(s.dmin == 0);
	assert_true(s.dmax == 100);
	assert_true(s.step == 20);
	assert_true(fabs(svg_scale_map(&s, 0) - 300) < 1e-9);
	assert_true(fabs(svg_scale_map(&s, 100) - 0) < 1e-9);
	assert_true(fabs(svg_scale_map(&s, 50) - 150) < 1e-9);
	unsigned n = svg_ticks(&s, t, SVG_MAX_TICKS);
	assert_int_equal(n, 6);
	assert_true(t[0] == 0 && t[5] == 100 && t[1] == 20);
	/* a flat series still gets a usable range */
	svg_scale_init(&s, 5, 5, 0, 100, true);
	assert_true(s.dmax > s.dmin);
}

static void test_log_scale(void **state)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	(void)state;

	/* exactly 100x stays linear, more becomes log */
	svg_scale_init(&s, 10, 1000, 0, 100, true);
	assert_false(s.log);
	svg_scale_init(&s, 8.8, 2831, 200, 0, true);
	assert_true(s.log);
	assert_true(s.dmin == 1 && s.dmax == 10000);
	assert_true(fabs(svg_scale_map(&s, 100) - 100) < 1e-9);
	assert_true(fabs(svg_scale_map(&s, 1) - 200) < 1e-9);
	unsigned n = svg_ticks(&s, t, SVG_MAX_TICKS);
	assert_int_equal(n, 5);
	assert_true(fabs(t[2] - 100) < 1e-9);
	/* not allowed, or zero in the data: linear */
	svg_scale_init(&s, 8.8, 2831, 200, 0, false);
	assert_false(s.log);
	svg_scale_init(&s, 0, 2831, 200, 0, true);
	assert_false(s.log);
}

static void test_tick_format(void **state)
{
	char b[32];
	(void)state;

	svg_format_tick(0, b, sizeof(b));
	assert_string_equal(b, "0");
	svg_format_tick(2500, b, sizeof(b));
	assert_string_equal(b, "2.5K");
	svg_format_tick(1500000, b, sizeof(b));
	assert_string_equal(b, "1.5M");
	svg_format_tick(120, b, sizeof(b));
	assert_string_equal(b, "120");
	svg_format_tick(0.01, b, sizeof(b));
	assert_string_equal(b, "0.01");
}

static void draw_chart(FILE *f, void *arg)
{
	assert_int_equal(svg_line_chart(f, arg), 0);
}

static void test_line_chart_axes(void **state)
{
	static const char *const x[] = { "1/1", "2/1", "4/1" };
	double a[] = { 10, 200, 3000 }, b[] = { 20, NAN, 40 };
	struct svg_series s[] = { { "drive <A>", NULL, a, 3 }, { "B", NULL, b, 3 } };
	struct svg_chart chart = { "lat & more", "QD/jobs", "mean latency (us)", x, 3, s, 2 };
	(void)state;

	char *svg = render(draw_chart, &chart);
	assert_non_null(strstr(svg, "<svg"));
	assert_non_null(strstr(svg, "mean latency (us) (log scale)"));
	assert_non_null(strstr(svg, ">QD/jobs<"));
	assert_non_null(strstr(svg, ">4/1<"));
	assert_non_null(strstr(svg, "drive &lt;A&gt;"));
	assert_non_null(strstr(svg, "lat &amp; more"));
	assert_null(strstr(svg, "<A>"));
	assert_int_equal(count(svg, "<path class=\"line\""), 2);
	/* B did not run 2/1: its points are joined over it (one move) */
	const char *pb = strstr(svg, "data-series=\"1\"");
	assert_non_null(pb);
	const char *pd = strstr(pb, "d=\"M");
	assert_non_null(pd);
	unsigned moves = 0;
	for (const char *q = pd + 3; *q && *q != '"'; q++)
		moves += *q == 'M';
	assert_int_equal(moves, 1);
	assert_int_equal(count(svg, "class=\"legend\""), 2);
	assert_int_equal(count(svg, "<circle"), 5);
	/* short names keep their size */
	assert_null(strstr(svg, "textLength"));
	free(svg);

	/* a name too long for the legend wraps onto lines of the chart's
	 * 12 px, never squeezed or cut */
	s[1].name = "P5336 at home (model, scale 1/1000)";
	svg = render(draw_chart, &chart);
	assert_null(strstr(svg, "textLength"));
	assert_null(strstr(svg, "font-size=\"10\""));
	assert_non_null(strstr(svg, ">P5336 at home </tspan><tspan "));
	assert_non_null(strstr(svg, ">(model, scale 1/</tspan><tspan "));
	assert_non_null(strstr(svg, ">1000)</tspan></text>"));
	free(svg);

	struct svg_series none[] = { { "x", NULL, b + 1, 1 } };
	struct svg_chart empty = { "t", "x", "y", x, 1, none, 1 };
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(svg_line_chart(f, &empty), -1);
	assert_non_null(strstr(err_msg(), "no values"));
	fclose(f);
}

/* Drive series: coloured and marked by the drive's page index, whatever
 * their place in the chart; a series without a value has no legend entry;
 * an empty category (the gap between job groups) lifts the pen. */
static void test_line_chart_drives(void **state)
{
	static const char *const x[] = { "1/1", "2/1", "", "1/4", "2/4" };
	double a[] = { 1, NAN, NAN, 3, 4 }, none[] = { NAN, NAN, NAN, NAN, NAN };
	struct svg_series s[] = { { "gone", NULL, none, 5, 1 }, { "C", NULL, a, 5, 3 } };
	struct svg_chart chart = { "t", "x", "y", x, 5, s, 2 };
	char want[64];
	(void)state;

	char *svg = render(draw_chart, &chart);
	snprintf(want, sizeof(want), "data-drive=\"2\" fill=\"none\" stroke=\"%s\"",
		 svg_palette(2));
	assert_non_null(strstr(svg, want));
	assert_non_null(strstr(svg, "data-drives=\"1\""));
	assert_int_equal(count(svg, "class=\"legend-item\""), 1);
	assert_non_null(strstr(svg, "data-legend=\"2\" data-drive=\"2\">"));
	assert_null(strstr(svg, ">gone<"));
	assert_int_equal(count(svg, "<circle data-series=\"2\" data-drive=\"2\""), 3);
	/* 1/1 alone, then 1/4 to 2/4 after the gap: two moves, one line */
	const char *d = strstr(strstr(svg, "<path class=\"line\""), " d=\"");
	assert_int_equal(d[4], 'M');
	const char *m2 = strchr(d + 5, 'M');
	assert_non_null(m2);
	assert_true(m2 < strchr(d + 4, '"'));
	assert_non_null(strchr(m2, 'L'));
	free(svg);
}

/* The right axis has its own round ticks, not the left's scaled. */
static void test_right_axis_round_ticks(void **state)
{
	static const char *const x[] = { "1/1", "2/1" };
	double mbs[] = { 120, 370 };
	struct svg_series s[] = { { "A", NULL, mbs, 2, 1 } };
	struct svg_chart chart = { "t", "x", "MB/s", x, 2, s, 1 };
	(void)state;

	chart.y2_factor = 1e6 / 4096;   /* IOPS of 4K */
	chart.y2_label = "IOPS";
	char *svg = render(draw_chart, &chart);
	assert_null(strstr(svg, ">30.5K<"));
	assert_null(strstr(svg, ">91.6K<"));
	/* 0..400 MB/s is 0..97.7K IOPS: ticks 0, 20K ... 80K */
	assert_non_null(strstr(svg, "text-anchor=\"start\">20K<"));
	assert_non_null(strstr(svg, "text-anchor=\"start\">80K<"));
	free(svg);
}

static void draw_bars(FILE *f, void *arg)
{
	static const char *const names[] = { "p5430-review (32/16)", "ps1030-quick (32/1)",
					     "6600-ion-quick (32/1)", "j5060-quick (32/1)",
					     "fio-import (16/4)" };
	static const double v[] = { 100, 200, 300, 400, 500 };
	static const unsigned drive[] = { 1, 3, 4, 5, 2 };
	(void)arg;
	assert_int_equal(svg_bar_chart(f, "bars", "MB/s", names, v, 5, drive), 0);
}

/* Bars of five drives: coloured by drive, hidden with it by a legend
 * click (data-series in a data-drives chart), names wrapped under them. */
static void test_bar_chart_drives(void **state)
{
	char want[96];
	(void)state;

	char *svg = render(draw_bars, NULL);
	assert_non_null(strstr(svg, "data-drives=\"1\""));
	snprintf(want, sizeof(want), "<g class=\"bar\" data-series=\"4\" data-drive=\"4\">"
		 "<rect class=\"bar\" x=");
	assert_non_null(strstr(svg, want));
	snprintf(want, sizeof(want), "fill=\"%s\"", svg_palette(4));
	assert_non_null(strstr(strstr(svg, "data-drive=\"4\">"), want));
	assert_int_equal(count(svg, "class=\"legend-item\""), 5);
	assert_non_null(strstr(svg, ">6600-ion-</tspan><tspan "));
	assert_non_null(strstr(svg, ">quick (32/1)</tspan></text>"));
	free(svg);
}

static void test_heat_color(void **state)
{
	char pos[8], neg[8], small[8], zero[8];
	unsigned r, g, b, r2, g2, b2;
	(void)state;

	svg_heat_color(60, pos, sizeof(pos));
	svg_heat_color(-60, neg, sizeof(neg));
	svg_heat_color(5, small, sizeof(small));
	svg_heat_color(0, zero, sizeof(zero));
	assert_string_equal(zero, "#ffffff");
	assert_int_equal(sscanf(pos + 1, "%2x%2x%2x", &r, &g, &b), 3);
	assert_true(g > r && g > b);               /* green when ahead */
	assert_int_equal(sscanf(neg + 1, "%2x%2x%2x", &r, &g, &b), 3);
	assert_true(r > g && r > b);               /* red when behind */
	assert_int_equal(sscanf(small + 1, "%2x%2x%2x", &r2, &g2, &b2), 3);
	assert_int_equal(sscanf(pos + 1, "%2x%2x%2x", &r, &g, &b), 3);
	assert_true(r2 > r);                       /* paler for a smaller difference */
	svg_heat_color(50, small, sizeof(small));
	assert_string_equal(small, pos);           /* saturates at 50% */
}

static void draw_heatmap(FILE *f, void *arg)
{
	static const char *const rows[] = { "16K", "128K" };
	static const char *const cols[] = { "1", "4" };
	(void)arg;
	double pct[] = { 12.34, -7.5, NAN, 0 };
	struct svg_heat h = { "a vs b", NULL, rows, 2, cols, 2, pct, NULL, NULL, NULL };
	assert_int_equal(svg_heatmap(f, &h), 0);
}

static void test_heatmap_cells(void **state)
{
	(void)state;
	char *svg = render(draw_heatmap, NULL);
	assert_int_equal(count(svg, "class=\"cell\""), 4);
	assert_non_null(strstr(svg, ">+12.3%<"));
	assert_non_null(strstr(svg, ">-7.5%<"));
	assert_non_null(strstr(svg, ">+0.0%<"));
	assert_non_null(strstr(svg, "#f4f4f4"));    /* the missing cell */
	assert_null(strstr(svg, "class=\"key\""));  /* no key asked for */
	free(svg);
}

/* Three drives' values: cells are the first minus the second in the unit,
 * coloured by how far the first is ahead (for latency: lower), with a key,
 * and every drive's values beside it for the script, '<' escaped. */
static void draw_pair(FILE *f, void *arg)
{
	static const char *const rows[] = { "16K", "128K" };
	static const char *const cols[] = { "1", "4" };
	static const char *const drives[] = { "A", "B</script>", "C" };
	const bool *lower = arg;
	double v[] = { 2.0, 1.0, 3.0, NAN,        /* A */
		       1.0, 1.0, 6.0, 1.0,        /* B */
		       0.5, 0.5, 0.5, 0.5 };      /* C */
	struct html_heat h = { "t-1", "throughput difference", "GiB/s", 2, *lower, rows, 2, cols, 2,
			       drives, 3, v };
	assert_int_equal(html_heat_pair(f, &h, 0, 1), 0);
}

/* A against C: 2 against 0.5 GiB/s, past twice: the hover says 4.0x */
static void draw_pair_far(FILE *f, void *arg)
{
	static const char *const rows[] = { "16K", "128K" };
	static const char *const cols[] = { "1", "4" };
	static const char *const drives[] = { "A", "B", "C" };
	double v[] = { 2.0, 1.0, 3.0, NAN, 1.0, 1.0, 6.0, 1.0, 0.5, 0.5, 0.5, 0.5 };
	struct html_heat h = { "t-1", "throughput difference", "GiB/s", 2, false, rows, 2, cols, 2,
			       drives, 3, v };
	(void)arg;
	assert_int_equal(html_heat_pair(f, &h, 0, 2), 0);
}

static void test_heat_pair(void **state)
{
	(void)state;
	bool lower = false;
	char *svg = render(draw_pair, &lower), green[8], red[8];

	svg_heat_color(100, green, sizeof(green));
	svg_heat_color(-50, red, sizeof(red));
	assert_non_null(strstr(svg, "A vs B&lt;/script&gt;: throughput difference"));
	assert_non_null(strstr(svg, "\"B\\u003c/script>\""));  /* in the values */
	assert_null(strstr(svg, "B</script>"));     /* a name cannot close the script */
	assert_non_null(strstr(svg, ">+1.00<"));    /* 2 - 1 */
	assert_non_null(strstr(svg, ">+0.00<"));
	assert_non_null(strstr(svg, ">-3.00<"));    /* 3 - 6: 50% behind */
	assert_non_null(strstr(svg, green));
	assert_non_null(strstr(svg, red));
	assert_non_null(strstr(svg, "16K, 1: A 2.00, B&lt;/script&gt; 1.00 GiB/s (+100.0%)"));
	assert_int_equal(count(svg, "class=\"key\""), 7);
	assert_non_null(strstr(svg, "data-heat-of=\"t-1\""));
	assert_non_null(strstr(svg, "[2,1,3,null]"));
	assert_non_null(strstr(svg, "[0.5,0.5,0.5,0.5]"));
	free(svg);
	/* past twice the other drive's figure: the ratio (issue 27.11) */
	svg = render(draw_pair_far, NULL);
	assert_non_null(strstr(svg, "16K, 1: A 2.00, C 0.50 GiB/s (4.0x)"));
	assert_non_null(strstr(svg, "16K, 4: A 1.00, C 0.50 GiB/s (+100.0%)"));
	free(svg);
	/* latency: the lower value is ahead, so +1 µs is red */
	lower = true;
	svg = render(draw_pair, &lower);
	char *cell = strstr(svg, "data-k=\"0\"");
	assert_non_null(cell);
	assert_non_null(strstr(cell, red) && strstr(cell, red) < strstr(cell, "</rect>") ? cell : NULL);
	free(svg);
}

/* The default pair: the reviewed drive and the one sharing the most
 * cells with it; when it shares none, the pair that shares the most; when
 * no pair shares enough, a note instead of a grid. */
static void draw_default(FILE *f, void *arg)
{
	static const char *const rows[] = { "16K", "128K" };
	static const char *const cols[] = { "1", "4" };
	static const char *const drives[] = { "A", "B", "C" };
	const double *v = arg;
	struct html_heat h = { "t-2", "what", "GiB/s", 2, false, rows, 2, cols, 2, drives, 3, v };
	assert_int_equal(html_heat_default(f, &h, 0), 0);
}

static void test_heat_default_pair(void **state)
{
	double both[] = { 1, 2, 3, 4,  NAN, NAN, NAN, 9,  2, 2, 2, 2 };
	double none[] = { 1, 2, 3, 4,  NAN, NAN, NAN, NAN,  NAN, NAN, NAN, NAN };
	double others[] = { NAN, NAN, NAN, NAN,  1, 2, 3, 4,  2, 2, NAN, NAN };
	(void)state;

	char *svg = render(draw_default, both);   /* B shares one cell, C four */
	assert_non_null(strstr(svg, "<title>A vs C: what</title>"));
	assert_int_equal(count(svg, "#f4f4f4\""), 0);
	free(svg);
	svg = render(draw_default, others);       /* A measured nothing */
	assert_non_null(strstr(svg, "<title>B vs C: what</title>"));
	free(svg);
	svg = render(draw_default, none);
	assert_null(strstr(svg, "<svg"));
	assert_non_null(strstr(svg, "No heatmap of what: no two drives"));
	free(svg);
	assert_int_equal(html_heat_shared(&(struct html_heat){ "x", "w", "u", 0, false, NULL, 2,
							NULL, 2, NULL, 3, both }, 0, 1), 1);
}

static void test_point_order(void **state)
{
	(void)state;
	assert_true(report_point_order(32, 1, 1, 4) < 0);
	assert_true(report_point_order(2, 1, 4, 1) < 0);
	assert_true(report_point_order(1, 16, 32, 8) > 0);
	assert_int_equal(report_point_order(8, 4, 8, 4), 0);
	assert_int_equal(report_pct_diff(110, 100) > 9.99 && report_pct_diff(110, 100) < 10.01, 1);
	assert_true(isnan(report_pct_diff(1, 0)));
}

/* a sweep of one drive: rw/bs over iodepth {1..32} x numjobs, values v(qd,jobs) */
static void fill_record(struct result_record *r, const char *rw, uint64_t bs, int dir,
			unsigned qd, unsigned jobs, double iops, double lat_us)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->rw, sizeof(r->rw), "%s", rw);
	r->bs = bs;
	r->iodepth = qd;
	r->numjobs = jobs;
	r->dir[dir].ios = (uint64_t)iops * 10;
	r->dir[dir].iops = iops;
	r->dir[dir].bw_bytes = iops * (double)bs;
	r->dir[dir].clat.n = r->dir[dir].ios;
	r->dir[dir].clat.mean = lat_us * 1000;
	r->dir[dir].lat.n = r->dir[dir].ios;
	r->dir[dir].lat.mean = lat_us * 1000 + 5000;  /* must not be mixed in */
	r->dir[dir].clat_pct[0] = (struct pct_value){ 99.0, (uint64_t)(lat_us * 2000) };
	r->dir[dir].clat_pct[1] = (struct pct_value){ 99.9, (uint64_t)(lat_us * 3000) };
	r->dir[dir].clat_pct[2] = (struct pct_value){ 99.99, (uint64_t)(lat_us * 4000) };
	r->dir[dir].nr_clat_pct = 3;
}

static void test_points_sorted_and_replaced(void **state)
{
	struct result_record recs[4];
	struct report_point *pts;
	unsigned n;
	(void)state;

	fill_record(&recs[0], "randread", 4096, DIR_READ, 1, 4, 100, 10);
	fill_record(&recs[1], "randread", 4096, DIR_READ, 32, 1, 200, 10);
	fill_record(&recs[2], "randread", 4096, DIR_READ, 1, 4, 300, 10);  /* replaces [0] */
	fill_record(&recs[3], "randrw", 4096, DIR_READ, 1, 1, 50, 10);
	recs[3].dir[DIR_WRITE] = recs[3].dir[DIR_READ];
	assert_int_equal(report_points(recs, 4, &pts, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(pts[0].rw, "randread");
	assert_int_equal(pts[0].iodepth, 32);
	assert_int_equal(pts[1].numjobs, 4);
	assert_true(pts[1].iops == 300);
	assert_true(fabs(pts[1].mbs - 300 * 4096 / 1e6) < 1e-9);
	assert_true(fabs(pts[1].p999_us - 30) < 1e-9);
	assert_string_equal(pts[2].rw, "randrw");
	assert_int_equal(pts[2].dir, DIR_READ);
	assert_int_equal(pts[3].dir, DIR_WRITE);
	assert_true(fabs(pts[1].lat_mean_us - 10) < 1e-9);   /* clat, as the percentiles */
	char name[96];
	report_test_name(&pts[0], name, sizeof(name));
	assert_string_equal(name, "4K random read");
	free(pts);
	report_bs_name(131072, name, sizeof(name));
	assert_string_equal(name, "128K");
	report_bs_name(1 << 20, name, sizeof(name));
	assert_string_equal(name, "1M");
	/* with lat percentiles recorded, mean and percentiles are both lat */
	recs[1].dir[DIR_READ].lat_pct[0] = (struct pct_value){ 99.0, 77000 };
	recs[1].dir[DIR_READ].nr_lat_pct = 1;
	assert_int_equal(report_points(recs, 2, &pts, &n), 0);
	assert_int_equal(pts[0].iodepth, 32);
	assert_true(fabs(pts[0].lat_mean_us - 15) < 1e-9);
	assert_true(fabs(pts[0].p99_us - 77) < 1e-9);
	assert_true(isnan(pts[0].p999_us));
	free(pts);
	assert_int_equal(report_points(NULL, 0, &pts, &n), 0);
	assert_int_equal(n, 0);
}

static const unsigned qds[] = { 1, 2, 4, 8, 16, 32 };
static const unsigned jobs[] = { 1, 4, 8 };

/* 18 points that rise and flatten at 8/4; latency grows with outstanding I/O */
static void sweep(struct sweep_point *sp)
{
	for (unsigned j = 0; j < 3; j++)
		for (unsigned q = 0; q < 6; q++) {
			struct sweep_point *p = &sp[j * 6 + q];
			unsigned outstanding = qds[q] * jobs[j];
			p->iodepth = qds[q];
			p->numjobs = jobs[j];
			p->value = outstanding >= 32 ? 150000 : 150000.0 * outstanding / 32;
			p->lat_mean_us = 8.8 * outstanding;
		}
	sp[17].value = 151000;  /* the peak at 32/8 */
}

static void test_sweep_facts(void **state)
{
	struct sweep_point sp[18];
	struct sweep_facts f;
	(void)state;

	sweep(sp);
	assert_int_equal(sweep_facts(sp, 18, 120000, &f), 0);
	assert_int_equal(f.peak, 17);
	assert_int_equal(f.one_one, 0);
	assert_int_equal(f.worst_lat, 17);
	/* 32/1 is 150000 >= 95% of 151000: first flat point */
	assert_int_equal(sp[f.flat].iodepth, 32);
	assert_int_equal(sp[f.flat].numjobs, 1);
	assert_true(f.rated);
	/* >= 120000: 32/1; 8/4 16/4 32/4; 4/8 .. 32/8 -> 1 + 3 + 4 = 8 */
	assert_int_equal(f.above_rating, 8);
	assert_int_equal(sweep_facts(sp, 0, 0, &f), -1);
}

static void test_sweep_sentences(void **state)
{
	struct sweep_point sp[18];
	char text[1024];
	(void)state;

	sweep(sp);
	assert_int_equal(sweep_sentences(sp, 18, "IOPS", 120000, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "Peak 151K IOPS at 32/8."));
	assert_non_null(strstr(text, "At 1/1: 4.688K IOPS, mean latency 8.80 \u00b5s."));
	assert_non_null(strstr(text, "Worst mean latency 2,252.8 \u00b5s at 32/8."));
	assert_non_null(strstr(text, "flattens at 32/1"));
	assert_non_null(strstr(text, "above its 120K IOPS rating in 8 of 18 points"));
	/* never reaching the rating */
	assert_int_equal(sweep_sentences(sp, 18, "IOPS", 1e6, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "Below its 1M IOPS rating at every point (best 15% of it)"));
	/* MB/s with thousands separators and no rating */
	for (unsigned i = 0; i < 18; i++)
		sp[i].value /= 10;
	assert_int_equal(sweep_sentences(sp, 18, "MB/s", 0, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "Peak 15,100.0 MB/s at 32/8."));
	assert_null(strstr(text, "rating"));
	/* a sweep still rising at its end */
	for (unsigned i = 0; i < 18; i++)
		sp[i].value = i + 1;
	assert_int_equal(sweep_sentences(sp, 18, "MB/s", 0, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "still rises at the last point (32/8)"));
	/* a short buffer truncates, never overflows */
	char small[16];
	assert_int_equal(sweep_sentences(sp, 18, "MB/s", 0, small, sizeof(small)), 0);
	assert_int_equal(strlen(small), 15);
}

static const char good_spec[] =
	"# Solidigm D5-P5430 30.72TB\n"
	"[drive]\nmodel = Solidigm D5-P5430\ncapacity_tb = 30.72\n"
	"interface = PCIe 4.0 x4, NVMe 1.4c\niu_kib = 8\n\n"
	"[rated]\nseq_read_mbs = 7000\nseq_write_mbs=3000\n"
	"rand_read_iops = 934500\nrand_read_bs = 4k\n"
	"rand_write_iops = 120000\nrand_write_bs = 16KiB\n"
	"; comment\npower_active_w = 25\npower_idle_w = 5\ndwpd = 0.58\npbw = 31.92\n";

static void test_spec_parse(void **state)
{
	struct drive_spec s;
	bool iops;
	(void)state;

	assert_int_equal(spec_parse(good_spec, "p5430.ini", &s), 0);
	assert_string_equal(s.model, "Solidigm D5-P5430");
	assert_string_equal(s.interface, "PCIe 4.0 x4, NVMe 1.4c");
	assert_int_equal(s.iu_kib, 8);
	assert_true(s.capacity_tb == 30.72);
	assert_int_equal(s.rand_read_bs, 4096);
	assert_int_equal(s.rand_write_bs, 16384);
	assert_true(s.dwpd == 0.58);
	assert_true(spec_rating_for(&s, "randread", 4096, DIR_READ, &iops) == 934500 && iops);
	assert_true(spec_rating_for(&s, "randwrite", 4096, DIR_WRITE, &iops) == 0);
	assert_true(spec_rating_for(&s, "randwrite", 16384, DIR_WRITE, &iops) == 120000);
	assert_true(spec_rating_for(&s, "read", 131072, DIR_READ, &iops) == 7000 && !iops);
	assert_true(spec_rating_for(&s, "write", 16384, DIR_WRITE, &iops) == 0);
	assert_true(spec_rating_for(NULL, "read", 131072, DIR_READ, &iops) == 0);
	/* what a test is judged against: a fill step is rated, a workload's
	 * phase (the CDN fill, 1M writes) never, nor a rating in the other
	 * unit (issue 27.3) */
	struct report_point fill = { .rw = "write", .bs = 131072, .dir = DIR_WRITE,
				     .section = SECTION_FILL };
	snprintf(fill.group, sizeof(fill.group), "seq-fill-128k");
	assert_true(report_test_rating(&s, &fill) > 0);
	struct report_point cdn = { .rw = "write", .bs = 1048576, .dir = DIR_WRITE,
				    .section = SECTION_CDN };
	snprintf(cdn.group, sizeof(cdn.group), "cdn-fill");
	assert_true(spec_rating_for(&s, "write", 1048576, DIR_WRITE, &iops) > 0);
	assert_true(report_test_rating(&s, &cdn) == 0);
	struct report_point seq = { .rw = "read", .bs = 131072, .dir = DIR_READ };
	assert_true(report_test_rating(&s, &seq) == 7000);
	struct report_point rr16 = { .rw = "randwrite", .bs = 16384, .dir = DIR_WRITE };
	assert_true(report_test_rating(&s, &rr16) == 120000);
	struct report_point rr64 = { .rw = "randread", .bs = 65536, .dir = DIR_READ };
	assert_true(report_test_rating(&s, &rr64) == 0);
}

static void expect_spec_error(const char *text, const char *message)
{
	struct drive_spec s;

	assert_int_equal(spec_parse(text, "x.ini", &s), -1);
	if (!strstr(err_msg(), message))
		fail_msg("error '%s' lacks '%s'", err_msg(), message);
}

static void test_spec_errors(void **state)
{
	(void)state;
	expect_spec_error("[drive]\nmodel = a\n[rated]\nseq_read_mbs = fast\n",
			  "x.ini:4:seq_read_mbs: 'fast' is not a non-negative number");
	expect_spec_error("[drive]\nmodel = a\nspeed = 1\n", "x.ini:3:speed: unknown key in [drive]");
	expect_spec_error("[drive]\nmodel = a\n[power]\n", "x.ini:3: unknown section [power]");
	expect_spec_error("model = a\n", "x.ini:1:model: key outside a section");
	expect_spec_error("[drive]\nmodel\n", "x.ini:2: expected key = value");
	expect_spec_error("[drive]\nmodel = a\nmodel = b\n", "x.ini:3:model: duplicate key");
	expect_spec_error("[drive]\ncapacity_tb = 1\n", "x.ini: [drive] model is required");
	expect_spec_error("[drive]\nmodel = a\n[rated]\nrand_read_bs = 4q\n",
			  "x.ini:4:rand_read_bs: '4q' is not a size");
	expect_spec_error("[drive]\nmodel = a\niu_kib = 4.5\n", "x.ini:3:iu_kib: '4.5' is not a whole");
	expect_spec_error("[drive]\nmodel = a\n[rated]\ndwpd = -1\n", "x.ini:4:dwpd");
	expect_spec_error("[drive]\nmodel =\n", "x.ini:2:model: empty value");
	expect_spec_error("[drive\nmodel = a\n", "x.ini:1: malformed section header");
	struct drive_spec s;
	assert_int_equal(spec_load("/nonexistent/spec.ini", &s, NULL), -1);
	assert_non_null(strstr(err_msg(), "/nonexistent/spec.ini"));
}

/* A spec file of a modelled drive: its [model] section (any keys, before,
 * between or after the sheet's sections) is skipped, and nothing else is:
 * the sheet's keys after it still count, other sections stay errors. */
static void test_spec_skips_model_section(void **state)
{
	static const char with_model[] =
		"[model]\ncell = qlc\nop = 7%\nbogus_line_without_equals\n"
		"[drive]\nmodel = Solidigm D5-P5336 122.88TB\ncapacity_tb = 122.88\n"
		"[ model ]\nchannels = 16\nmodel = not the drive's name\n"
		"[rated]\nseq_write_mbs = 3000\n";
	struct drive_spec s;
	(void)state;

	assert_int_equal(spec_parse(with_model, "p5336.ini", &s), 0);
	assert_string_equal(s.model, "Solidigm D5-P5336 122.88TB");
	assert_true(s.capacity_tb == 122.88);
	assert_true(s.seq_write_mbs == 3000);
	/* a key of the sheet after [model] is checked again */
	expect_spec_error("[drive]\nmodel = a\n[model]\ncell = qlc\n[rated]\nspeed = 1\n",
			  "x.ini:6:speed: unknown key in [rated]");
	/* only [model] is skipped: other sections keep the message */
	expect_spec_error("[drive]\nmodel = a\n[models]\n",
			  "x.ini:3: unknown section [models] (known: drive, rated)");
	expect_spec_error("[model]\ncell = qlc\n", "x.ini: [drive] model is required");
}

static void test_spec_load_file(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	int fd = tmp_file("test_report_spec", path, sizeof(path));
	struct drive_spec s;
	char *text;
	(void)state;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, good_spec, strlen(good_spec)), (ssize_t)strlen(good_spec));
	close(fd);
	assert_int_equal(spec_load(path, &s, &text), 0);
	assert_string_equal(text, good_spec);
	assert_true(s.pbw == 31.92);
	free(text);
	unlink(path);
}

struct page {
	struct report_drive drives[2];
	struct report_options opt;
};

static void draw_page(FILE *f, void *arg)
{
	struct page *p = arg;
	assert_int_equal(report_html(f, p->drives, 2, &p->opt), 0);
}

static void test_report_page(void **state)
{
	/* two drives: a 4K random read sweep (18 points), a 128K sequential
	 * write single point with a time series */
	struct result_record a[19], b[19];
	struct series_record series[3] = {
		{ 1000, { 0, 22900 }, { 0, 3000000000ull }, { 0, 650000 } },
		{ 2000, { 0, 23600 }, { 0, 3100000000ull }, { 0, 640000 } },
		{ 3000, { 0, 22100 }, { 0, 2900000000ull }, { 0, 700000 } },
	};
	struct drive_spec spec;
	struct page page = { { { "P5430 <30T>", a, 19, &spec }, { "J5060", b, 19, NULL } },
			     { "review & test", "synthetic" } };
	(void)state;

	assert_int_equal(spec_parse(good_spec, "p5430.ini", &spec), 0);
	for (unsigned j = 0; j < 3; j++)
		for (unsigned q = 0; q < 6; q++) {
			unsigned o = qds[q] * jobs[j];
			fill_record(&a[j * 6 + q], "randread", 4096, DIR_READ, qds[q], jobs[j],
				    o >= 64 ? 975000 : 15000.0 * o, 80 + o);
			fill_record(&b[j * 6 + q], "randread", 4096, DIR_READ, qds[q], jobs[j],
				    o >= 32 ? 1400000 : 42000.0 * o, 100 + 2 * o);
		}
	fill_record(&a[18], "write", 131072, DIR_WRITE, 16, 1, 24000, 660);
	a[18].series = series;
	a[18].nr_series = 3;
	fill_record(&b[18], "write", 131072, DIR_WRITE, 16, 1, 22000, 700);

	char *html = render(draw_page, &page);
	assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
	assert_non_null(strstr(html, "<title>review &amp; test</title>"));
	/* one small inline script (legend clicks, the drive selector), never one
	 * loaded from anywhere; the heatmaps' values are inert JSON */
	assert_int_equal(count(html, "<script>"), 1);
	assert_int_equal(count(html, "<script"), 1 + count(html, "<script type=\"application/json\""));
	assert_null(strstr(html, "<script src"));
	assert_true(strlen(strstr(html, "<script>")) < 3200);
	assert_non_null(strstr(html, "<g class=\"legend-item\" data-legend=\"0\" data-drive=\"0\">"));
	assert_non_null(strstr(html, "svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "));
	assert_non_null(strstr(html, " data-drives=\"1\" data-emph=\"1\">"));
	assert_null(strstr(html, "http://") && strstr(html, "http://") != strstr(html, "http://www.w3.org"));
	assert_non_null(strstr(html, "P5430 &lt;30T&gt;"));
	/* sweep: IOPS and MB/s as one chart on two axes, then latency, the
	 * points in review order; the reviewed (first) drive drawn heavier,
	 * each dot's values in its hover title */
	assert_non_null(strstr(html, "4K random read: throughput"));
	assert_null(strstr(html, "4K random read: bandwidth"));
	assert_non_null(strstr(html, "4K random read: mean latency"));
	assert_non_null(strstr(html, "rotate(90 "));
	assert_non_null(strstr(html, "stroke-width=\"3.5\""));
	assert_non_null(strstr(html, "<title>P5430 &lt;30T&gt;: 1/1 \u2192 "));
	/* a gap between jobs groups: an unnamed category between 32/1 and 1/4 */
	assert_non_null(strstr(html, ">32/1</text>"));
	const char *charts = strstr(html, "<svg");
	const char *p11 = strstr(charts, ">1/1<"), *p321 = strstr(charts, ">32/1<"),
		   *p14 = strstr(charts, ">1/4<"), *p328 = strstr(charts, ">32/8<");
	assert_true(p11 && p321 && p14 && p328 && p11 < p321 && p321 < p14 && p14 < p328);
	/* single point: bar charts, time series, rating sentence */
	assert_non_null(strstr(html, "128K sequential write at 16/1: bandwidth"));
	/* two drives: the headline and latency bars, MB/s and IOPS being one */
	assert_true(count(html, "class=\"bar\"") >= 4);
	assert_non_null(strstr(html, "bandwidth over time"));
	/* the fill's latency over time beside it, from the same series */
	assert_non_null(strstr(html, "128K sequential write: mean latency over time"));
	assert_non_null(strstr(html, "<title>P5430 &lt;30T&gt;: 3 \u2192 700</title>"));
	assert_non_null(strstr(html, "<title>P5430 &lt;30T&gt;: 1 \u2192 3000</title>"));
	assert_non_null(strstr(html, "time (s)"));
	assert_non_null(strstr(html, "its 3,000 MB/s rating"));
	/* sentences with the rating */
	assert_non_null(strstr(html, "Peak 975K IOPS at 16/4."));
	assert_non_null(strstr(html, "above its 934.5K IOPS rating in 5 of 18 points"));
	/* tables and the heatmap */
	assert_non_null(strstr(html, "<th>p99.99 &micro;s</th>"));
	assert_non_null(strstr(html, "Differential heatmaps"));
	assert_non_null(strstr(html, "class=\"cell\""));
	/* cells: MB/s differences, the % in the hover */
	assert_non_null(strstr(html, "(-64.3%)"));  /* 1/1: 15000 vs 42000 IOPS */
	assert_non_null(strstr(html, ">-111<"));    /* 61.44 - 172.032 MB/s */
	assert_non_null(strstr(html, ">+262<"));    /* 128K write 3,145.7 - 2,883.6 MB/s */
	assert_non_null(strstr(html, "(+9.1%)"));
	assert_true(count(html, "<svg") >= 2 + 2 + 1 + 2);
	free(html);
}

static void draw_empty(FILE *f, void *arg)
{
	(void)arg;
	assert_int_equal(report_html(f, NULL, 0, NULL), 0);
}

static void draw_progress(FILE *f, void *arg)
{
	assert_int_equal(report_html(f, NULL, 0, arg), 0);
}

/* suite --report: a page in progress has the refresh in its head and the
 * line under the title, escaped; without them the page is the plain one,
 * byte for byte */
static void test_report_in_progress(void **state)
{
	struct report_options busy = { .in_progress = "in progress: step 2 of 3 <done>",
				       .refresh_s = 60 };
	struct report_options plain = { 0 }, no_refresh = { .refresh_s = 60 };
	(void)state;
	char *html = render(draw_progress, &busy);
	char *done = render(draw_progress, &plain), *none = render(draw_empty, NULL);
	char *head_only = render(draw_progress, &no_refresh);

	const char *meta = strstr(html, "<meta http-equiv=\"refresh\" content=\"60\">");
	assert_non_null(meta);
	assert_true(meta < strstr(html, "</head>"));
	assert_non_null(strstr(html, "<b>in progress: step 2 of 3 &lt;done&gt;</b>"));
	assert_true(strstr(html, "in progress") > strstr(html, "</h1>"));
	assert_null(strstr(done, "http-equiv"));
	assert_null(strstr(done, "in progress"));
	assert_string_equal(done, none);
	assert_string_equal(head_only, none);   /* a refresh only with the line */
	free(html);
	free(done);
	free(none);
	free(head_only);
}

static void test_report_empty_and_write_error(void **state)
{
	(void)state;
	char *html = render(draw_empty, NULL);
	assert_non_null(strstr(html, "No results to show."));
	assert_non_null(strstr(html, "<title>drivebench report</title>"));
	free(html);
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		assert_int_equal(report_html(full, NULL, 0, NULL), -1);
		assert_non_null(strstr(err_msg(), "write error"));
		fclose(full);
	}
}

static void draw_steady(FILE *f, void *arg)
{
	(void)arg;
	double settled[] = { 30000, 31500, 31000, 30800, 31200 };
	double drifting[] = { 90000, 80000, 70000, 60000, 50000, 40000 };
	struct report_steady steady[2] = {
		{ .step = "precondition-64k", .metric = "iops", .rounds = settled,
		  .nr_rounds = 5, .reached = true, .window = 5, .mean = 30900,
		  .range = 1500, .slope_excursion = 400, .range_limit = 0.2,
		  .slope_limit = 0.1 },
		{ .step = "precondition-4k", .metric = "bw_bytes", .rounds = drifting,
		  .nr_rounds = 6, .reached = false, .window = 5, .mean = 60000,
		  .range = 40000, .slope_excursion = 40000, .range_limit = 0.2,
		  .slope_limit = 0.1 },
	};
	struct report_drive d = { .label = "X", .steady = steady, .nr_steady = 2 };

	assert_int_equal(report_html(f, &d, 1, NULL), 0);
}

/* A suite's steady steps: one chart per step and the SNIA verdict. */
static void test_report_steady_state(void **state)
{
	(void)state;
	char *html = render(draw_steady, NULL);

	assert_non_null(strstr(html, "Steady state (SNIA PTS)"));
	assert_non_null(strstr(html, "X: precondition-64k, per round"));
	assert_non_null(strstr(html, "steady state reached after 5 rounds: over the last 5, "
			   "range 4.9% and slope excursion 1.3% of the mean (limits 20% and 10%)"));
	assert_non_null(strstr(html, "steady state <b>not reached</b> in 6 rounds "
			   "(last window: range 66.7%, slope excursion 66.7%"));
	assert_true(count(html, "<svg") >= 2);
	free(html);
}

static void draw_one_drive(FILE *f, void *arg)
{
	assert_int_equal(report_html(f, arg, 1, NULL), 0);
}

/* CDN: a mixed-bs sweep over jobs {1,2,4} x QD {1..32} gets one MB/s chart
 * per jobs count with QD on the x axis; a fixed-size sweep does not. The
 * object-storage points state their buffer memory. */
static void test_report_per_jobs_charts_and_buffer_memory(void **state)
{
	static const unsigned cdn_jobs[] = { 1, 2, 4 };
	struct result_record r[18 + 2 + 4];
	struct report_drive drive = { "cdn-drive", r, 24, NULL };
	unsigned n = 0;
	(void)state;

	for (unsigned j = 0; j < 3; j++)
		for (unsigned q = 0; q < 6; q++, n++) {
			fill_record(&r[n], "randread", 0, DIR_READ, qds[q], cdn_jobs[j],
				    1000.0 * qds[q] * cdn_jobs[j], 50);
			r[n].dir[DIR_READ].bw_bytes = r[n].dir[DIR_READ].iops * 113000;
			r[n].max_buffer_bytes = (uint64_t)qds[q] * cdn_jobs[j] * 131072;
		}
	/* object storage: QD40/1 and QD10/4, chunked to 8 MiB slots */
	fill_record(&r[n], "read", 0, DIR_READ, 40, 1, 30, 1300000);
	r[n].dir[DIR_READ].bw_bytes = 3.1e9;
	r[n++].max_buffer_bytes = 40ull << 23;
	fill_record(&r[n], "read", 0, DIR_READ, 10, 4, 32, 1200000);
	r[n].dir[DIR_READ].bw_bytes = 3.2e9;
	r[n++].max_buffer_bytes = 40ull << 23;
	/* a fixed-size sweep over two jobs counts: no per-jobs charts, no note */
	for (unsigned i = 0; i < 4; i++, n++) {
		fill_record(&r[n], "randwrite", 4096, DIR_WRITE, i % 2 ? 8 : 1, i < 2 ? 1 : 4,
			    5000, 100);
		r[n].max_buffer_bytes = 4096ull * r[n].iodepth * r[n].numjobs;
	}
	assert_int_equal(n, 24);

	char *html = render(draw_one_drive, &drive);
	assert_non_null(strstr(html, "mixed"));
	/* three charts (each names its title more than once in the SVG) */
	unsigned per_chart = count(html, ", 1 job: bandwidth by queue depth");
	assert_true(per_chart >= 1);
	assert_int_equal(count(html, "bandwidth by queue depth"), 3 * per_chart);
	const char *j1 = strstr(html, ", 1 job: bandwidth by queue depth"),
		   *j2 = strstr(html, ", 2 jobs: bandwidth by queue depth"),
		   *j4 = strstr(html, ", 4 jobs: bandwidth by queue depth");
	assert_true(j1 && j2 && j4 && j1 < j2 && j2 < j4);
	assert_non_null(strstr(html, "QD (iodepth)"));
	/* QD labels on the per-jobs axis are plain numbers */
	assert_non_null(strstr(j4, ">32<"));
	/* object storage: buffer memory stated per point */
	assert_non_null(strstr(html, "cdn-drive 40/1: 320.0 MiB"));
	assert_non_null(strstr(html, "cdn-drive 10/4: 320.0 MiB"));
	/* the 4K sweep is not chunked: its memory is not stated */
	assert_null(strstr(html, "8/4: 0.1 MiB"));
	assert_non_null(strstr(html, "8/4: 4.0 MiB"));   /* the mixed CDN point */
	free(html);
}


/* DLIO checkpoints: results named passP-ckptNNN get their own section (a
 * seconds-per-checkpoint chart with one line per pass, the pass means),
 * and are not points of a sequential-write test. */
static void test_report_checkpoints(void **state)
{
	struct result_record r[3 * 4 + 1];
	struct report_drive drive = { "ckpt-drive", r, 13, NULL };
	unsigned n = 0;
	(void)state;

	for (unsigned pass = 1; pass <= 3; pass++)
		for (unsigned i = 1; i <= 4; i++, n++) {
			fill_record(&r[n], "write", 1048576, DIR_WRITE, 1, 1, 100, 1000);
			snprintf(r[n].job_name, sizeof(r[n].job_name), "pass%u-ckpt%03u", pass, i);
			/* what the store says: a checkpoint step, its pass and index */
			snprintf(r[n].step_kind, sizeof(r[n].step_kind), "checkpoint");
			r[n].has_pass = true;
			r[n].pass = pass;
			r[n].pass_index = i;
			r[n].dir[DIR_WRITE].bytes = 2000000000ull;
			r[n].runtime_ns = (pass == 1 ? 1000000000ull : 2000000000ull) + i * 100000000ull;
		}
	/* a stopped checkpoint is left out */
	fill_record(&r[n], "write", 1048576, DIR_WRITE, 1, 1, 100, 1000);
	snprintf(r[n].job_name, sizeof(r[n].job_name), "pass3-ckpt005");
	snprintf(r[n].step_kind, sizeof(r[n].step_kind), "checkpoint");
	r[n].has_pass = true;
	r[n].pass = 3;
	r[n].pass_index = 5;
	r[n].dir[DIR_WRITE].bytes = 1;
	r[n].runtime_ns = 99000000000ull;
	r[n].partial = true;

	char *html = render(draw_one_drive, &drive);
	assert_non_null(strstr(html, "<h2>DLIO checkpoints</h2>"));
	assert_non_null(strstr(html, "seconds per checkpoint, all passes in order"));
	assert_non_null(strstr(html, "mean seconds per checkpoint by pass"));
	assert_true(count(html, ">pass 1<") >= 1 && count(html, ">pass 3<") >= 1);
	/* pass means: pass 1 mean (1.1+1.2+1.3+1.4)/4 = 1.25 s, 8 GB / 5 s */
	assert_non_null(strstr(html, "<td class=\"l\">1</td><td>4</td><td>1.250</td><td>1.600</td><td>2.000</td>"));
	assert_non_null(strstr(html, "<td class=\"l\">2</td><td>4</td><td>2.250</td><td>0.889</td><td>2.000</td>"));
	assert_null(strstr(html, "<td>99.000</td>"));
	/* no "1M sequential write" test built from the checkpoints */
	assert_null(strstr(html, "1M sequential write"));
	free(html);

	/* a job that only has a checkpoint's name is an ordinary result: the
	 * report reads the step's kind and pass, never the job name */
	for (unsigned k = 0; k < n; k++) {
		r[k].has_pass = false;
		snprintf(r[k].step_kind, sizeof(r[k].step_kind), "jobs");
	}
	html = render(draw_one_drive, &drive);
	assert_null(strstr(html, "DLIO checkpoints"));
	assert_non_null(strstr(html, "1M sequential write"));
	free(html);

	/* no checkpoint results: no section */
	drive.nr = 0;
	html = render(draw_one_drive, &drive);
	assert_null(strstr(html, "DLIO checkpoints"));
	free(html);
}

/* Mixed-size results with different size splits are different tests
 * (the CDN read split is not the object-storage split). */
static void test_mixed_splits_are_different_tests(void **state)
{
	(void)state;
	char cdn[] = "{\"bssplit_file\":\"workloads/cdn-read.bssplit\"}";
	char obj[] = "{\"bssplit\":\"64k/65:8m/15:64m/15:1g/5\"}";
	struct result_record recs[2];
	struct report_point *pts;
	unsigned n;
	char name[96];

	memset(recs, 0, sizeof(recs));
	for (int i = 0; i < 2; i++) {
		snprintf(recs[i].rw, sizeof(recs[i].rw), "randread");
		recs[i].iodepth = 10;
		recs[i].numjobs = 4;
		recs[i].dir[DIR_READ].ios = 100;
		recs[i].dir[DIR_READ].bytes = 1 << 20;
		recs[i].dir[DIR_READ].bw_bytes = 1e6;
		recs[i].dir[DIR_READ].iops = 100;
	}
	recs[0].options_json = cdn;
	recs[1].options_json = obj;
	assert_int_equal(report_points(recs, 2, &pts, &n), 0);
	assert_int_equal(n, 2);   /* same rw, bs 0 and point, but two tests */
	assert_false(report_same_test(&pts[0], &pts[1]));
	report_test_name(&pts[0], name, sizeof(name));
	assert_non_null(strstr(name, "mixed ("));
	assert_true(strstr(name, "cdn-read.bssplit") || strstr(name, "64k/65"));
	free(pts);
}

/* GDS points (options with gds_xfer): their own section with throughput,
 * IOPS and latency against threads per block size, the block size x
 * threads heatmap of two drives; not points of the ordinary tests. */
static void gds_record(struct result_record *r, const char *rw, uint64_t bs, unsigned threads,
		       double gib, const char *options)
{
	int dir = strcmp(rw, "write") ? DIR_READ : DIR_WRITE;

	fill_record(r, rw, bs, dir, 1, threads, gib * (double)(1ull << 30) / (double)bs, 100);
	r->dir[dir].bw_bytes = gib * (double)(1ull << 30);
	r->options_json = (char *)options;
	snprintf(r->job_name, sizeof(r->job_name), "gdsio");
}

static void test_report_gds(void **state)
{
	static const char gpud[] = "{\"gds_xfer\":\"GPUD\",\"gds_mode\":\"compat\"}";
	static const uint64_t sizes[] = { 16384, 1048576 };
	static const unsigned threads[] = { 1, 4, 8 };
	struct result_record a[13], b[12];
	struct page p = { { { "gds-a", a, 13, NULL }, { "gds-b", b, 12, NULL } }, { "GDS", NULL } };
	unsigned n = 0;
	(void)state;

	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < 2; i++)
			for (unsigned t = 0; t < 3; t++, n++) {
				const char *rw = k ? "write" : "read";

				gds_record(&a[n], rw, sizes[i], threads[t], 1.0 + t, gpud);
				gds_record(&b[n], rw, sizes[i], threads[t], 1.0, gpud);
			}
	/* a partial point is left out: it would draw +900% */
	gds_record(&a[12], "read", 16384, 4, 10.0, gpud);
	a[12].partial = true;

	/* drive b's 1M write falls past one thread: a scaling drop */
	b[11].dir[DIR_WRITE].bw_bytes = 0.8 * (double)(1ull << 30);

	char *html = render(draw_page, &p);
	assert_non_null(strstr(html, "<h2>GPU Direct Storage (gdsio)</h2>"));
	/* one panel per block size, a line per drive */
	assert_int_equal(count(html, ": throughput</title>"), 4);
	assert_non_null(strstr(html, "GDS sequential read (GPUD) 16K: throughput"));
	assert_non_null(strstr(html, "GDS sequential write (GPUD) 1M: throughput"));
	assert_null(strstr(html, "per block size</title>"));
	assert_non_null(strstr(html, "values per point"));
	/* the heatmaps, throughput and latency: drive a at 8 threads is 3 GiB/s
	 * against 1, at 4 threads 2 against 1 */
	assert_non_null(strstr(html, "gds-a vs gds-b: GDS sequential read (GPUD) throughput "
			       "difference (GiB/s), block size x threads"));
	assert_non_null(strstr(html, "gds-a vs gds-b: GDS sequential read (GPUD) mean latency "
			       "difference (\u00b5s), block size x threads"));
	assert_true(count(html, ">+2.00<") >= 3);
	assert_true(count(html, ">+1.00<") >= 4);
	assert_non_null(strstr(html, ">+2.20<"));           /* 3 - 0.8 */
	assert_true(count(html, "(3.0x)") >= 3);               /* 3 against 1: a ratio */
	assert_null(strstr(html, ">+9.00<"));               /* the partial point */
	assert_int_equal(count(html, "data-heat-of="), 4);
	/* findings: each drive's peak per block size, a drop only where it falls */
	assert_non_null(strstr(html, "16K peaks at 3.00 GiB/s with 8 threads."));
	assert_non_null(strstr(html, "16K peaks at 1.00 GiB/s with 1 thread."));
	assert_non_null(strstr(html, "1M drops 20% past its 1-thread peak: 0.80 GiB/s at 8 "
			       "threads against 1.00 GiB/s."));
	assert_int_equal(count(html, " drops "), 1);
	assert_non_null(strstr(html, "<div class=\"by-review\" data-review=\"1\" hidden>"));
	/* not an ordinary "16K sequential read" test */
	assert_null(strstr(html, "16K sequential read"));
	free(html);

	/* without GDS points: no section */
	for (unsigned i = 0; i < 12; i++)
		a[i].options_json = b[i].options_json = NULL;
	p.drives[0].nr = 12;
	html = render(draw_page, &p);
	assert_null(strstr(html, "GPU Direct Storage"));
	assert_non_null(strstr(html, "16K sequential read"));
	free(html);
}

static void draw_two_drives(FILE *f, void *arg)
{
	assert_int_equal(report_html(f, arg, 2, NULL), 0);
}

/* A drive with a run that never finished: the warning above everything
 * and a mark by its label; a whole drive gets neither. */
static void test_report_marks_runs_not_whole(void **state)
{
	const char *const lines[] = { "run 7 (suite) is incomplete: it never finished" };
	struct result_record a, b;
	struct report_drive d[2] = {
		{ .label = "whole", .recs = &a, .nr = 1 },
		{ .label = "cut", .recs = &b, .nr = 1, .state = "incomplete",
		  .warnings = lines, .nr_warnings = 1 },
	};
	char *html;
	(void)state;

	fill_record(&a, "randread", 4096, DIR_READ, 1, 1, 10000, 90);
	fill_record(&b, "randread", 4096, DIR_READ, 1, 1, 9000, 95);
	html = render(draw_two_drives, d);
	assert_int_equal(count(html, "<div class=\"warn\">"), 1);
	assert_non_null(strstr(html, "<li>run 7 (suite) is incomplete: it never finished</li>"));
	assert_non_null(strstr(html, ">cut<span class=\"warn\">incomplete</span></td>"));
	assert_null(strstr(html, ">whole<span"));
	/* the box comes before the first table */
	assert_true(strstr(html, "<div class=\"warn\">") < strstr(html, "<table"));
	free(html);

	d[1].state = NULL;
	d[1].nr_warnings = 0;
	html = render(draw_two_drives, d);
	assert_null(strstr(html, "class=\"warn\">"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_scale),
		cmocka_unit_test(test_log_scale),
		cmocka_unit_test(test_tick_format),
		cmocka_unit_test(test_line_chart_axes),
		cmocka_unit_test(test_line_chart_drives),
		cmocka_unit_test(test_right_axis_round_ticks),
		cmocka_unit_test(test_bar_chart_drives),
		cmocka_unit_test(test_heat_default_pair),
		cmocka_unit_test(test_heat_color),
		cmocka_unit_test(test_heatmap_cells),
		cmocka_unit_test(test_heat_pair),
		cmocka_unit_test(test_point_order),
		cmocka_unit_test(test_points_sorted_and_replaced),
		cmocka_unit_test(test_sweep_facts),
		cmocka_unit_test(test_sweep_sentences),
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_spec_skips_model_section),
		cmocka_unit_test(test_spec_load_file),
		cmocka_unit_test(test_report_page),
		cmocka_unit_test(test_report_in_progress),
		cmocka_unit_test(test_report_empty_and_write_error),
		cmocka_unit_test(test_report_steady_state),
		cmocka_unit_test(test_mixed_splits_are_different_tests),
		cmocka_unit_test(test_report_per_jobs_charts_and_buffer_memory),
		cmocka_unit_test(test_report_checkpoints),
		cmocka_unit_test(test_report_gds),
		cmocka_unit_test(test_report_marks_runs_not_whole),
	};
	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
