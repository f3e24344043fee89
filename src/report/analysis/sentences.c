/* sentences.c - the sentences a reviewer writes from a sweep, computed: the
 * peak and where it occurred, the 1/1 latency, the worst latency, where
 * throughput flattens and how the drive measures against its rating. Also
 * the number formatting the report and compare share. */
#include "report/analysis/report.h"
#include "report/analysis/slices.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"

/* The share of the peak at which a sweep counts as flat. */
#define FLAT_SHARE 0.95

void report_format_number(double v, bool compact, char *buf, size_t len)
{
	char digits[64], *dot;
	size_t int_len, o = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (compact && fabs(v) >= 1e6) {
		snprintf(buf, len, "%.3gM", v / 1e6);
		return;
	}
	if (compact && fabs(v) >= 1e3) {
		snprintf(buf, len, "%.4gK", v / 1e3);
		return;
	}
	/* two decimals below 10 so that sub-microsecond latencies stay visible */
	snprintf(digits, sizeof(digits), fabs(v) < 10 ? "%.2f" : "%.1f", fabs(v));
	dot = strchr(digits, '.');
	int_len = dot ? (size_t)(dot - digits) : strlen(digits);
	if (len == 0)
		return;
	if (v < 0 && o + 1 < len)
		buf[o++] = '-';
	for (size_t i = 0; digits[i] && o + 1 < len; i++) {
		if (i > 0 && i < int_len && (int_len - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

void report_format_rating(double v, bool compact, char *buf, size_t len)
{
	size_t l;

	report_format_number(v, compact, buf, len);
	l = strlen(buf);
	if (l > 2 && !strcmp(buf + l - 2, ".0"))
		buf[l - 2] = '\0';
	else if (l > 3 && !strcmp(buf + l - 3, ".00"))
		buf[l - 3] = '\0';
}

void report_format_margin(double pct, char *buf, size_t len)
{
	if (pct > 100)
		snprintf(buf, len, "%.1fx", 1 + pct / 100);
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

int sweep_facts(const struct sweep_point *pts, unsigned n, double rating,
		struct sweep_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->one_one = -1;
	if (n == 0)
		return err_set("sweep without points");
	for (unsigned i = 0; i < n; i++) {
		if (pts[i].value > pts[f->peak].value)
			f->peak = i;
		if (pts[i].lat_mean_us > pts[f->worst_lat].lat_mean_us)
			f->worst_lat = i;
		if (pts[i].iodepth == 1 && pts[i].numjobs == 1 && f->one_one < 0)
			f->one_one = (int)i;
	}
	for (unsigned i = 0; i < n; i++)
		if (pts[i].value >= FLAT_SHARE * pts[f->peak].value) {
			f->flat = i;
			break;
		}
	f->rated = rating > 0;
	if (f->rated)
		for (unsigned i = 0; i < n; i++)
			if (pts[i].value >= rating)
				f->above_rating++;
	return 0;
}

static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return used;
	return used + (size_t)n < len ? used + (size_t)n : len - 1;
}

int sweep_sentences(const struct sweep_point *pts, unsigned n, const char *unit,
		    double rating, char *buf, size_t len)
{
	struct sweep_facts f;
	char v[48], l[48], r[48];
	bool iops = !strcmp(unit, "IOPS");
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (sweep_facts(pts, n, rating, &f) < 0)
		return -1;
	report_format_number(pts[f.peak].value, iops, v, sizeof(v));
	used = append(buf, len, used, "Peak %s %s at %u/%u.", v, unit,
		      pts[f.peak].iodepth, pts[f.peak].numjobs);
	if (f.one_one >= 0) {
		report_format_number(pts[f.one_one].value, iops, v, sizeof(v));
		report_format_number(pts[f.one_one].lat_mean_us, false, l, sizeof(l));
		used = append(buf, len, used, " At 1/1: %s %s, mean latency %s \u00b5s.",
			      v, unit, l);
	}
	report_format_number(pts[f.worst_lat].lat_mean_us, false, l, sizeof(l));
	used = append(buf, len, used, " Worst mean latency %s \u00b5s at %u/%u.", l,
		      pts[f.worst_lat].iodepth, pts[f.worst_lat].numjobs);
	if (n > 1 && f.flat == n - 1)
		used = append(buf, len, used, " Throughput still rises at the last point (%u/%u).",
			      pts[f.flat].iodepth, pts[f.flat].numjobs);
	else if (n > 1)
		used = append(buf, len, used,
			      " Throughput flattens at %u/%u (first point within 95%% of the peak).",
			      pts[f.flat].iodepth, pts[f.flat].numjobs);
	if (f.rated) {
		report_format_rating(rating, iops, r, sizeof(r));
		if (f.above_rating > 0)
			used = append(buf, len, used, " At or above its %s %s rating in %u of %u points.",
				      r, unit, f.above_rating, n);
		else
			used = append(buf, len, used,
				      " Below its %s %s rating at every point (best %.0f%% of it).",
				      r, unit, 100.0 * pts[f.peak].value / rating);
	}
	(void)used;
	return 0;
}

double spec_rating_for(const struct drive_spec *spec, const char *rw, uint64_t bs,
		       int dir, bool *unit_iops)
{
	*unit_iops = false;
	if (!spec)
		return 0;
	if (!strcmp(rw, "randread") && dir == DIR_READ) {
		*unit_iops = true;
		return bs == (spec->rand_read_bs ? spec->rand_read_bs : 4096)
			? spec->rand_read_iops : 0;
	}
	if (!strcmp(rw, "randwrite") && dir == DIR_WRITE) {
		*unit_iops = true;
		return bs == (spec->rand_write_bs ? spec->rand_write_bs : 4096)
			? spec->rand_write_iops : 0;
	}
	/* sequential ratings are quoted for large blocks (128K) */
	if (bs >= 65536 && !strcmp(rw, "read") && dir == DIR_READ)
		return spec->seq_read_mbs;
	if (bs >= 65536 && !strcmp(rw, "write") && dir == DIR_WRITE)
		return spec->seq_write_mbs;
	return 0;
}

double report_test_rating(const struct drive_spec *spec, const struct report_point *test)
{
	bool rating_iops;
	double rating = spec_rating_for(spec, test->rw, test->bs, test->dir, &rating_iops);

	if (rating <= 0 || rating_iops != report_headline_iops(test))
		return 0;
	if (test->group[0] && test->section != SECTION_FILL)
		return 0;
	return rating;
}
