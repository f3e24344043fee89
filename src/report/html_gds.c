/* html_gds.c - the GDS sweep on the review page: one chart per block size, the
 * values and the heatmap of two drives. */
#include "report/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "report/record_kind.h"
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

int html_gds_section(FILE *out, const struct report_drive *drives, unsigned nr)
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

