/* html_sweeps.c - a test's charts on the review page: sweeps (one line per drive, the
 * CDN per-jobs charts), series and bars of single points, the buffer note,
 * and the differential heatmaps of two drives. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/review/html_heat.h"
#include "report/analysis/sections.h"
#include "report/svg/svg.h"
#include "util/error.h"

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
				series[d].drive = d + 1;
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
/* a point whose buffers were capped: large requests served as chunks */
static bool buffer_chunked(const struct report_point *p)
{
	uint64_t slots = (uint64_t)p->iodepth * (p->numjobs ? p->numjobs : 1);

	return p->rec->max_buffer_bytes &&
	       !(p->bs && slots && p->bs <= p->rec->max_buffer_bytes / slots);
}

void html_buffer_note(FILE *out, const struct report_drive *drives,
		      const struct slice *slices, unsigned nt, unsigned nr)
{
	unsigned n = 0, nd = 0;
	double lo = INFINITY, hi = 0;

	/* one line for the section; the points folded under it */
	for (unsigned d = 0; d < nr; d++) {
		unsigned before = n;
		for (unsigned t = 0; t < nt; t++)
			for (unsigned i = 0; i < slices[t * nr + d].n; i++) {
				const struct report_point *p = &slices[t * nr + d].pts[i];
				if (!buffer_chunked(p))
					continue;
				double mib = (double)p->rec->max_buffer_bytes / (1024.0 * 1024.0);
				lo = fmin(lo, mib);
				hi = fmax(hi, mib);
				n++;
			}
		nd += n > before;
	}
	if (!n)
		return;
	fprintf(out, "<details class=\"note buffers\"><summary>Buffer memory: %.1f-%.1f MiB of "
		"I/O buffers held at %u point%s of %u drive%s (large requests are served as "
		"chunks)</summary>\n<p class=\"note\">", lo, hi, n, n == 1 ? "" : "s", nd,
		nd == 1 ? "" : "s");
	bool any = false;
	for (unsigned d = 0; d < nr; d++)
		for (unsigned t = 0; t < nt; t++)
			for (unsigned i = 0; i < slices[t * nr + d].n; i++) {
				const struct report_point *p = &slices[t * nr + d].pts[i];
				char name[POINT_NAME_MAX];
				if (!buffer_chunked(p))
					continue;
				html_point_name(p, name, sizeof(name));
				fputs(any ? "; " : "", out);
				html_esc(out, drives[d].label);
				fprintf(out, " %s: %.1f MiB", name,
					(double)p->rec->max_buffer_bytes / (1024.0 * 1024.0));
				any = true;
			}
	fputs("</p></details>\n", out);
}

/* The reviewer's sentences of each drive's sweep (sentences.c). */
static int sweep_sentences_of_drives(FILE *out, const struct report_drive *drives,
				     const struct slice *slices, unsigned nr,
				     const struct report_point *test, bool iops)
{
	/* the first (reviewed) drive's are its findings, above the charts */
	for (unsigned d = 1; d < nr; d++) {
		struct sweep_point *sp;
		char text[1024];
		double rating;

		if (!slices[d].n)
			continue;
		sp = calloc(slices[d].n, sizeof(*sp));
		if (!sp) {
			err_set("report: out of memory");
			return -1;
		}
		for (unsigned i = 0; i < slices[d].n; i++) {
			sp[i].iodepth = slices[d].pts[i].iodepth;
			sp[i].numjobs = slices[d].pts[i].numjobs;
			sp[i].value = report_headline(&slices[d].pts[i], iops);
			sp[i].lat_mean_us = slices[d].pts[i].lat_mean_us;
		}
		rating = report_test_rating(drives[d].spec, test);
		if (sweep_sentences(sp, slices[d].n, iops ? "IOPS" : "MB/s", rating,
				    text, sizeof(text)) == 0) {
			fputs("<p class=\"say\"><b>", out);
			html_esc(out, drives[d].label);
			fputs(":</b> ", out);
			html_esc(out, text);
			fputs("</p>\n", out);
		}
		free(sp);
	}
	return 0;
}

/* The union of the drives' points, in QD/jobs order, into axis; returns
 * how many. */
static unsigned sweep_axis(const struct slice *slices, unsigned nr, struct report_point *axis)
{
	unsigned nx = 0;

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
	return nx;
}

/* The sweep's charts on an axis with a gap between jobs groups, so that no
 * line joins 32/1 to 1/4. For one block size IOPS and MB/s are one curve:
 * one chart, the headline on the left axis and the other on the right;
 * then mean latency. A mixed-size test: MB/s, then mean latency. */
static int gapped_charts(FILE *out, const struct report_drive *drives, unsigned nr,
			 unsigned reviewed, const struct report_point *test, const char *tname,
			 const struct report_point *axis, unsigned nx, const char **names,
			 const double *values, struct svg_series *series)
{
	unsigned cap = 2 * nx, ng = 0;
	const char **gnames = calloc(cap ? cap : 1, sizeof(*gnames));
	double *gvalues = calloc((size_t)3 * nr * (cap ? cap : 1), sizeof(*gvalues));
	bool iops = report_headline_iops(test);
	char title[200];
	int rc = -1;

	if (!gnames || !gvalues) {
		err_set("report: out of memory");
		goto out;
	}
	for (size_t k = 0; k < (size_t)3 * nr * cap; k++)
		gvalues[k] = NAN;
	for (unsigned j = 0; j < nx; j++) {
		if (j && axis[j].numjobs != axis[j - 1].numjobs)
			gnames[ng++] = "";   /* the gap */
		for (unsigned m = 0; m < 3; m++)
			for (unsigned d = 0; d < nr; d++)
				gvalues[(m * nr + d) * cap + ng] = values[(m * nr + d) * nx + j];
		gnames[ng++] = names[j];
	}
	/* a mixed-size test (the CDN's) by MB/s, as the reviews chart it; its
	 * IOPS are in the values table */
	unsigned metrics[2] = { test->bs && iops ? 1 : 0, 2 }, nm = 2;
	for (unsigned k = 0; k < nm; k++) {
		unsigned m = metrics[k];
		for (unsigned d = 0; d < nr; d++)
			series[d] = (struct svg_series){ drives[d].label, NULL,
							 &gvalues[(m * nr + d) * cap], ng, d + 1 };
		bool both = test->bs && m < 2;
		snprintf(title, sizeof(title), "%s: %s", tname,
			 both ? "throughput" : html_metric_title[m]);
		struct svg_chart c = { title, "QD/jobs (iodepth / numjobs)", html_metric_unit[m],
				       gnames, ng, series, nr };
		if (both) {
			c.y2_factor = iops ? (double)test->bs / 1e6 : 1e6 / (double)test->bs;
			c.y2_label = html_metric_unit[iops ? 0 : 1];
		}
		c.emphasis = nr > 1 ? reviewed + 1 : 0;
		c.series_are_drives = true;
		if (svg_line_chart(out, &c) < 0)
			goto out;
	}
	rc = 0;
out:
	free(gnames);
	free(gvalues);
	return rc;
}

int html_sweep_section(FILE *out, const struct report_drive *drives,
			 const struct slice *slices, unsigned nr, unsigned reviewed,
			 const struct report_point *test)
{
	struct report_point *axis = NULL;   /* union of points, sorted */
	const char **names = NULL;
	char (*name_buf)[POINT_NAME_MAX] = NULL;
	double *values = NULL;
	struct svg_series *series = NULL;
	unsigned nx = 0, total = 0;
	bool iops = report_headline_iops(test);
	char tname[96];
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
	nx = sweep_axis(slices, nr, axis);
	for (unsigned j = 0; j < nx; j++) {
		html_point_name(&axis[j], name_buf[j], POINT_NAME_MAX);
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
	if (gapped_charts(out, drives, nr, reviewed, test, tname, axis, nx, names, values, series) < 0)
		goto out;
	if (per_jobs_charts(out, drives, nr, test, axis, nx, values) < 0)
		goto out;
	if (sweep_sentences_of_drives(out, drives, slices, nr, test, iops) < 0)
		goto out;
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
	struct svg_series *lat_series = calloc(nr, sizeof(*lat_series));
	double **xs = calloc(nr, sizeof(*xs)), **ys = calloc(nr, sizeof(*ys));
	double **lats = calloc(nr, sizeof(*lats));
	unsigned used = 0;
	char title[160], tname[96];
	int rc = -1;

	if (!series || !lat_series || !xs || !ys || !lats) {
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
		lats[used] = calloc(rec->nr_series, sizeof(double));
		if (!xs[used] || !ys[used] || !lats[used]) {
			err_set("report: out of memory");
			used++;
			goto out;
		}
		for (unsigned i = 0; i < rec->nr_series; i++) {
			const struct series_record *s = &rec->series[i];
			double dt = (double)(s->t_ms - prev) / 1000.0;
			xs[used][i] = s->t_ms / 1000.0;
			ys[used][i] = dt > 0 ? s->bytes[test->dir] / dt / 1e6 : NAN;
			/* an interval without I/O has no latency */
			lats[used][i] = s->ios[test->dir] ? s->lat_mean_ns[test->dir] / 1000.0 : NAN;
			prev = s->t_ms;
		}
		series[used].name = drives[d].label;
		series[used].x = xs[used];
		series[used].y = ys[used];
		series[used].n = rec->nr_series;
		series[used].drive = d + 1;
		lat_series[used] = series[used];
		lat_series[used].y = lats[used];
		used++;
	}
	if (used) {
		report_test_name(test, tname, sizeof(tname));
		snprintf(title, sizeof(title), "%s: bandwidth over time", tname);
		struct svg_chart c = { title, "time (s)", "MB/s (10^6 bytes/s)", NULL, 0,
				       series, used };
		if (svg_line_chart(out, &c) < 0)
			goto out;
		bool any_lat = false;
		for (unsigned d = 0; d < used; d++)
			for (unsigned i = 0; i < lat_series[d].n && !any_lat; i++)
				any_lat = isfinite(lat_series[d].y[i]) && lat_series[d].y[i] > 0;
		snprintf(title, sizeof(title), "%s: mean latency over time", tname);
		struct svg_chart l = { title, "time (s)", "mean latency (\u00b5s)", NULL, 0,
				       lat_series, used };
		if (any_lat && svg_line_chart(out, &l) < 0)
			goto out;
	}
	rc = 0;
out:
	for (unsigned i = 0; xs && ys && lats && i < used; i++) {
		free(xs[i]);
		free(ys[i]);
		free(lats[i]);
	}
	free(xs);
	free(ys);
	free(lats);
	free(series);
	free(lat_series);
	return rc;
}

int html_single_section(FILE *out, const struct report_drive *drives,
			  const struct slice *slices, unsigned nr,
			  const struct report_point *test)
{
	const char **names = calloc(nr, sizeof(*names));
	char (*name_buf)[160] = calloc(nr, sizeof(*name_buf));
	double *values = calloc((size_t)nr * 3, sizeof(*values));
	unsigned *of = calloc(nr, sizeof(*of));
	unsigned n = 0;
	bool same_point = true;
	char title[200], tname[96];
	int rc = -1;

	if (!names || !name_buf || !values || !of) {
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
		of[n++] = d + 1;
	}
	report_test_name(test, tname, sizeof(tname));
	/* bars compare drives: one drive's single bar says no more than its
	 * table row; for one block size MB/s and IOPS are the same bars */
	for (unsigned m = 0; m < 3 && n >= 2; m++) {
		if (test->bs && m == (report_headline_iops(test) ? 0u : 1u))
			continue;
		if (same_point)
			snprintf(title, sizeof(title), "%s at %u/%u: %s", tname, test->iodepth,
				 test->numjobs, html_metric_title[m]);
		else
			snprintf(title, sizeof(title), "%s: %s", tname, html_metric_title[m]);
		if (svg_bar_chart(out, title, html_metric_unit[m], names, &values[m * nr], n, of) < 0)
			goto out;
	}
	if (series_chart(out, drives, slices, nr, test) < 0)
		goto out;
	for (unsigned d = 0; d < nr; d++) {
		bool rating_iops = report_headline_iops(test);
		double rating = report_test_rating(drives[d].spec, test);
		char v[48], r[48], m[32];
		if (!slices[d].n || rating <= 0)
			continue;
		double measured = report_headline(&slices[d].pts[0], rating_iops);
		report_format_number(measured, rating_iops, v, sizeof(v));
		report_format_rating(rating, rating_iops, r, sizeof(r));
		report_format_margin(report_pct_diff(measured, rating), m, sizeof(m));
		fputs("<p class=\"say\"><b>", out);
		html_esc(out, drives[d].label);
		fprintf(out, ":</b> %s %s, %s its %s %s rating (%s).</p>\n", v,
			rating_iops ? "IOPS" : "MB/s", measured >= rating ? "above" : "below",
			r, rating_iops ? "IOPS" : "MB/s", m);
	}
	rc = 0;
out:
	free(names);
	free(name_buf);
	free(values);
	free(of);
	return rc;
}

/* Differential heatmaps of the synthetic sweeps, per rw and direction:
 * rows block sizes, columns the QD/jobs points (the reviews' order) that
 * any drive measured, cells one drive's MB/s minus another's. */
#define HEAT_ROWS 32
#define HEAT_COLS 64

struct heatmap_grid {
	uint64_t row_bs[HEAT_ROWS];
	struct report_point cols[HEAT_COLS];
	unsigned rows, ncols;
};

static bool in_heatmap(const struct report_point *p, const struct report_point *g)
{
	return p->section >= SECTION_SEQ128K && p->section <= SECTION_OTHER && p->bs &&
	       !strcmp(p->rw, g->rw) && p->dir == g->dir;
}

static unsigned col_of(const struct heatmap_grid *h, const struct report_point *p)
{
	unsigned c = 0;

	while (c < h->ncols && report_point_order(h->cols[c].iodepth, h->cols[c].numjobs,
						  p->iodepth, p->numjobs))
		c++;
	return c;
}

static void heatmap_grid(const struct drive_points *dp, unsigned nr,
			 const struct report_point *g, struct heatmap_grid *h)
{
	h->rows = h->ncols = 0;
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 0; k < dp[d].n; k++) {
			const struct report_point *p = &dp[d].pts[k];
			unsigned r;

			if (!in_heatmap(p, g))
				continue;
			for (r = 0; r < h->rows && h->row_bs[r] != p->bs; r++)
				;
			if (r == h->rows && h->rows < HEAT_ROWS) {
				/* rows by block size, ascending */
				for (r = h->rows++; r > 0 && h->row_bs[r - 1] > p->bs; r--)
					h->row_bs[r] = h->row_bs[r - 1];
				h->row_bs[r] = p->bs;
			}
			if (col_of(h, p) == h->ncols && h->ncols < HEAT_COLS)
				h->cols[h->ncols++] = *p;
		}
	/* columns in the reviews' order (insertion sort, small) */
	for (unsigned c = 1; c < h->ncols; c++)
		for (unsigned k = c; k > 0 && report_point_order(h->cols[k - 1].iodepth,
				h->cols[k - 1].numjobs, h->cols[k].iodepth, h->cols[k].numjobs) > 0; k--) {
			struct report_point t = h->cols[k];

			h->cols[k] = h->cols[k - 1];
			h->cols[k - 1] = t;
		}
}

/* The heatmap of g's rw and direction, of drive reviewed over the next
 * (the selector picks another pair): 1 drawn, 0 no two drives share a
 * point, -1 on error. */
static int heatmap_of(FILE *out, const struct report_drive *drives, const struct drive_points *dp,
		      unsigned nr, unsigned reviewed, unsigned index, const struct report_point *g)
{
	struct heatmap_grid h;
	char row_names[HEAT_ROWS][32], col_names[HEAT_COLS][POINT_NAME_MAX];
	const char *rp[HEAT_ROWS], *cp[HEAT_COLS];
	const char **dn = calloc(nr, sizeof(*dn));
	double *v = NULL;
	char what[200], tname[96], id[24];
	const char *kind;
	int rc = -1;

	heatmap_grid(dp, nr, g, &h);
	size_t cells = (size_t)h.rows * h.ncols;
	if (!dn || !(v = malloc((cells ? cells : 1) * nr * sizeof(*v)))) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned r = 0; r < h.rows; r++) {
		report_bs_name(h.row_bs[r], row_names[r], sizeof(row_names[r]));
		rp[r] = row_names[r];
	}
	for (unsigned c = 0; c < h.ncols; c++) {
		html_point_name(&h.cols[c], col_names[c], POINT_NAME_MAX);
		cp[c] = col_names[c];
	}
	for (size_t k = 0; k < cells * nr; k++)
		v[k] = NAN;
	unsigned with_points = 0;
	for (unsigned d = 0; d < nr; d++) {
		bool any = false;

		dn[d] = drives[d].label;
		for (unsigned k = 0; k < dp[d].n; k++) {
			const struct report_point *p = &dp[d].pts[k];
			unsigned r = 0, c;

			if (!in_heatmap(p, g))
				continue;
			while (r < h.rows && h.row_bs[r] != p->bs)
				r++;
			if (r < h.rows && (c = col_of(&h, p)) < h.ncols) {
				v[d * cells + (size_t)r * h.ncols + c] = p->mbs;
				any = true;
			}
		}
		with_points += any;
	}
	rc = 0;
	if (with_points < 2 || !cells)
		goto out;
	report_test_name(g, tname, sizeof(tname));
	/* the name without its block size: "random read" */
	kind = strchr(tname, ' ');
	snprintf(what, sizeof(what), "%s MB/s difference", kind ? kind + 1 : tname);
	snprintf(id, sizeof(id), "sweep-%u", index);
	struct html_heat heat = { id, what, "MB/s", 0, false, rp, h.rows, cp, h.ncols,
				  dn, nr, v };
	rc = html_heat_default(out, &heat, reviewed) < 0 ? -1 : 1;
out:
	free(dn);
	free(v);
	return rc;
}

int html_heatmaps(FILE *page, const struct report_drive *drives, const struct drive_points *dp,
		  unsigned nr, unsigned reviewed)
{
	unsigned drawn = 0;
	char *text = NULL;
	size_t len = 0;
	/* drawn aside: a page where no two drives share a sweep has no section */
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return err_set("report: out of memory");
	fputs("<h2>Differential heatmaps</h2>\n<p class=\"note\">Each synthetic sweep, block size "
	      "by QD/jobs: the first drive's MB/s minus the second's at every point both "
	      "measured; green where the first drive is ahead, red where it is behind, "
	      "stronger colour for a larger difference (full at &plusmn;50%). The drive "
	      "selector at the top picks the two drives.</p>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < dp[d].n; i++) {
			const struct report_point *g = &dp[d].pts[i];
			bool first = g->section >= SECTION_SEQ128K && g->section <= SECTION_OTHER && g->bs;
			int rc;

			/* one heatmap per (rw, dir), drawn at its first point on the page */
			for (unsigned e = 0; first && e <= d; e++)
				for (unsigned k = 0; first && k < (e == d ? i : dp[e].n); k++)
					if (in_heatmap(&dp[e].pts[k], g))
						first = false;
			if (!first)
				continue;
			if ((rc = heatmap_of(out, drives, dp, nr, reviewed, drawn, g)) < 0) {
				fclose(out);
				free(text);
				return -1;
			}
			drawn += rc > 0;
		}
	int closed = fclose(out);
	if (closed == 0 && drawn)
		fwrite(text, 1, len, page);
	free(text);
	return closed == 0 ? 0 : err_set("report: out of memory");
}

/* The suites' steady-state steps: the tracked figure per round, and the
 * SNIA verdict over the last window. */
