/* findings.c - computed findings, each a sentence with its numbers (see
 * the header for the sentences and the thresholds). */
#include "report/analysis/findings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/report.h"
#include "util/units.h"

static void clear(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}

static unsigned peak_of(const struct finding_point *pts, unsigned n)
{
	unsigned peak = 0;

	for (unsigned i = 1; i < n; i++)
		if (pts[i].value > pts[peak].value)
			peak = i;
	return peak;
}

static void num(double v, bool compact, char *buf, size_t len)
{
	report_format_number(v, compact, buf, len);
}

bool finding_plateau(const struct finding_point *pts, unsigned n, const char *unit,
		     char *buf, size_t len)
{
	bool iops = !strcmp(unit, "IOPS");
	unsigned first = n, count = 0;
	double lo = INFINITY, hi = -INFINITY;
	char a[48], b[48], p[48];

	clear(buf, len);
	if (n < FINDING_PLATEAU_MIN)
		return false;
	double peak = pts[peak_of(pts, n)].value;
	for (unsigned i = 0; i < n; i++)
		if (pts[i].value >= FINDING_PLATEAU_SHARE * peak) {
			if (first == n)
				first = i;
			count++;
			lo = fmin(lo, pts[i].value);
			hi = fmax(hi, pts[i].value);
		}
	/* still rising at the end is no plateau */
	if (count < FINDING_PLATEAU_MIN || first == n - 1)
		return false;
	num(lo, iops, a, sizeof(a));
	num(hi, iops, b, sizeof(b));
	num(peak, iops, p, sizeof(p));
	snprintf(buf, len, "Saturates from %u/%u: %s-%s %s over %u points (within %.0f%% of the "
		 "%s %s peak).", pts[first].iodepth, pts[first].numjobs, a, b, unit, count,
		 FINDING_PLATEAU_SHARE * 100, p, unit);
	return true;
}

double finding_link_mbs(const char *interface, unsigned *gen, unsigned *lanes)
{
	const char *at;
	unsigned g = 0, l = 0;

	*gen = *lanes = 0;
	if (!interface)
		return 0;
	/* "PCIe 4.0 x4", "PCIe Gen5 x4", "Gen4 x4", "PCIe 5 x2" */
	if ((at = strstr(interface, "Gen")) || (at = strstr(interface, "gen")))
		g = (unsigned)strtoul(at + 3, NULL, 10);
	else if ((at = strstr(interface, "PCIe ")))
		g = (unsigned)strtoul(at + 5, NULL, 10);
	if ((at = strstr(interface, " x")) || (at = strstr(interface, "x")))
		l = (unsigned)strtoul(at + (at[0] == ' ' ? 2 : 1), NULL, 10);
	if (units_pcie_lane_mbs(g) <= 0 || l < 1 || l > 32)
		return 0;
	*gen = g;
	*lanes = l;
	return units_pcie_lane_mbs(g) * l;
}

bool finding_bus(double peak_mbs, const char *interface, char *buf, size_t len)
{
	unsigned gen, lanes;
	double link = finding_link_mbs(interface, &gen, &lanes);
	char p[48], l[48];

	clear(buf, len);
	if (link <= 0 || peak_mbs < FINDING_BUS_SHARE * link)
		return false;
	num(peak_mbs, false, p, sizeof(p));
	num(link, false, l, sizeof(l));
	snprintf(buf, len, "The %s MB/s peak is %.0f%% of the PCIe Gen%u x%u link (%s MB/s "
		 "after encoding): the bus is the ceiling.", p, 100 * peak_mbs / link, gen, lanes, l);
	return true;
}

bool finding_littles_law(const struct finding_point *pts, unsigned n, char *buf, size_t len)
{
	unsigned first = n, last = 0, count = 0;
	char a[48], b[48], pa[48], pb[48];

	clear(buf, len);
	if (n < FINDING_PLATEAU_MIN)
		return false;
	double peak = pts[peak_of(pts, n)].value;
	for (unsigned i = 0; i < n; i++) {
		if (pts[i].value < FINDING_PLATEAU_SHARE * peak)
			continue;
		double outstanding = (double)pts[i].iodepth * pts[i].numjobs;
		double predicted = pts[i].iops > 0 ? outstanding / pts[i].iops * 1e6 : NAN;
		if (!isfinite(predicted) ||
		    fabs(pts[i].lat_mean_us / predicted - 1) > FINDING_LITTLE_TOLERANCE)
			return false;
		if (first == n)
			first = i;
		last = i;
		count++;
	}
	double out_first = (double)pts[first].iodepth * pts[first].numjobs;
	double out_last = (double)pts[last].iodepth * pts[last].numjobs;
	/* latency must grow with outstanding I/O: at least 2x more of it */
	if (count < FINDING_PLATEAU_MIN || out_last < 2 * out_first)
		return false;
	num(pts[first].lat_mean_us, false, a, sizeof(a));
	num(pts[last].lat_mean_us, false, b, sizeof(b));
	num(out_first / pts[first].iops * 1e6, false, pa, sizeof(pa));
	num(out_last / pts[last].iops * 1e6, false, pb, sizeof(pb));
	snprintf(buf, len, "Little's law: throughput is flat from %u/%u while mean latency grows "
		 "with outstanding I/O, %s to %s \u00b5s (outstanding I/O / IOPS predicts %s to %s).",
		 pts[first].iodepth, pts[first].numjobs, a, b, pa, pb);
	return true;
}

bool finding_drop(const struct finding_point *pts, unsigned n, const char *unit,
		  char *buf, size_t len)
{
	bool iops = !strcmp(unit, "IOPS");
	char v[48];

	clear(buf, len);
	for (unsigned i = 1; i < n; i++) {
		/* neighbours in the same jobs group: QD before and after */
		if (pts[i - 1].numjobs != pts[i].numjobs)
			continue;
		bool has_next = i + 1 < n && pts[i + 1].numjobs == pts[i].numjobs;
		double limit = (1 - FINDING_DROP_SHARE);
		if (pts[i].value >= limit * pts[i - 1].value)
			continue;
		if (has_next && pts[i].value >= limit * pts[i + 1].value)
			continue;
		double ref = has_next ? fmin(pts[i - 1].value, pts[i + 1].value) : pts[i - 1].value;
		num(pts[i].value, iops, v, sizeof(v));
		snprintf(buf, len, "Anomaly: %u/%u (%s %s) is %.0f%% below %s.", pts[i].iodepth,
			 pts[i].numjobs, v, unit, 100 * (1 - pts[i].value / ref),
			 has_next ? "both its neighbours" : "the previous queue depth");
		return true;
	}
	return false;
}

bool finding_rating(const struct finding_point *pts, unsigned n, const char *unit,
		    double rating, char *buf, size_t len)
{
	bool iops = !strcmp(unit, "IOPS");
	unsigned above = 0;
	double min_out = INFINITY;
	char r[48], m[32];

	clear(buf, len);
	if (rating <= 0 || !n)
		return false;
	report_format_rating(rating, iops, r, sizeof(r));
	for (unsigned i = 0; i < n; i++)
		if (pts[i].value >= rating) {
			above++;
			min_out = fmin(min_out, (double)pts[i].iodepth * pts[i].numjobs);
		}
	if (n == 1) {
		report_format_margin(report_pct_diff(pts[0].value, rating), m, sizeof(m));
		snprintf(buf, len, "%s its %s %s rating (%s).", above ? "At or above" : "Below",
			 r, unit, m);
		return true;
	}
	if (!above) {
		snprintf(buf, len, "Below its %s %s rating at every point (best %.0f%% of it).", r,
			 unit, 100 * pts[peak_of(pts, n)].value / rating);
		return true;
	}
	snprintf(buf, len, "At or above its %s %s rating in %u of %u points, all at %.0f "
		 "outstanding I/O or more.", r, unit, above, n, min_out);
	return true;
}

bool finding_rank(unsigned rank, unsigned of, unsigned shared, double value, const char *unit,
		  const char *leader, double leader_value, double runner_up_pct,
		  const char *not_ranked, char *buf, size_t len)
{
	bool iops = !strcmp(unit, "IOPS");
	char v[48], l[48], at[96];
	int used;

	clear(buf, len);
	if (of < 2 || rank < 1 || !shared)
		return false;
	snprintf(at, sizeof(at), "at the %u point%s all %u ran, best of each", shared,
		 shared == 1 ? "" : "s", of);
	if (rank == 1 && isfinite(runner_up_pct) && runner_up_pct > 100) {
		/* past twice the next: a ratio reads better than a percentage */
		used = snprintf(buf, len, "Leads the %u drives at %.1fx the next (%s).", of,
				1 + runner_up_pct / 100, at);
	} else if (rank == 1) {
		used = snprintf(buf, len, "Leads the %u drives by %.1f%% over the next (%s).", of,
				isfinite(runner_up_pct) ? runner_up_pct : 0, at);
	} else {
		num(value, iops, v, sizeof(v));
		num(leader_value, iops, l, sizeof(l));
		used = snprintf(buf, len, "Ranks %u of %u (%s): %s %s, %.1f%% behind the leader, "
				"%s (%s %s).", rank, of, at, v, unit,
				-report_pct_diff(value, leader_value), leader, l, unit);
	}
	if (not_ranked && not_ranked[0] && used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " Not ranked (ran a different matrix): %s.",
			 not_ranked);
	return true;
}

bool finding_checkpoint(const double *pass_mean, const double *pass_min,
			const double *pass_max, unsigned passes, double bytes,
			double seq_write_mbs, char *buf, size_t len)
{
	size_t used = 0;

	clear(buf, len);
	if (passes < 1 || !(pass_mean[0] > 0))
		return false;
	if (passes >= 2 && pass_mean[1] > 0) {
		double drift = report_pct_diff(pass_mean[1], pass_mean[0]);
		double ratio = drift >= 0 ? pass_mean[1] / pass_mean[0] : pass_mean[0] / pass_mean[1];
		char by[32];

		/* past twice the other pass: a ratio reads better than a percentage */
		if (ratio > 2)
			snprintf(by, sizeof(by), "%.1fx", ratio);
		else
			snprintf(by, sizeof(by), "%.1f%%", fabs(drift));
		used += (size_t)snprintf(buf + used, len - used,
					 "Pass 2 is %s %s than pass 1 (%.3f s vs %.3f s per "
					 "checkpoint); ", by, drift >= 0 ? "slower" : "faster",
					 pass_mean[1], pass_mean[0]);
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "pass 1 ranges %.3f-%.3f s.",
					 pass_min[0], pass_max[0]);
	double gbs = bytes / pass_mean[0] / 1e9;
	if (used < len && seq_write_mbs > 0 && bytes > 0)
		snprintf(buf + used, len - used, " Pass 1 writes %.2f GB/s, %.0f%% of its own 128K "
			 "sequential write (%.2f GB/s).", gbs, 100 * gbs * 1e3 / seq_write_mbs,
			 seq_write_mbs / 1e3);
	return true;
}
