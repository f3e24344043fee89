/* pts_matrix.c - the PTS pages of the tests whose rounds are a matrix of
 * R/W mixes by block sizes: IOPS (7 x 8: convergence, measurement
 * window, the tabular data, IOPS over block size per mix and the mix x
 * block size heatmap standing in for the 3D plot), throughput (128K and
 * 1024K, read and write) and latency (mean, maximum, 99.99 and 99.999
 * percentiles at TC1/QD1). Every figure is the mean of the measurement
 * window's rounds. */
#include "report/pts/pts_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/report.h"
#include "report/svg/svg.h"
#include "util/error.h"

#define MATRIX_MAX 16

/* A round's points as mixes (rows) by block sizes (columns). */
struct matrix {
	unsigned nmix, nbs;
	unsigned mix[MATRIX_MAX];
	uint64_t bs[MATRIX_MAX];
	int k[MATRIX_MAX][MATRIX_MAX];    /* the point index, -1 none */
	char bs_name[MATRIX_MAX][16], mix_name[MATRIX_MAX][16];
	const char *bs_ptr[MATRIX_MAX], *mix_ptr[MATRIX_MAX];
};

static unsigned add_unique_mix(struct matrix *m, unsigned mix)
{
	unsigned i = 0;

	while (i < m->nmix && m->mix[i] != mix)
		i++;
	if (i == m->nmix && m->nmix < MATRIX_MAX)
		m->mix[m->nmix++] = mix;
	return i;
}

static unsigned add_unique_bs(struct matrix *m, uint64_t bs)
{
	unsigned i = 0;

	while (i < m->nbs && m->bs[i] != bs)
		i++;
	if (i == m->nbs && m->nbs < MATRIX_MAX)
		m->bs[m->nbs++] = bs;
	return i;
}

/* From the first round stored. */
static void matrix_of(const struct pts_step *st, struct matrix *m)
{
	unsigned np = st->points_per_round ? st->points_per_round : 1;

	memset(m, 0, sizeof(*m));
	memset(m->k, -1, sizeof(m->k));
	for (unsigned k = 0; k < np; k++) {
		const struct result_record *r = pts_at(st, k);
		unsigned i, j;

		if (!r)
			continue;
		i = add_unique_mix(m, pts_mix(r));
		j = add_unique_bs(m, r->bs);
		if (i < MATRIX_MAX && j < MATRIX_MAX)
			m->k[i][j] = (int)k;
	}
	for (unsigned i = 0; i < m->nmix; i++) {
		snprintf(m->mix_name[i], sizeof(m->mix_name[i]), "%u/%u", m->mix[i], 100 - m->mix[i]);
		m->mix_ptr[i] = m->mix_name[i];
	}
	for (unsigned j = 0; j < m->nbs; j++) {
		pts_bs_name(m->bs[j], m->bs_name[j], sizeof(m->bs_name[j]));
		m->bs_ptr[j] = m->bs_name[j];
	}
}

/* The window mean (or, with pct, the merged percentile) of one cell. */
static double cell(const struct pts_step *st, const struct matrix *m, unsigned i, unsigned j,
		   enum pts_fig f, double pct)
{
	const struct result_record *recs[64];
	unsigned n;

	if (m->k[i][j] < 0)
		return NAN;
	if (!pct)
		return pts_window_mean(st, (unsigned)m->k[i][j], f);
	n = pts_window_recs(st, (unsigned)m->k[i][j], recs, 64);
	return pts_percentile_us(recs, n, pct);
}

/* The tabular data: mixes down, block sizes across. */
static void matrix_table(FILE *out, const char *id, const char *what,
			 const struct pts_step *st, const struct matrix *m, enum pts_fig f, double pct)
{
	fprintf(out, "<h3>%s</h3>\n<table data-pts=\"%s\"><tr><th class=\"l\">R/W mix</th>", what, id);
	for (unsigned j = 0; j < m->nbs; j++)
		fprintf(out, "<th>%s</th>", m->bs_name[j]);
	fputs("</tr>\n", out);
	for (unsigned i = 0; i < m->nmix; i++) {
		fprintf(out, "<tr><td class=\"l\">%s</td>", m->mix_name[i]);
		for (unsigned j = 0; j < m->nbs; j++) {
			fputs("<td>", out);
			pts_num(out, cell(st, m, i, j, f, pct));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* The figure over block sizes, one line per mix. */
static int matrix_plot(FILE *out, const char *id, const char *title, const struct pts_step *st,
		       const struct matrix *m, enum pts_fig f)
{
	double y[MATRIX_MAX][MATRIX_MAX];
	struct svg_series s[MATRIX_MAX];
	int rc;

	for (unsigned i = 0; i < m->nmix; i++) {
		for (unsigned j = 0; j < m->nbs; j++)
			y[i][j] = cell(st, m, i, j, f, 0);
		s[i] = (struct svg_series){ m->mix_ptr[i], NULL, y[i], m->nbs };
	}
	pts_figure_open(out, id);
	struct svg_chart c = { .title = title, .x_label = "block size", .y_label = pts_fig_unit(f),
			       .x_names = m->bs_ptr, .nx = m->nbs, .series = s,
			       .nr_series = m->nmix };
	rc = svg_line_chart(out, &c);
	pts_figure_close(out, "One line per R/W mix (read/write %), measurement-window means.");
	return rc;
}

/* The mix x block size surface as a heatmap: colour by log10 of the
 * value against the largest (the specification's 3D bar plot). */
static void matrix_heatmap(FILE *out, const char *id, const char *title,
			   const struct pts_step *st, const struct matrix *m, enum pts_fig f)
{
	const int cw = 78, ch = 30, left = 70, top = 40;
	double v[MATRIX_MAX][MATRIX_MAX], lo = INFINITY, hi = 0;
	int w = left + cw * (int)m->nbs + 20, h = top + ch * (int)m->nmix + 40;

	for (unsigned i = 0; i < m->nmix; i++)
		for (unsigned j = 0; j < m->nbs; j++) {
			v[i][j] = cell(st, m, i, j, f, 0);
			if (isfinite(v[i][j]) && v[i][j] > 0) {
				lo = fmin(lo, v[i][j]);
				hi = fmax(hi, v[i][j]);
			}
		}
	pts_figure_open(out, id);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\"><title>", w, h, w, h);
	pts_esc(out, title);
	fprintf(out, "</title><text x=\"%d\" y=\"18\" font-weight=\"bold\">", left);
	pts_esc(out, title);
	fputs("</text>\n", out);
	for (unsigned j = 0; j < m->nbs; j++)
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			left + cw * (int)j + cw / 2, top - 6, m->bs_name[j]);
	for (unsigned i = 0; i < m->nmix; i++) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 6,
			top + ch * (int)i + ch / 2 + 4, m->mix_name[i]);
		for (unsigned j = 0; j < m->nbs; j++) {
			double t = isfinite(v[i][j]) && v[i][j] > 0 && hi > lo ?
				log10(v[i][j] / lo) / log10(hi / lo) : isfinite(v[i][j]) ? 1 : -1;
			char label[32];
			/* white to deep blue */
			int r = t < 0 ? 240 : (int)(255 - 225 * t), g = t < 0 ? 240 : (int)(255 - 180 * t);

			report_format_number(v[i][j], true, label, sizeof(label));
			fprintf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				"fill=\"#%02x%02xff\" stroke=\"#fff\"><title>%s %s: %s %s</title></rect>"
				"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s>%s</text>\n",
				left + cw * (int)j, top + ch * (int)i, cw, ch, r, g, m->mix_name[i],
				m->bs_name[j], label, pts_fig_unit(f), left + cw * (int)j + cw / 2,
				top + ch * (int)i + ch / 2 + 4, t > 0.6 ? " fill=\"#fff\"" : "", label);
		}
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\">rows: R/W mix (read/write %%); columns: block size; "
		"colour: log scale of %s</text>\n</svg>\n", left, h - 12, pts_fig_unit(f));
	pts_figure_close(out, NULL);
}

/* The points of the tracked point's mix (every block size of it). */
static unsigned tracked_row(const struct pts_step *st, const struct matrix *m, unsigned *ks)
{
	const struct result_record *t = pts_at(st, st->tracked_point);
	unsigned n = 0;

	for (unsigned i = 0; t && i < m->nmix; i++)
		for (unsigned j = 0; m->mix[i] == pts_mix(t) && j < m->nbs; j++)
			if (m->k[i][j] >= 0)
				ks[n++] = (unsigned)m->k[i][j];
	if (!n)
		ks[n++] = st->tracked_point;
	return n;
}

static void not_stored(FILE *out, const char *what)
{
	fprintf(out, "<p class=\"warn\">No %s stored in this run.</p>\n</section>\n", what);
}

int pts_iops_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *st = pts_step_of(run, "iops", "steady", 0);
	unsigned ks[MATRIX_MAX];
	struct matrix m;

	pts_test_header(out, run, "iops", "IOPS", "PTS-E 1.1 section 7: random I/O, R/W mix x "
			"block size per round, steady state on 4KiB 100% write IOPS.",
			"random, R/W 100/0 .. 0/100 x block size 1024KiB .. 0.5KiB");
	if (!st || !st->nr_recs) {
		not_stored(out, "IOPS rounds");
		return 0;
	}
	matrix_of(st, &m);
	if (pts_convergence(out, "iops-convergence", "IOPS steady-state convergence (the tracked "
			    "mix, every block size)", st, ks, tracked_row(st, &m, ks), PTS_IOPS) < 0 ||
	    pts_window(out, "iops-window", st) < 0)
		return -1;
	matrix_table(out, "iops-table", "IOPS: measurement window tabular data", st, &m,
		     PTS_IOPS, 0);
	if (matrix_plot(out, "iops-2d", "IOPS by block size, per R/W mix", st, &m, PTS_IOPS) < 0)
		return -1;
	matrix_heatmap(out, "iops-heatmap", "IOPS: R/W mix x block size", st, &m, PTS_IOPS);
	fputs("</section>\n", out);
	return 0;
}

int pts_tp_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *st;
	char id[64], title[200];

	pts_test_header(out, run, "tp", "Throughput", "PTS-E 1.1 section 8: sequential 1024KiB "
			"and 128KiB, each after its own purge and preconditioning, 100% read and "
			"100% write per round, steady state on the write's MB/s.",
			"sequential, R/W 100/0 and 0/100, 1024KiB and 128KiB");
	if (!pts_step_of(run, "tp", "steady", 0)) {
		not_stored(out, "throughput rounds");
		return 0;
	}
	fputs("<h3>Throughput: measurement window tabular data (MB/s)</h3>\n<table data-pts=\""
	      "tp-table\"><tr><th class=\"l\">block size</th><th>100% read</th><th>100% write</th>"
	      "<th class=\"l\">steady state</th></tr>\n", out);
	for (unsigned n = 0; (st = pts_step_of(run, "tp", "steady", n)); n++) {
		struct matrix m;

		matrix_of(st, &m);
		for (unsigned j = 0; j < m.nbs; j++) {
			fprintf(out, "<tr><td class=\"l\">%s</td>", m.bs_name[j]);
			for (int want = 100; want >= 0; want -= 100) {
				double v = NAN;

				for (unsigned i = 0; i < m.nmix; i++)
					if (m.mix[i] == (unsigned)want)
						v = cell(st, &m, i, j, PTS_MBS, 0);
				fputs("<td>", out);
				pts_num(out, v);
				fputs("</td>", out);
			}
			fprintf(out, "<td class=\"l\">%s</td></tr>\n", st->reached ? "reached" :
				"not reached");
		}
	}
	fputs("</table>\n", out);
	for (unsigned n = 0; (st = pts_step_of(run, "tp", "steady", n)); n++) {
		unsigned ks[2] = { 0, 1 };

		snprintf(id, sizeof(id), "tp-convergence-%u", n + 1);
		snprintf(title, sizeof(title), "%s: throughput convergence, read and write", st->name);
		if (pts_convergence(out, id, title, st, ks, st->points_per_round > 1 ? 2 : 1,
				    PTS_MBS) < 0)
			return -1;
		snprintf(id, sizeof(id), "tp-window-%u", n + 1);
		if (pts_window(out, id, st) < 0)
			return -1;
	}
	fputs("</section>\n", out);
	return 0;
}

int pts_lat_page(FILE *out, const struct pts_run *run)
{
	const struct pts_step *st = pts_step_of(run, "lat", "steady", 0);
	unsigned ks[MATRIX_MAX];
	struct matrix m;

	pts_test_header(out, run, "lat", "Latency", "PTS-E 1.1 section 9: random I/O at TC1/QD1, "
			"R/W mix x block size per round, steady state on 4KiB 100% write mean "
			"response time.",
			"random, TC1/QD1, R/W 100/0, 65/35, 0/100 x block size 8KiB, 4KiB, 0.5KiB");
	if (!st || !st->nr_recs) {
		not_stored(out, "latency rounds");
		return 0;
	}
	matrix_of(st, &m);
	if (pts_convergence(out, "lat-convergence", "Mean response time convergence (the tracked "
			    "mix, every block size)", st, ks, tracked_row(st, &m, ks),
			    PTS_LAT_MEAN_US) < 0 ||
	    pts_window(out, "lat-window", st) < 0)
		return -1;
	matrix_table(out, "lat-mean", "Average response time (\u00b5s)", st, &m, PTS_LAT_MEAN_US, 0);
	matrix_table(out, "lat-max", "Maximum response time (\u00b5s)", st, &m, PTS_LAT_MAX_US, 0);
	matrix_table(out, "lat-p9999", "99.99th percentile response time (\u00b5s)", st, &m,
		     PTS_LAT_MEAN_US, 99.99);
	matrix_table(out, "lat-p99999", "99.999th percentile response time (\u00b5s)", st, &m,
		     PTS_LAT_MEAN_US, 99.999);
	if (matrix_plot(out, "lat-2d-mean", "Average response time by block size", st, &m,
			PTS_LAT_MEAN_US) < 0 ||
	    matrix_plot(out, "lat-2d-max", "Maximum response time by block size", st, &m,
			PTS_LAT_MAX_US) < 0)
		return -1;
	fputs("</section>\n", out);
	return 0;
}
