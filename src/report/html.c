/* html.c - the review page: one self-contained HTML file (inline CSS, inline
 * SVG, no scripts or network assets) with the drives and their ratings, per
 * test the sweep or bar charts, time series, sentences and the latency
 * table, and a differential heatmap of the first two drives. */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "util/error.h"
#include "workload/job_spec.h"
#include "workload/checkpoint.h"
#include "workload/gds.h"

#define POINT_NAME_MAX 24

struct drive_points {
	struct report_point *pts;
	unsigned n;
};

/* the points of one test in one drive: a slice of its sorted points */
struct slice {
	const struct report_point *pts;
	unsigned n;
};

static const char page_css[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1000px;color:#222}"
	"h1{font-size:24px}h2{font-size:19px;border-bottom:1px solid #ccc;padding-top:12px}"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}"
	"th{background:#f0f0f0}td.l,th.l{text-align:left}"
	"svg.chart{display:block;margin:10px 0;max-width:100%;height:auto}"
	"p.say{background:#f7f7fb;padding:6px 10px;border-left:3px solid #88a}"
	".note{color:#666;font-size:13px}"
	"div.warn{background:#fff3e0;border:2px solid #e65100;padding:6px 12px;margin:10px 0}"
	"span.warn{background:#e65100;color:#fff;font-size:12px;padding:1px 6px;"
	"border-radius:3px;margin-left:6px}";

static void esc(FILE *out, const char *s)
{
	svg_escape(out, s);
}

static void point_name(const struct report_point *p, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u", p->iodepth, p->numjobs);
}

static struct slice test_slice(const struct drive_points *dp, const struct report_point *test)
{
	struct slice s = { NULL, 0 };

	for (unsigned i = 0; i < dp->n; i++)
		if (report_same_test(&dp->pts[i], test)) {
			if (!s.pts)
				s.pts = &dp->pts[i];
			s.n++;
		}
	return s;
}

static void cell_number(FILE *out, double v, bool compact)
{
	char buf[48];

	report_format_number(v, compact, buf, sizeof(buf));
	fprintf(out, "<td>%s</td>", buf);
}

static void spec_cell(FILE *out, double v, const char *suffix)
{
	char buf[48];

	if (v > 0) {
		report_format_rating(v, false, buf, sizeof(buf));
		fprintf(out, "<td>%s%s</td>", buf, suffix);
	} else {
		fputs("<td>-</td>", out);
	}
}

static void rated_iops_cell(FILE *out, double iops, uint64_t bs)
{
	char v[48], b[32];

	if (iops <= 0) {
		fputs("<td>-</td>", out);
		return;
	}
	report_format_rating(iops, true, v, sizeof(v));
	report_bs_name(bs ? bs : 4096, b, sizeof(b));
	fprintf(out, "<td>%s (%s)</td>", v, b);
}

/* "a / b" of two rated figures, "-" for one not rated */
static void pair_cell(FILE *out, double a, double b)
{
	char va[48] = "-", vb[48] = "-";

	if (a > 0)
		report_format_rating(a, false, va, sizeof(va));
	if (b > 0)
		report_format_rating(b, false, vb, sizeof(vb));
	fprintf(out, "<td>%s / %s</td>", va, vb);
}

static void drives_table(FILE *out, const struct report_drive *drives, unsigned nr)
{
	fputs("<h2>Drives</h2>\n<table><tr><th class=\"l\">label</th><th class=\"l\">model</th>"
	      "<th>capacity TB</th><th class=\"l\">interface</th><th>IU KiB</th>"
	      "<th>seq read MB/s</th><th>seq write MB/s</th><th>rand read IOPS</th>"
	      "<th>rand write IOPS</th><th>read / write lat &micro;s</th>"
	      "<th>power active / idle W</th><th>DWPD / PBW</th><th>results</th></tr>\n", out);
	for (unsigned i = 0; i < nr; i++) {
		const struct drive_spec *s = drives[i].spec;
		fputs("<tr><td class=\"l\">", out);
		esc(out, drives[i].label);
		if (drives[i].state) {
			fputs("<span class=\"warn\">", out);
			esc(out, drives[i].state);
			fputs("</span>", out);
		}
		fputs("</td>", out);
		if (!s) {
			fprintf(out, "<td class=\"l\" colspan=\"11\">no spec sheet</td><td>%u</td></tr>\n",
				drives[i].nr);
			continue;
		}
		fputs("<td class=\"l\">", out);
		esc(out, s->model);
		fputs("</td>", out);
		spec_cell(out, s->capacity_tb, "");
		fputs("<td class=\"l\">", out);
		esc(out, s->interface);
		fputs("</td>", out);
		spec_cell(out, s->iu_kib, "");
		spec_cell(out, s->seq_read_mbs, "");
		spec_cell(out, s->seq_write_mbs, "");
		rated_iops_cell(out, s->rand_read_iops, s->rand_read_bs);
		rated_iops_cell(out, s->rand_write_iops, s->rand_write_bs);
		pair_cell(out, s->read_latency_us, s->write_latency_us);
		pair_cell(out, s->power_active_w, s->power_idle_w);
		pair_cell(out, s->dwpd, s->pbw);
		fprintf(out, "<td>%u</td></tr>\n", drives[i].nr);
	}
	fputs("</table>\n", out);
}

/* Runs that are not whole, named above everything: their results are
 * shown, but they are not the whole measurement. */
static void warnings_box(FILE *out, const struct report_drive *drives, unsigned nr)
{
	unsigned n = 0;

	for (unsigned d = 0; d < nr; d++)
		n += drives[d].nr_warnings;
	if (!n)
		return;
	fputs("<div class=\"warn\"><b>Warning: not every run shown is whole.</b><ul>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < drives[d].nr_warnings; i++) {
			fputs("<li>", out);
			esc(out, drives[d].warnings[i]);
			fputs("</li>\n", out);
		}
	fputs("</ul></div>\n", out);
}

static void results_table(FILE *out, const struct report_drive *drives,
			  const struct slice *slices, unsigned nr)
{
	char name[POINT_NAME_MAX];

	fputs("<table><tr><th class=\"l\">drive</th><th>QD/jobs</th><th>MB/s</th><th>IOPS</th>"
	      "<th>mean &micro;s</th><th>p99 &micro;s</th><th>p99.9 &micro;s</th>"
	      "<th>p99.99 &micro;s</th></tr>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < slices[d].n; i++) {
			const struct report_point *p = &slices[d].pts[i];
			point_name(p, name, sizeof(name));
			fputs("<tr><td class=\"l\">", out);
			esc(out, drives[d].label);
			fprintf(out, "</td><td>%s</td>", name);
			cell_number(out, p->mbs, false);
			fprintf(out, "<td>%.0f</td>", p->iops);
			cell_number(out, p->lat_mean_us, false);
			cell_number(out, p->p99_us, false);
			cell_number(out, p->p999_us, false);
			cell_number(out, p->p9999_us, false);
			fputs("</tr>\n", out);
		}
	fputs("</table>\n", out);
}

/* headline metric of a test: IOPS for small blocks, else MB/s */
static bool headline_iops(const struct report_point *test)
{
	return test->bs > 0 && test->bs <= 16384;
}

static double headline(const struct report_point *p, bool iops)
{
	return iops ? p->iops : p->mbs;
}

/* The three charts of a test section, in values[] order: MB/s, IOPS, mean
 * latency. */
static const char *const metric_title[] = { "bandwidth", "IOPS", "mean latency" };
static const char *const metric_unit[] = { "MB/s (10^6 bytes/s)", "IOPS",
					   "mean latency (\u00b5s)" };

/* CDN-style sweeps (mixed block sizes over several jobs counts): one MB/s
 * line chart per jobs count with QD on the x axis, as the reviews draw
 * them. Drawn when at least two jobs counts each have two or more QDs.
 * axis is sorted in point order (by jobs, then QD); mbs[d * nx + j]. */
static int per_jobs_charts(FILE *out, const struct report_drive *drives, unsigned nr,
			   const struct report_point *test, const struct report_point *axis,
			   unsigned nx, const double *mbs)
{
	const char **names = calloc(nx ? nx : 1, sizeof(*names));
	char (*name_buf)[POINT_NAME_MAX] = calloc(nx ? nx : 1, sizeof(*name_buf));
	double *ys = calloc((size_t)(nr ? nr : 1) * (nx ? nx : 1), sizeof(*ys));
	struct svg_series *series = calloc(nr ? nr : 1, sizeof(*series));
	unsigned groups = 0;
	char title[200], tname[96];
	int rc = -1;

	if (!names || !name_buf || !ys || !series) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned j = 0; j < nx;) {
		unsigned k = j;

		while (k < nx && axis[k].numjobs == axis[j].numjobs)
			k++;
		if (k - j >= 2)
			groups++;
		j = k;
	}
	if (test->bs != 0 || groups < 2) {
		rc = 0;
		goto out;
	}
	report_test_name(test, tname, sizeof(tname));
	for (unsigned j = 0; j < nx;) {
		unsigned k = j, n;

		while (k < nx && axis[k].numjobs == axis[j].numjobs)
			k++;
		n = k - j;
		if (n >= 2) {
			for (unsigned i = 0; i < n; i++) {
				snprintf(name_buf[i], POINT_NAME_MAX, "%u", axis[j + i].iodepth);
				names[i] = name_buf[i];
			}
			for (unsigned d = 0; d < nr; d++) {
				memcpy(&ys[(size_t)d * nx], &mbs[(size_t)d * nx + j], n * sizeof(*ys));
				series[d].name = drives[d].label;
				series[d].x = NULL;
				series[d].y = &ys[(size_t)d * nx];
				series[d].n = n;
			}
			snprintf(title, sizeof(title), "%s, %u job%s: bandwidth by queue depth",
				 tname, axis[j].numjobs, axis[j].numjobs == 1 ? "" : "s");
			struct svg_chart c = { title, "QD (iodepth)", "MB/s (10^6 bytes/s)",
					       names, n, series, nr };
			if (svg_line_chart(out, &c) < 0)
				goto out;
		}
		j = k;
	}
	rc = 0;
out:
	free(names);
	free(name_buf);
	free(ys);
	free(series);
	return rc;
}

/* Buffer memory of chunked or mixed-size tests (object storage): what the
 * job held for its I/O buffers, so the page states the memory used. */
static void buffer_note(FILE *out, const struct report_drive *drives,
			const struct slice *slices, unsigned nr)
{
	bool any = false;

	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < slices[d].n; i++) {
			const struct report_point *p = &slices[d].pts[i];
			uint64_t slots = (uint64_t)p->iodepth * (p->numjobs ? p->numjobs : 1);
			char name[POINT_NAME_MAX];

			if (!p->rec->max_buffer_bytes ||
			    (p->bs && slots && p->bs <= p->rec->max_buffer_bytes / slots))
				continue;   /* fixed size, not chunked: nothing to state */
			point_name(p, name, sizeof(name));
			fputs(any ? "; " : "<p class=\"note\">", out);
			esc(out, drives[d].label);
			fprintf(out, " %s: buffer memory: %.1f MiB", name,
				(double)p->rec->max_buffer_bytes / (1024.0 * 1024.0));
			any = true;
		}
	if (any)
		fputs(" (I/O buffers held; large requests are served as chunks)</p>\n", out);
}

static int sweep_section(FILE *out, const struct report_drive *drives,
			 const struct slice *slices, unsigned nr,
			 const struct report_point *test)
{
	struct report_point *axis = NULL;   /* union of points, sorted */
	const char **names = NULL;
	char (*name_buf)[POINT_NAME_MAX] = NULL;
	double *values = NULL;
	struct svg_series *series = NULL;
	unsigned nx = 0, total = 0;
	bool iops = headline_iops(test);
	char title[160], tname[96];
	int rc = -1;

	for (unsigned d = 0; d < nr; d++)
		total += slices[d].n;
	axis = calloc(total, sizeof(*axis));
	names = calloc(total, sizeof(*names));
	name_buf = calloc(total, sizeof(*name_buf));
	values = calloc((size_t)nr * total * 3, sizeof(*values));
	series = calloc(nr, sizeof(*series));
	if (!axis || !names || !name_buf || !values || !series) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < slices[d].n; i++) {
			const struct report_point *p = &slices[d].pts[i];
			unsigned j = 0;
			while (j < nx && report_point_order(axis[j].iodepth, axis[j].numjobs,
							    p->iodepth, p->numjobs) < 0)
				j++;
			if (j < nx && report_point_order(axis[j].iodepth, axis[j].numjobs,
							  p->iodepth, p->numjobs) == 0)
				continue;
			memmove(&axis[j + 1], &axis[j], (nx - j) * sizeof(*axis));
			axis[j] = *p;
			nx++;
		}
	for (unsigned j = 0; j < nx; j++) {
		point_name(&axis[j], name_buf[j], POINT_NAME_MAX);
		names[j] = name_buf[j];
	}
	/* values[(metric * nr + d) * nx + j] */
	for (size_t k = 0; k < (size_t)3 * nr * nx; k++)
		values[k] = NAN;
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < slices[d].n; i++) {
			const struct report_point *p = &slices[d].pts[i];
			unsigned j = 0;
			while (report_point_order(axis[j].iodepth, axis[j].numjobs,
						  p->iodepth, p->numjobs))
				j++;
			values[(0 * nr + d) * nx + j] = p->mbs;
			values[(1 * nr + d) * nx + j] = p->iops;
			values[(2 * nr + d) * nx + j] = p->lat_mean_us;
		}

	report_test_name(test, tname, sizeof(tname));
	for (unsigned m = 0; m < 3; m++) {
		for (unsigned d = 0; d < nr; d++) {
			series[d].name = drives[d].label;
			series[d].x = NULL;
			series[d].y = &values[(m * nr + d) * nx];
			series[d].n = nx;
		}
		snprintf(title, sizeof(title), "%s: %s", tname, metric_title[m]);
		struct svg_chart c = { title, "QD/jobs (iodepth / numjobs)", metric_unit[m],
				       names, nx, series, nr };
		if (svg_line_chart(out, &c) < 0)
			goto out;
	}
	if (per_jobs_charts(out, drives, nr, test, axis, nx, values) < 0)
		goto out;
	/* sentences per drive */
	for (unsigned d = 0; d < nr; d++) {
		struct sweep_point *sp;
		char text[1024];
		bool rating_iops;
		double rating;

		if (!slices[d].n)
			continue;
		sp = calloc(slices[d].n, sizeof(*sp));
		if (!sp) {
			err_set("report: out of memory");
			goto out;
		}
		for (unsigned i = 0; i < slices[d].n; i++) {
			sp[i].iodepth = slices[d].pts[i].iodepth;
			sp[i].numjobs = slices[d].pts[i].numjobs;
			sp[i].value = headline(&slices[d].pts[i], iops);
			sp[i].lat_mean_us = slices[d].pts[i].lat_mean_us;
		}
		rating = spec_rating_for(drives[d].spec, test->rw, test->bs, test->dir,
					 &rating_iops);
		if (rating_iops != iops)
			rating = 0;
		if (sweep_sentences(sp, slices[d].n, iops ? "IOPS" : "MB/s", rating,
				    text, sizeof(text)) == 0) {
			fputs("<p class=\"say\"><b>", out);
			esc(out, drives[d].label);
			fputs(":</b> ", out);
			esc(out, text);
			fputs("</p>\n", out);
		}
		free(sp);
	}
	rc = 0;
out:
	free(axis);
	free(names);
	free(name_buf);
	free(values);
	free(series);
	return rc;
}

/* MB/s over seconds of each drive's record for this test and direction */
static int series_chart(FILE *out, const struct report_drive *drives,
			const struct slice *slices, unsigned nr,
			const struct report_point *test)
{
	struct svg_series *series = calloc(nr, sizeof(*series));
	double **xs = calloc(nr, sizeof(*xs)), **ys = calloc(nr, sizeof(*ys));
	unsigned used = 0;
	char title[160], tname[96];
	int rc = -1;

	if (!series || !xs || !ys) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned d = 0; d < nr; d++) {
		const struct result_record *rec;
		uint64_t prev = 0;

		if (slices[d].n != 1 || slices[d].pts[0].rec->nr_series < 2)
			continue;
		rec = slices[d].pts[0].rec;
		xs[used] = calloc(rec->nr_series, sizeof(double));
		ys[used] = calloc(rec->nr_series, sizeof(double));
		if (!xs[used] || !ys[used]) {
			err_set("report: out of memory");
			used++;
			goto out;
		}
		for (unsigned i = 0; i < rec->nr_series; i++) {
			const struct series_record *s = &rec->series[i];
			double dt = (double)(s->t_ms - prev) / 1000.0;
			xs[used][i] = s->t_ms / 1000.0;
			ys[used][i] = dt > 0 ? s->bytes[test->dir] / dt / 1e6 : NAN;
			prev = s->t_ms;
		}
		series[used].name = drives[d].label;
		series[used].x = xs[used];
		series[used].y = ys[used];
		series[used].n = rec->nr_series;
		used++;
	}
	if (used) {
		report_test_name(test, tname, sizeof(tname));
		snprintf(title, sizeof(title), "%s: bandwidth over time", tname);
		struct svg_chart c = { title, "time (s)", "MB/s (10^6 bytes/s)", NULL, 0,
				       series, used };
		if (svg_line_chart(out, &c) < 0)
			goto out;
	}
	rc = 0;
out:
	for (unsigned i = 0; xs && ys && i < used; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(xs);
	free(ys);
	free(series);
	return rc;
}

static int single_section(FILE *out, const struct report_drive *drives,
			  const struct slice *slices, unsigned nr,
			  const struct report_point *test)
{
	const char **names = calloc(nr, sizeof(*names));
	char (*name_buf)[160] = calloc(nr, sizeof(*name_buf));
	double *values = calloc((size_t)nr * 3, sizeof(*values));
	unsigned n = 0;
	bool same_point = true;
	char title[200], tname[96];
	int rc = -1;

	if (!names || !name_buf || !values) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned d = 0; d < nr; d++)
		if (slices[d].n && report_point_order(slices[d].pts[0].iodepth,
				slices[d].pts[0].numjobs, test->iodepth, test->numjobs))
			same_point = false;
	for (unsigned d = 0; d < nr; d++) {
		const struct report_point *p;
		if (!slices[d].n)
			continue;
		p = &slices[d].pts[0];
		if (same_point)
			snprintf(name_buf[n], sizeof(name_buf[n]), "%s", drives[d].label);
		else
			snprintf(name_buf[n], sizeof(name_buf[n]), "%s (%u/%u)",
				 drives[d].label, p->iodepth, p->numjobs);
		names[n] = name_buf[n];
		values[n] = p->mbs;
		values[nr + n] = p->iops;
		values[2 * nr + n] = p->lat_mean_us;
		n++;
	}
	report_test_name(test, tname, sizeof(tname));
	for (unsigned m = 0; m < 3; m++) {
		if (same_point)
			snprintf(title, sizeof(title), "%s at %u/%u: %s", tname, test->iodepth,
				 test->numjobs, metric_title[m]);
		else
			snprintf(title, sizeof(title), "%s: %s", tname, metric_title[m]);
		if (svg_bar_chart(out, title, metric_unit[m], names, &values[m * nr], n) < 0)
			goto out;
	}
	if (series_chart(out, drives, slices, nr, test) < 0)
		goto out;
	for (unsigned d = 0; d < nr; d++) {
		bool rating_iops;
		double rating = spec_rating_for(drives[d].spec, test->rw, test->bs,
						test->dir, &rating_iops);
		char v[48], r[48];
		if (!slices[d].n || rating <= 0)
			continue;
		double measured = headline(&slices[d].pts[0], rating_iops);
		report_format_number(measured, rating_iops, v, sizeof(v));
		report_format_rating(rating, rating_iops, r, sizeof(r));
		fputs("<p class=\"say\"><b>", out);
		esc(out, drives[d].label);
		fprintf(out, ":</b> %s %s, %s its %s %s rating (%+.1f%%).</p>\n", v,
			rating_iops ? "IOPS" : "MB/s", measured >= rating ? "above" : "below",
			r, rating_iops ? "IOPS" : "MB/s", report_pct_diff(measured, rating));
	}
	rc = 0;
out:
	free(names);
	free(name_buf);
	free(values);
	return rc;
}

/* Differential heatmaps of drive a over drive b: per rw and direction, rows
 * block sizes, columns QD/jobs points, cells the MB/s difference. */
static int heatmaps(FILE *out, const struct report_drive *drives,
		    const struct drive_points *dp)
{
	const struct drive_points *a = &dp[0], *b = &dp[1];
	bool drawn = false;

	fputs("<h2>Differential heatmaps</h2>\n<p class=\"note\">", out);
	esc(out, drives[0].label);
	fputs(" against ", out);
	esc(out, drives[1].label);
	fputs(": MB/s difference at every shared point; green where the first drive "
	      "is ahead, red where it is behind, stronger colour for a larger "
	      "difference (full at &plusmn;50%).</p>\n", out);
	for (unsigned i = 0; i < a->n; i++) {
		const struct report_point *g = &a->pts[i];
		bool first = true;

		/* one heatmap per (rw, dir), drawn at its first point in a */
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(a->pts[k].rw, g->rw) && a->pts[k].dir == g->dir)
				first = false;
		if (!first)
			continue;
		uint64_t row_bs[32];
		struct report_point cols[64];
		unsigned rows = 0, ncols = 0;
		for (unsigned k = 0; k < a->n; k++) {
			const struct report_point *p = &a->pts[k];
			if (strcmp(p->rw, g->rw) || p->dir != g->dir)
				continue;
			for (unsigned m = 0; m < b->n; m++) {
				const struct report_point *q = &b->pts[m];
				unsigned r, c;
				if (!report_same_test(p, q) || q->iodepth != p->iodepth
				    || q->numjobs != p->numjobs)
					continue;
				for (r = 0; r < rows && row_bs[r] != p->bs; r++)
					;
				if (r == rows && rows < 32)
					row_bs[rows++] = p->bs;
				for (c = 0; c < ncols && report_point_order(cols[c].iodepth,
						cols[c].numjobs, p->iodepth, p->numjobs); c++)
					;
				if (c == ncols && ncols < 64)
					cols[ncols++] = *p;
			}
		}
		if (!rows || !ncols)
			continue;
		/* columns in the reviews' order (insertion sort, small) */
		for (unsigned c = 1; c < ncols; c++)
			for (unsigned k = c; k > 0 && report_point_order(cols[k - 1].iodepth,
					cols[k - 1].numjobs, cols[k].iodepth, cols[k].numjobs) > 0; k--) {
				struct report_point t = cols[k];
				cols[k] = cols[k - 1];
				cols[k - 1] = t;
			}
		char row_names[32][32], col_names[64][POINT_NAME_MAX];
		const char *rp[32], *cp[64];
		double pct[32 * 64];
		for (unsigned r = 0; r < rows; r++) {
			report_bs_name(row_bs[r], row_names[r], sizeof(row_names[r]));
			rp[r] = row_names[r];
		}
		for (unsigned c = 0; c < ncols; c++) {
			point_name(&cols[c], col_names[c], POINT_NAME_MAX);
			cp[c] = col_names[c];
		}
		for (unsigned k = 0; k < rows * ncols; k++)
			pct[k] = NAN;
		for (unsigned k = 0; k < a->n; k++) {
			const struct report_point *p = &a->pts[k];
			if (strcmp(p->rw, g->rw) || p->dir != g->dir)
				continue;
			for (unsigned m = 0; m < b->n; m++) {
				const struct report_point *q = &b->pts[m];
				unsigned r = 0, c = 0;
				if (!report_same_test(p, q) || q->iodepth != p->iodepth
				    || q->numjobs != p->numjobs)
					continue;
				while (r < rows && row_bs[r] != p->bs)
					r++;
				while (c < ncols && report_point_order(cols[c].iodepth,
						cols[c].numjobs, p->iodepth, p->numjobs))
					c++;
				if (r < rows && c < ncols)
					pct[r * ncols + c] = report_pct_diff(p->mbs, q->mbs);
			}
		}
		char title[300], tname[96];
		struct report_point named = *g;
		report_test_name(&named, tname, sizeof(tname));
		/* the name without its block size: "random read" */
		const char *kind = strchr(tname, ' ');
		snprintf(title, sizeof(title), "%s vs %s: %s MB/s difference",
			 drives[0].label, drives[1].label, kind ? kind + 1 : tname);
		if (svg_heatmap(out, title, rp, rows, cp, ncols, pct) < 0)
			return -1;
		drawn = true;
	}
	if (!drawn)
		fputs("<p class=\"note\">The two drives share no measured point.</p>\n", out);
	return 0;
}

/* The suites' steady-state steps: the tracked figure per round, and the
 * SNIA verdict over the last window. */
static int steady_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	bool any = false;

	for (unsigned d = 0; d < nr; d++)
		any = any || drives[d].nr_steady;
	if (!any)
		return 0;
	fputs("<section class=\"test\">\n<h2>Steady state (SNIA PTS)</h2>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 0; k < drives[d].nr_steady; k++) {
			const struct report_steady *st = &drives[d].steady[k];
			bool bw = !strcmp(st->metric, "bw_bytes");
			bool lat = !strcmp(st->metric, "lat_mean_ns");
			double scale = bw ? 1e-6 : lat ? 1e-3 : 1.0;
			double *y = calloc(st->nr_rounds + 1, sizeof(double));
			char (*names)[12] = calloc(st->nr_rounds + 1, sizeof(*names));
			const char **name_ptrs = calloc(st->nr_rounds + 1, sizeof(*name_ptrs));
			char title[320];
			int rc = 0;

			if (!y || !names || !name_ptrs) {
				free(y);
				free(names);
				free(name_ptrs);
				return err_set("report: out of memory");
			}
			for (unsigned r = 0; r < st->nr_rounds; r++) {
				y[r] = st->rounds[r] * scale;
				snprintf(names[r], sizeof(names[r]), "%u", r + 1);
				name_ptrs[r] = names[r];
			}
			snprintf(title, sizeof(title), "%s: %s, per round", drives[d].label, st->step);
			struct svg_series series = { drives[d].label, NULL, y, st->nr_rounds };
			struct svg_chart c = { title, "round",
					       bw ? "MB/s (10^6 bytes/s)" : lat ? "mean latency (\u00b5s)" : "IOPS",
					       name_ptrs, st->nr_rounds, &series, 1 };
			if (st->nr_rounds)
				rc = svg_line_chart(out, &c);
			free(y);
			free(names);
			free(name_ptrs);
			if (rc < 0)
				return -1;
			fputs("<p class=\"say\"><b>", out);
			esc(out, st->step);
			if (st->reached)
				fprintf(out, ":</b> steady state reached after %u rounds: over the last %u, "
					"range %.1f%% and slope excursion %.1f%% of the mean "
					"(limits %.0f%% and %.0f%%).</p>\n", st->nr_rounds, st->window,
					st->mean ? 100.0 * st->range / st->mean : 0.0,
					st->mean ? 100.0 * st->slope_excursion / st->mean : 0.0,
					100.0 * st->range_limit, 100.0 * st->slope_limit);
			else
				fprintf(out, ":</b> steady state <b>not reached</b> in %u rounds "
					"(last window: range %.1f%%, slope excursion %.1f%% of the mean; "
					"limits %.0f%% and %.0f%%).</p>\n", st->nr_rounds,
					st->mean ? 100.0 * st->range / st->mean : 0.0,
					st->mean ? 100.0 * st->slope_excursion / st->mean : 0.0,
					100.0 * st->range_limit, 100.0 * st->slope_limit);
		}
	fputs("</section>\n", out);
	return 0;
}

/* DLIO-style checkpoint results (named "passP-ckptNNN", read-back
 * "read-ckptNNN"; see docs/checkpoint.md): seconds per checkpoint against
 * its index, one line per pass (and drive), and the pass means. Partial
 * (stopped) checkpoints are left out. */
#define CHECKPOINT_MAX_PASSES 32
static bool checkpoint_of(const struct result_record *rec, unsigned *pass, unsigned *index)
{
	return checkpoint_parse_name(rec->job_name, pass, index) && *index > 0 &&
	       *pass < CHECKPOINT_MAX_PASSES && !rec->partial;
}

static int checkpoint_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	unsigned max_index = 0, nr_lines = (unsigned)nr * CHECKPOINT_MAX_PASSES, used = 0;
	unsigned pass, index;
	struct svg_series *series = NULL;
	double *x = NULL, *y = NULL;
	char (*names)[160] = NULL;
	int rc = -1;

	for (unsigned d = 0; d < nr; d++)
		for (unsigned r = 0; r < drives[d].nr; r++)
			if (checkpoint_of(&drives[d].recs[r], &pass, &index) && index > max_index)
				max_index = index;
	if (!max_index)
		return 0;
	series = calloc(nr_lines, sizeof(*series));
	names = calloc(nr_lines, sizeof(*names));
	x = calloc(max_index, sizeof(*x));
	y = calloc((size_t)nr_lines * max_index, sizeof(*y));
	if (!series || !names || !x || !y) {
		err_set("report: out of memory");
		goto done;
	}
	for (unsigned i = 0; i < max_index; i++)
		x[i] = i + 1;
	for (size_t i = 0; i < (size_t)nr_lines * max_index; i++)
		y[i] = NAN;
	fputs("<section class=\"test\">\n<h2>DLIO checkpoints</h2>\n<p class=\"note\">Time to "
	      "write one checkpoint, from the barrier before the first write to the last "
	      "rank's last fsync (lower is better); pass 1 starts on an empty drive, later "
	      "passes write over the previous pass's checkpoints. GB = 10^9 bytes.</p>\n", out);
	/* one line per drive and pass, in pass order; read-back last */
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 1; k <= CHECKPOINT_MAX_PASSES; k++) {
			unsigned want = k % CHECKPOINT_MAX_PASSES;   /* 0 (read-back) last */
			double *line = y + (size_t)used * max_index;
			bool any = false;

			for (unsigned r = 0; r < drives[d].nr; r++) {
				const struct result_record *rec = &drives[d].recs[r];

				if (checkpoint_of(rec, &pass, &index) && pass == want) {
					line[index - 1] = (double)rec->runtime_ns / 1e9;
					any = true;
				}
			}
			if (!any)
				continue;
			snprintf(names[used], sizeof(names[used]), "%s%s%s", nr > 1 ? drives[d].label : "",
				 nr > 1 ? " " : "", want ? "" : "read-back");
			if (want)
				snprintf(names[used] + strlen(names[used]),
					 sizeof(names[used]) - strlen(names[used]), "pass %u", want);
			series[used] = (struct svg_series){ .name = names[used], .x = x, .y = line,
							    .n = max_index };
			used++;
		}
	struct svg_chart chart = {
		.title = "Seconds per checkpoint", .x_label = "checkpoint",
		.y_label = "seconds", .series = series, .nr_series = used,
	};
	if (svg_line_chart(out, &chart) < 0)
		goto done;
	fputs("<table><tr><th class=\"l\">drive</th><th class=\"l\">pass</th><th>checkpoints</th>"
	      "<th>mean seconds</th><th>GB/s</th><th>GB per checkpoint</th></tr>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 1; k <= CHECKPOINT_MAX_PASSES; k++) {
			unsigned want = k % CHECKPOINT_MAX_PASSES, count = 0;
			double seconds = 0, bytes = 0;

			for (unsigned r = 0; r < drives[d].nr; r++) {
				const struct result_record *rec = &drives[d].recs[r];

				if (checkpoint_of(rec, &pass, &index) && pass == want) {
					seconds += (double)rec->runtime_ns / 1e9;
					bytes += (double)(rec->dir[DIR_READ].bytes + rec->dir[DIR_WRITE].bytes);
					count++;
				}
			}
			if (!count)
				continue;
			fputs("<tr><td class=\"l\">", out);
			esc(out, drives[d].label);
			if (want)
				fprintf(out, "</td><td class=\"l\">%u</td>", want);
			else
				fputs("</td><td class=\"l\">read-back</td>", out);
			fprintf(out, "<td>%u</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n", count,
				seconds / count, seconds > 0 ? bytes / 1e9 / seconds : 0.0,
				bytes / 1e9 / count);
		}
	fputs("</table>\n</section>\n", out);
	rc = 0;
done:
	free(series);
	free(names);
	free(x);
	free(y);
	return rc;
}

/* GDS points (gdsio-style sweeps, workload/gds.h; their options carry
 * gds_xfer): per direction and transfer type, throughput, IOPS and mean
 * latency against threads, one line per block size (and drive), and with
 * two drives the differential heatmap of block size x threads. */
#define GDS_GROUPS 16
#define GDS_AXIS 32

struct gds_group {
	char rw[32], xfer[16];
	uint64_t bs[GDS_AXIS];
	unsigned nr_bs;
	unsigned threads[GDS_AXIS];
	unsigned nr_threads;
};

static int gds_dir(const char *rw)
{
	return !strcmp(rw, "write") || !strcmp(rw, "randwrite") ? DIR_WRITE : DIR_READ;
}

/* The newest complete record of a point in one drive, or NULL. */
static const struct result_record *gds_find(const struct report_drive *d,
					    const struct gds_group *g, uint64_t bs,
					    unsigned threads)
{
	const struct result_record *found = NULL;
	char xfer[16], mode[16];

	for (unsigned r = 0; r < d->nr; r++) {
		const struct result_record *rec = &d->recs[r];

		if (!rec->partial && rec->bs == bs && rec->numjobs == threads &&
		    !strcmp(rec->rw, g->rw) &&
		    gds_record_info(rec, xfer, sizeof(xfer), mode, sizeof(mode)) &&
		    !strcmp(xfer, g->xfer))
			found = rec;
	}
	return found;
}

static void gds_add_value(uint64_t *bs, unsigned *nr_bs, uint64_t b,
			  unsigned *threads, unsigned *nr_threads, unsigned t)
{
	unsigned i;

	for (i = 0; i < *nr_bs && bs[i] != b; i++)
		;
	if (i == *nr_bs && *nr_bs < GDS_AXIS) {
		for (i = (*nr_bs)++; i > 0 && bs[i - 1] > b; i--)
			bs[i] = bs[i - 1];
		bs[i] = b;
	}
	for (i = 0; i < *nr_threads && threads[i] != t; i++)
		;
	if (i == *nr_threads && *nr_threads < GDS_AXIS) {
		for (i = (*nr_threads)++; i > 0 && threads[i - 1] > t; i--)
			threads[i] = threads[i - 1];
		threads[i] = t;
	}
}

static unsigned gds_groups(const struct report_drive *drives, unsigned nr,
			   struct gds_group *groups)
{
	unsigned n = 0;
	char xfer[16], mode[16];

	for (unsigned d = 0; d < nr; d++)
		for (unsigned r = 0; r < drives[d].nr; r++) {
			const struct result_record *rec = &drives[d].recs[r];
			unsigned g;

			if (rec->partial || !gds_record_info(rec, xfer, sizeof(xfer), mode, sizeof(mode)))
				continue;
			for (g = 0; g < n; g++)
				if (!strcmp(groups[g].rw, rec->rw) && !strcmp(groups[g].xfer, xfer))
					break;
			if (g == n) {
				if (n == GDS_GROUPS)
					continue;
				memset(&groups[n], 0, sizeof(groups[n]));
				snprintf(groups[n].rw, sizeof(groups[n].rw), "%s", rec->rw);
				snprintf(groups[n].xfer, sizeof(groups[n].xfer), "%s", xfer);
				n++;
			}
			gds_add_value(groups[g].bs, &groups[g].nr_bs, rec->bs,
				      groups[g].threads, &groups[g].nr_threads, rec->numjobs);
		}
	return n;
}

/* 0 throughput GiB/s, 1 IOPS, 2 mean latency (us); NAN without a record. */
static double gds_value(const struct result_record *rec, int dir, unsigned metric)
{
	if (!rec)
		return NAN;
	if (metric == 0)
		return rec->dir[dir].bw_bytes / (double)(1ull << 30);
	if (metric == 1)
		return rec->dir[dir].iops;
	return rec->dir[dir].lat.n ? rec->dir[dir].lat.mean / 1000.0 : NAN;
}

static int gds_group_charts(FILE *out, const struct report_drive *drives, unsigned nr,
			    const struct gds_group *g)
{
	static const char *const titles[] = { "throughput", "IOPS", "mean latency" };
	static const char *const units[] = { "GiB/s (2^30 bytes/s)", "IOPS", "mean latency (\u00b5s)" };
	unsigned lines = nr * g->nr_bs, nx = g->nr_threads;
	int dir = gds_dir(g->rw);
	double *y = calloc((size_t)lines * nx + 1, sizeof(*y));
	struct svg_series *series = calloc(lines + 1, sizeof(*series));
	char (*names)[160] = calloc(lines + 1, sizeof(*names));
	char x_names[GDS_AXIS][12];
	const char *x_ptrs[GDS_AXIS];
	int rc = -1;

	if (!y || !series || !names) {
		err_set("report: out of memory");
		goto done;
	}
	for (unsigned t = 0; t < nx; t++) {
		snprintf(x_names[t], sizeof(x_names[t]), "%u", g->threads[t]);
		x_ptrs[t] = x_names[t];
	}
	for (unsigned m = 0; m < 3; m++) {
		char title[200];

		for (unsigned d = 0, l = 0; d < nr; d++)
			for (unsigned b = 0; b < g->nr_bs; b++, l++) {
				char bs[32];

				for (unsigned t = 0; t < nx; t++)
					y[(size_t)l * nx + t] = gds_value(gds_find(&drives[d], g, g->bs[b],
									  g->threads[t]), dir, m);
				report_bs_name(g->bs[b], bs, sizeof(bs));
				snprintf(names[l], sizeof(names[l]), "%s%s%s", nr > 1 ? drives[d].label : "",
					 nr > 1 ? " " : "", bs);
				series[l] = (struct svg_series){ names[l], NULL, y + (size_t)l * nx, nx };
			}
		snprintf(title, sizeof(title), "GDS %s %s (%s): %s per block size", g->rw,
			 dir == DIR_READ ? "read" : "write", g->xfer, titles[m]);
		struct svg_chart c = { title, "threads", units[m], x_ptrs, nx, series, lines };
		if (svg_line_chart(out, &c) < 0) {
			/* a metric with no value at all (no latency recorded) is left out */
			err_clear();
			continue;
		}
	}
	rc = 0;
done:
	free(y);
	free(series);
	free(names);
	return rc;
}

static int gds_heatmap(FILE *out, const struct report_drive *drives, const struct gds_group *g)
{
	char row_names[GDS_AXIS][32], col_names[GDS_AXIS][12], title[400];
	const char *rp[GDS_AXIS], *cp[GDS_AXIS];
	double pct[GDS_AXIS * GDS_AXIS];
	int dir = gds_dir(g->rw);

	for (unsigned b = 0; b < g->nr_bs; b++) {
		report_bs_name(g->bs[b], row_names[b], sizeof(row_names[b]));
		rp[b] = row_names[b];
	}
	for (unsigned t = 0; t < g->nr_threads; t++) {
		snprintf(col_names[t], sizeof(col_names[t]), "%u", g->threads[t]);
		cp[t] = col_names[t];
	}
	for (unsigned b = 0; b < g->nr_bs; b++)
		for (unsigned t = 0; t < g->nr_threads; t++)
			pct[b * g->nr_threads + t] = report_pct_diff(
				gds_value(gds_find(&drives[0], g, g->bs[b], g->threads[t]), dir, 0),
				gds_value(gds_find(&drives[1], g, g->bs[b], g->threads[t]), dir, 0));
	snprintf(title, sizeof(title), "%s vs %s: GDS %s (%s) throughput difference, block size x threads",
		 drives[0].label, drives[1].label, g->rw, g->xfer);
	return svg_heatmap(out, title, rp, g->nr_bs, cp, g->nr_threads, pct) < 0 ? -1 : 0;
}

static int gds_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	struct gds_group groups[GDS_GROUPS];
	unsigned n = gds_groups(drives, nr, groups);

	if (!n)
		return 0;
	fputs("<section class=\"test\">\n<h2>GPU Direct Storage (gdsio)</h2>\n<p class=\"note\">"
	      "gdsio-style sweep: one synchronous I/O per thread through cuFile (GPUD), or the "
	      "host path (CPUONLY, CPU_GPU). GiB/s = 2^30 bytes/s; latency is the mean time "
	      "of one I/O.</p>\n", out);
	for (unsigned g = 0; g < n; g++) {
		if (gds_group_charts(out, drives, nr, &groups[g]) < 0)
			return -1;
		if (nr >= 2 && gds_heatmap(out, drives, &groups[g]) < 0)
			return -1;
	}
	fputs("</section>\n", out);
	return 0;
}

int report_html(FILE *out, const struct report_drive *drives, unsigned nr,
		const struct report_options *opt)
{
	struct drive_points *dp = calloc(nr ? nr : 1, sizeof(*dp));
	struct slice *slices = calloc(nr ? nr : 1, sizeof(*slices));
	const char *title = opt && opt->title ? opt->title : "drivebench report";
	unsigned tests = 0;
	int rc = -1;

	if (!dp || !slices) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned d = 0; d < nr; d++)
		if (report_points(drives[d].recs, drives[d].nr, &dp[d].pts, &dp[d].n) < 0)
			goto out;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
	esc(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<h1>", page_css);
	esc(out, title);
	fputs("</h1>\n", out);
	if (opt && opt->subtitle) {
		fputs("<p class=\"note\">", out);
		esc(out, opt->subtitle);
		fputs("</p>\n", out);
	}
	warnings_box(out, drives, nr);
	drives_table(out, drives, nr);
	if (steady_section(out, drives, nr) < 0)
		goto out;
	if (checkpoint_section(out, drives, nr) < 0)
		goto out;
	if (gds_section(out, drives, nr) < 0)
		goto out;

	/* every distinct test, in the first drive's order, then the others' */
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < dp[d].n; i++) {
			const struct report_point *test = &dp[d].pts[i];
			bool seen = false;
			char tname[96];

			for (unsigned e = 0; e <= d && !seen; e++)
				for (unsigned k = 0; k < (e == d ? i : dp[e].n); k++)
					if (report_same_test(&dp[e].pts[k], test)) {
						seen = true;
						break;
					}
			if (seen)
				continue;
			bool sweep = false;
			for (unsigned e = 0; e < nr; e++) {
				slices[e] = test_slice(&dp[e], test);
				if (slices[e].n > 1)
					sweep = true;
			}
			report_test_name(test, tname, sizeof(tname));
			fputs("<section class=\"test\">\n<h2>", out);
			esc(out, tname);
			fputs("</h2>\n", out);
			if (sweep) {
				if (sweep_section(out, drives, slices, nr, test) < 0)
					goto out;
			} else if (single_section(out, drives, slices, nr, test) < 0) {
				goto out;
			}
			results_table(out, drives, slices, nr);
			buffer_note(out, drives, slices, nr);
			fputs("</section>\n", out);
			tests++;
		}
	if (!tests)
		fputs("<p class=\"note\">No results to show.</p>\n", out);
	if (nr >= 2 && heatmaps(out, drives, dp) < 0)
		goto out;
	fputs("<p class=\"note\">Generated by drivebench. MB/s = 10^6 bytes/s; latencies in "
	      "&micro;s; QD/jobs = iodepth / numjobs.</p>\n</body></html>\n", out);
	if (fflush(out) != 0 || ferror(out)) {
		err_set("report: write error");
		goto out;
	}
	rc = 0;
out:
	for (unsigned d = 0; dp && d < nr; d++)
		free(dp[d].pts);
	free(dp);
	free(slices);
	return rc;
}
