/* html_gds.c - the GDS sweep on the review page: per transfer type and
 * direction, one panel per block size (a line per drive), the values, and
 * throughput and latency heatmaps of any two drives; the findings (each
 * block size's peak, drops past it). */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/findings.h"
#include "report/review/html_heat.h"
#include "report/svg/svg.h"
#include "report/analysis/record_kind.h"
#include "util/error.h"

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
		    record_gds(rec, xfer, sizeof(xfer), mode, sizeof(mode)) &&
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

			if (rec->partial || !record_gds(rec, xfer, sizeof(xfer), mode, sizeof(mode)))
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

/* "sequential read (GPUD)", as gdsio's READ / RANDREAD ... */
static void gds_group_name(const struct gds_group *g, char *buf, size_t len)
{
	const char *what = !strcmp(g->rw, "read") ? "sequential read" :
			   !strcmp(g->rw, "write") ? "sequential write" :
			   !strcmp(g->rw, "randread") ? "random read" :
			   !strcmp(g->rw, "randwrite") ? "random write" : g->rw;

	snprintf(buf, len, "%s (%s)", what, g->xfer);
}

/* values[(d * nr_bs + b) * nr_threads + t] of one metric */
static double *gds_grid(const struct report_drive *drives, unsigned nr,
			const struct gds_group *g, unsigned metric)
{
	size_t cells = (size_t)g->nr_bs * g->nr_threads;
	double *v = calloc((size_t)nr * cells + 1, sizeof(*v));
	int dir = gds_dir(g->rw);

	if (!v) {
		err_set("report: out of memory");
		return NULL;
	}
	for (unsigned d = 0; d < nr; d++)
		for (unsigned b = 0; b < g->nr_bs; b++)
			for (unsigned t = 0; t < g->nr_threads; t++)
				v[d * cells + (size_t)b * g->nr_threads + t] = gds_value(
					gds_find(&drives[d], g, g->bs[b], g->threads[t]), dir, metric);
	return v;
}

/* One panel per block size: throughput over threads, a line per drive,
 * IOPS on the right axis (for one block size the same curve). */
static int gds_panels(FILE *out, const struct report_drive *drives, unsigned nr,
		      unsigned reviewed, const struct gds_group *g, const double *gibs)
{
	size_t cells = (size_t)g->nr_bs * g->nr_threads;
	struct svg_series *series = calloc(nr + 1, sizeof(*series));
	char x_names[GDS_AXIS][12], gname[64], title[200], bs[32];
	const char *x_ptrs[GDS_AXIS];

	if (!series)
		return err_set("report: out of memory");

	for (unsigned t = 0; t < g->nr_threads; t++) {
		snprintf(x_names[t], sizeof(x_names[t]), "%u", g->threads[t]);
		x_ptrs[t] = x_names[t];
	}
	gds_group_name(g, gname, sizeof(gname));
	for (unsigned b = 0; b < g->nr_bs; b++) {
		for (unsigned d = 0; d < nr; d++)
			series[d] = (struct svg_series){ drives[d].label, NULL,
				gibs + d * cells + (size_t)b * g->nr_threads, g->nr_threads, d + 1 };
		report_bs_name(g->bs[b], bs, sizeof(bs));
		snprintf(title, sizeof(title), "GDS %s %s: throughput", gname, bs);
		struct svg_chart c = { title, "threads", "GiB/s (2^30 bytes/s)", x_ptrs,
				       g->nr_threads, series, nr };
		c.y2_factor = (double)(1ull << 30) / (double)g->bs[b];
		c.y2_label = "IOPS";
		c.emphasis = nr > 1 ? reviewed + 1 : 0;
		c.series_are_drives = true;
		if (svg_line_chart(out, &c) < 0)
			err_clear();   /* no drive has this block size's values */
	}
	free(series);
	return 0;
}

/* Every point's throughput, IOPS and mean latency, folded. */
static void gds_values_table(FILE *out, const struct report_drive *drives, unsigned nr,
			     const struct gds_group *g, double *const grids[3])
{
	size_t cells = (size_t)g->nr_bs * g->nr_threads;
	char bs[32], v[48];

	fputs("<details class=\"values\"><summary>values per point</summary>\n<table><tr>"
	      "<th class=\"l\">drive</th><th>block size</th><th>threads</th><th>GiB/s</th>"
	      "<th>IOPS</th><th>mean &micro;s</th></tr>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned b = 0; b < g->nr_bs; b++)
			for (unsigned t = 0; t < g->nr_threads; t++) {
				size_t k = d * cells + (size_t)b * g->nr_threads + t;

				if (!isfinite(grids[0][k]))
					continue;
				report_bs_name(g->bs[b], bs, sizeof(bs));
				fputs("<tr><td class=\"l\">", out);
				html_esc(out, drives[d].label);
				fprintf(out, "</td><td>%s</td><td>%u</td><td>%.3f</td>", bs,
					g->threads[t], grids[0][k]);
				report_format_number(grids[1][k], false, v, sizeof(v));
				fprintf(out, "<td>%s</td>", v);
				if (isfinite(grids[2][k]))
					fprintf(out, "<td>%.1f</td>", grids[2][k]);
				else
					fputs("<td>-</td>", out);
				fputs("</tr>\n", out);
			}
	fputs("</table>\n</details>\n", out);
}

int html_gds_findings(FILE *out, const struct report_drive *drives, unsigned nr,
		      unsigned d, bool as_item)
{
	struct gds_group groups[GDS_GROUPS];
	unsigned n = gds_groups(drives, nr, groups);

	for (unsigned gi = 0; gi < n; gi++) {
		const struct gds_group *g = &groups[gi];
		double *gibs = gds_grid(drives, nr, g, 0);
		size_t cells = (size_t)g->nr_bs * g->nr_threads;
		char gname[64], bs[32], s[300];
		bool any = false;

		if (!gibs)
			return -1;
		gds_group_name(g, gname, sizeof(gname));
		for (unsigned b = 0; b < g->nr_bs; b++) {
			const double *v = gibs + d * cells + (size_t)b * g->nr_threads;

			report_bs_name(g->bs[b], bs, sizeof(bs));
			if (!finding_gds_peak(bs, g->threads, v, g->nr_threads, s, sizeof(s)))
				continue;
			if (!any) {
				fputs(as_item ? "<li>" : "<p class=\"say\">", out);
				fputs("<b>GDS ", out);
				html_esc(out, gname);
				fputs(":</b>", out);
			}
			any = true;
			fputc(' ', out);
			html_esc(out, s);
			if (finding_gds_scaling(bs, g->threads, v, g->nr_threads, s, sizeof(s))) {
				fputc(' ', out);
				html_esc(out, s);
			}
		}
		if (any)
			fputs(as_item ? "</li>\n" : "</p>\n", out);
		free(gibs);
	}
	return 0;
}

/* The throughput and latency heatmaps of the reviewed drive over the next. */
static int gds_heatmaps(FILE *out, const struct report_drive *drives, unsigned nr,
			unsigned reviewed, unsigned gi, const struct gds_group *g,
			double *const grids[3])
{
	char row_names[GDS_AXIS][32], col_names[GDS_AXIS][12], gname[64];
	char what[2][128], id[2][24];
	const char *rp[GDS_AXIS], *cp[GDS_AXIS];
	const char **dn = calloc(nr + 1, sizeof(*dn));
	int rc = 0;

	if (!dn)
		return err_set("report: out of memory");

	for (unsigned b = 0; b < g->nr_bs; b++) {
		report_bs_name(g->bs[b], row_names[b], sizeof(row_names[b]));
		rp[b] = row_names[b];
	}
	for (unsigned t = 0; t < g->nr_threads; t++) {
		snprintf(col_names[t], sizeof(col_names[t]), "%u", g->threads[t]);
		cp[t] = col_names[t];
	}
	for (unsigned d = 0; d < nr; d++)
		dn[d] = drives[d].label;
	gds_group_name(g, gname, sizeof(gname));
	snprintf(what[0], sizeof(what[0]), "GDS %s throughput difference (GiB/s), block size x threads",
		 gname);
	snprintf(what[1], sizeof(what[1]), "GDS %s mean latency difference (\u00b5s), block size x threads",
		 gname);
	snprintf(id[0], sizeof(id[0]), "gds-%u-bw", gi);
	snprintf(id[1], sizeof(id[1]), "gds-%u-lat", gi);
	for (unsigned m = 0; m < 2; m++) {
		struct html_heat h = { id[m], what[m], m ? "\u00b5s" : "GiB/s", m ? 1 : 2, m == 1,
				       rp, g->nr_bs, cp, g->nr_threads, dn, nr, grids[m ? 2 : 0] };
		if (rc == 0 && html_heat_default(out, &h, reviewed) < 0)
			rc = -1;
	}
	free(dn);
	return rc;
}

int html_gds_section(FILE *out, const struct report_drive *drives, unsigned nr,
		     unsigned reviewed)
{
	struct gds_group groups[GDS_GROUPS];
	unsigned n = gds_groups(drives, nr, groups);

	if (!n)
		return 0;
	fputs("<section class=\"test\">\n<h2>GPU Direct Storage (gdsio)</h2>\n<p class=\"note\">"
	      "gdsio-style sweep: one synchronous I/O per thread through cuFile (GPUD), or the "
	      "host path (CPUONLY, CPU_GPU). GiB/s = 2^30 bytes/s; latency is the mean time "
	      "of one I/O. One panel per block size; the heatmaps compare two drives point by "
	      "point (the drive selector at the top picks them).</p>\n", out);
	for (unsigned k = 0; k < nr; k++) {
		html_review_open(out, k, reviewed, nr);
		if (html_gds_findings(out, drives, nr, k, false) < 0)
			return -1;
		html_review_close(out, nr);
	}
	for (unsigned gi = 0; gi < n; gi++) {
		const struct gds_group *g = &groups[gi];
		double *grids[3] = { gds_grid(drives, nr, g, 0), gds_grid(drives, nr, g, 1),
				     gds_grid(drives, nr, g, 2) };
		char gname[64];
		int rc = -1;

		if (!grids[0] || !grids[1] || !grids[2])
			goto group_done;
		gds_group_name(g, gname, sizeof(gname));
		fputs("<h3>GDS ", out);
		html_esc(out, gname);
		fputs("</h3>\n", out);
		if (gds_panels(out, drives, nr, reviewed, g, grids[0]) < 0)
			goto group_done;
		gds_values_table(out, drives, nr, g, grids);
		if (nr >= 2 && gds_heatmaps(out, drives, nr, reviewed, gi, g, grids) < 0)
			goto group_done;
		rc = 0;
group_done:
		for (unsigned m = 0; m < 3; m++)
			free(grids[m]);
		if (rc < 0)
			return -1;
	}
	fputs("</section>\n", out);
	return 0;
}
