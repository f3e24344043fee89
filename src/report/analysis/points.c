/* points.c - the per-point view of result records that the report and
 * compare share: one entry per direction with I/O, keyed by test (rw, bs,
 * direction) and point (iodepth, numjobs), in the reviews' point order. */
#include "report/analysis/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/record_kind.h"
#include "util/error.h"
#include "util/units.h"
#include "job/job_spec.h"

int report_point_order(unsigned iodepth_a, unsigned numjobs_a,
		       unsigned iodepth_b, unsigned numjobs_b)
{
	if (numjobs_a != numjobs_b)
		return numjobs_a < numjobs_b ? -1 : 1;
	if (iodepth_a != iodepth_b)
		return iodepth_a < iodepth_b ? -1 : 1;
	return 0;
}

bool report_same_test(const struct report_point *a, const struct report_point *b)
{
	return a->section == b->section && a->bs == b->bs && a->dir == b->dir &&
	       !strcmp(a->rw, b->rw) && !strcmp(a->mix, b->mix) && !strcmp(a->group, b->group);
}

/* The size split of a mixed-size result, from its options: the split file's
 * name, or the split itself. "" when neither was given. */
static void mix_of(const struct result_record *rec, char *out, size_t len)
{
	cJSON *opts = rec->options_json ? cJSON_Parse(rec->options_json) : NULL;
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(opts, "bssplit_file");
	const cJSON *split = cJSON_GetObjectItemCaseSensitive(opts, "bssplit");

	out[0] = '\0';
	if (cJSON_IsString(file)) {
		const char *base = strrchr(file->valuestring, '/');

		snprintf(out, len, "%s", base ? base + 1 : file->valuestring);
	} else if (cJSON_IsString(split)) {
		snprintf(out, len, "%s", split->valuestring);
	}
	cJSON_Delete(opts);
}

/* random 0, sequential 1, anything else 2 */
static int pattern_rank(const char *rw)
{
	if (!strncmp(rw, "rand", 4))
		return 0;
	if (!strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "rw") ||
	    !strcmp(rw, "readwrite"))
		return 1;
	return 2;
}

static int cdn_phase_rank(const char *group)
{
	if (strstr(group, "fill"))
		return 0;
	if (strstr(group, "satur"))
		return 1;
	return 2;
}

int report_test_order(const struct report_point *a, const struct report_point *b)
{
	int c;

	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	/* the CDN workload's phases in the order they run: the fill, the
	 * saturation, then the sweeps; the object tests by threads */
	if (a->section == SECTION_CDN && (c = cdn_phase_rank(a->group) - cdn_phase_rank(b->group)))
		return c;
	if (a->section == SECTION_OBJECT && a->numjobs != b->numjobs)
		return a->numjobs < b->numjobs ? -1 : 1;
	if ((c = pattern_rank(a->rw) - pattern_rank(b->rw)))
		return c;
	if ((c = strcmp(a->rw, b->rw)))
		return c;
	if (a->dir != b->dir)
		return a->dir - b->dir;
	if (a->bs != b->bs)
		return a->bs < b->bs ? -1 : 1;
	if ((c = strcmp(a->mix, b->mix)))
		return c;
	return strcmp(a->group, b->group);
}

static int compare_points(const void *pa, const void *pb)
{
	const struct report_point *a = pa, *b = pb;
	int c = report_test_order(a, b);

	if (c)
		return c;
	return report_point_order(a->iodepth, a->numjobs, b->iodepth, b->numjobs);
}

void report_bs_name(uint64_t bs, char *buf, size_t len)
{
	if (bs == 0)
		snprintf(buf, len, "mixed");
	else
		units_format_bytes(bs, UNITS_BLOCK_SHORT, 0, buf, len);
}

void report_test_name(const struct report_point *p, char *buf, size_t len)
{
	char bs[48], phase[128];

	report_phase_name(p->section, p->group, p->rw, p->iodepth, p->numjobs, phase,
			  sizeof(phase));
	if (phase[0] && p->section != SECTION_FILL) {
		/* a workload's phase: its own name, never its size split */
		snprintf(buf, len, "%s", phase);
		if (p->section == SECTION_CDN && !strcmp(p->rw, "randrw"))
			snprintf(buf, len, "%s (%s)", phase, p->dir == DIR_READ ? "read" : "write");
		if (p->name_split && p->mix[0]) {
			size_t n = strlen(buf);
			snprintf(buf + n, len - n, " (split %s)", p->mix);
		}
		return;
	}
	const char *pattern = "";
	const char *dir = p->dir == DIR_READ ? "read" : "write";

	report_bs_name(p->bs, bs, sizeof(bs));
	if (p->bs == 0 && p->mix[0])
		snprintf(bs, sizeof(bs), "mixed (%.22s%s)", p->mix,
			 strlen(p->mix) > 22 ? "..." : "");
	if (!strcmp(p->rw, "read") || !strcmp(p->rw, "write"))
		pattern = "sequential ";
	else if (!strcmp(p->rw, "randread") || !strcmp(p->rw, "randwrite"))
		pattern = "random ";
	else if (!strcmp(p->rw, "randrw"))
		pattern = "random mixed, ";
	else if (!strcmp(p->rw, "rw") || !strcmp(p->rw, "readwrite"))
		pattern = "sequential mixed, ";
	if (!*pattern)
		snprintf(buf, len, "%s %s (%s)", bs, p->rw, dir);
	else
		snprintf(buf, len, "%s %s%s", bs, pattern, dir);
	if (p->section == SECTION_FILL && p->group[0]) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " fill (%s)", p->group);
	}
}

double report_pct_diff(double a, double b)
{
	if (!isfinite(a) || !isfinite(b) || b == 0)
		return NAN;
	return (a - b) / b * 100.0;
}

/* The mean and the percentiles come from one latency: fio's total latency
 * (lat) when its percentiles were recorded, else the completion latency
 * (clat), which is what fio reports percentiles of by default. */
static double percentile_us(const struct pct_value *pct, unsigned n, double want)
{
	for (unsigned i = 0; i < n && i < RECORD_PCT_MAX; i++)
		if (fabs(pct[i].pct - want) < 1e-6)
			return pct[i].value_ns / 1000.0;
	return NAN;
}

static void latency_of(const struct dir_record *d, struct report_point *p)
{
	const struct pct_value *pct = d->clat_pct;
	unsigned n = d->nr_clat_pct;
	double mean = d->clat.mean;

	if (d->nr_lat_pct || (!d->nr_clat_pct && !d->clat.n && d->clat.mean <= 0)) {
		pct = d->lat_pct;
		n = d->nr_lat_pct;
		mean = d->lat.mean;
	}
	p->lat_mean_us = mean / 1000.0;
	p->p99_us = percentile_us(pct, n, 99.0);
	p->p999_us = percentile_us(pct, n, 99.9);
	p->p9999_us = percentile_us(pct, n, 99.99);
	p->p999999_us = percentile_us(pct, n, 99.9999);
}

int report_points(const struct result_record *recs, unsigned nr,
		  struct report_point **points, unsigned *nr_points)
{
	struct report_point *out = NULL;
	unsigned n = 0;

	*points = NULL;
	*nr_points = 0;
	if (nr) {
		out = calloc((size_t)nr * DIR_COUNT, sizeof(*out));
		if (!out)
			return err_set("report: out of memory");
	}
	for (unsigned r = 0; r < nr; r++) {
		const struct result_record *rec = &recs[r];
		unsigned ckpt_pass, ckpt_index;

		/* checkpoint results have their own section (html.c), they are
		 * not points of a sequential-write test */
		if (record_checkpoint(rec, &ckpt_pass, &ckpt_index))
			continue;
		/* so do GDS points (gdsio-style sweeps) */
		char gds_xfer[16], gds_mode[16];
		if (record_gds(rec, gds_xfer, sizeof(gds_xfer), gds_mode, sizeof(gds_mode)))
			continue;
		struct report_identity id;
		report_identity_of(rec, &id);
		if (id.section == SECTION_NOT_A_POINT)
			continue;
		for (int d = 0; d < DIR_COUNT; d++) {
			const struct dir_record *dr = &rec->dir[d];
			struct report_point p = { 0 };
			unsigned j;

			if (dr->ios == 0 && dr->bytes == 0)
				continue;
			p.rw = rec->rw;
			p.bs = rec->bs;
			if (rec->bs == 0)
				mix_of(rec, p.mix, sizeof(p.mix));
			p.dir = d;
			p.section = id.section;
			snprintf(p.group, sizeof(p.group), "%s", id.group);
			p.iodepth = rec->iodepth ? rec->iodepth : 1;
			p.numjobs = rec->numjobs ? rec->numjobs : 1;
			p.mbs = dr->bw_bytes / 1e6;
			p.iops = dr->iops;
			latency_of(dr, &p);
			p.rec = rec;
			/* a later result of the same point replaces the earlier */
			for (j = 0; j < n; j++)
				if (report_same_test(&out[j], &p) && out[j].iodepth == p.iodepth
				    && out[j].numjobs == p.numjobs)
					break;
			out[j] = p;
			if (j == n)
				n++;
		}
	}
	if (n)
		qsort(out, n, sizeof(*out), compare_points);
	*points = out;
	*nr_points = n;
	return 0;
}
