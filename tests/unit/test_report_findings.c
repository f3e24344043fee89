/* test_report_findings.c - each computed finding (src/report/analysis/findings.c)
 * on points where it must fire, with its numbers, and where it must not. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/findings.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void expect_text(const char *buf, const char *want)
{
	if (!strstr(buf, want))
		fail_msg("'%s' lacks '%s'", buf, want);
}

/* Little's law holds exactly: latency = outstanding / IOPS, flat IOPS. */
static void flat_sweep(struct finding_point *p, unsigned n, double iops)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned qd = 1u << i;
		double v = i < 2 ? iops * (i + 1) / 3 : iops * (1 - 0.005 * (double)i);
		p[i] = (struct finding_point){ qd, 1, v, v, qd / v * 1e6 };
	}
}

static void test_plateau(void **state)
{
	struct finding_point p[6];
	char buf[512];
	(void)state;

	flat_sweep(p, N(p), 100000);
	assert_true(finding_plateau(p, N(p), "IOPS", buf, sizeof(buf)));
	expect_text(buf, "Saturates from 4/1: 97.5K-99K IOPS over 4 points");
	/* still rising at its last point: no plateau */
	for (unsigned i = 0; i < N(p); i++)
		p[i].value = 1000.0 * (i + 1);
	assert_false(finding_plateau(p, N(p), "IOPS", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	/* too few points */
	assert_false(finding_plateau(p, 2, "IOPS", buf, sizeof(buf)));
}

static void test_bus(void **state)
{
	unsigned gen, lanes;
	char buf[512];
	(void)state;

	/* 1969 MB/s a Gen4 lane after 128b/130b encoding, 3938 a Gen5 one */
	assert_true(fabs(finding_link_mbs("PCIe 4.0 x4, NVMe", &gen, &lanes) - 7876) < 1e-9);
	assert_int_equal(gen, 4);
	assert_int_equal(lanes, 4);
	assert_true(fabs(finding_link_mbs("PCIe Gen5 x4", &gen, &lanes) - 15752) < 1e-9);
	assert_int_equal(gen, 5);
	assert_true(finding_link_mbs("SATA 6Gb/s", &gen, &lanes) == 0);
	assert_true(finding_link_mbs(NULL, &gen, &lanes) == 0);
	/* the reviews: Gen4 x4 reads top out about 7.1 GB/s */
	assert_true(finding_bus(7100, "PCIe 4.0 x4", buf, sizeof(buf)));
	expect_text(buf, "The 7,100.0 MB/s peak is 90% of the PCIe Gen4 x4 link (7,876.0 MB/s");
	/* the same reads on Gen5 are 45% of its link: not the ceiling */
	assert_false(finding_bus(7100, "PCIe 5.0 x4", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_true(finding_bus(14000, "PCIe 5.0 x4", buf, sizeof(buf)));
	assert_false(finding_bus(3000, "PCIe 5.0 x4", buf, sizeof(buf)));
	assert_false(finding_bus(7000, "no link named", buf, sizeof(buf)));
}

static void test_littles_law(void **state)
{
	struct finding_point p[6];
	char buf[512];
	(void)state;

	flat_sweep(p, N(p), 100000);
	assert_true(finding_littles_law(p, N(p), buf, sizeof(buf)));
	expect_text(buf, "Little's law: throughput is flat from 4/1");
	expect_text(buf, "40.4 to 328.2 \u00b5s (outstanding I/O / IOPS predicts 40.4 to 328.2)");
	/* latency that does not follow outstanding I/O */
	p[4].lat_mean_us *= 2;
	assert_false(finding_littles_law(p, N(p), buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

static void test_drop(void **state)
{
	struct finding_point p[5];
	char buf[512];
	(void)state;

	for (unsigned i = 0; i < N(p); i++)
		p[i] = (struct finding_point){ 1u << i, 1, 1000.0 * (i + 1), 0, 0 };
	assert_false(finding_drop(p, N(p), "MB/s", buf, sizeof(buf)));
	p[2].value = 1500;   /* 25% below 2000 and 4000 */
	assert_true(finding_drop(p, N(p), "MB/s", buf, sizeof(buf)));
	expect_text(buf, "Anomaly: 4/1 (1,500.0 MB/s) is 25% below both its neighbours.");
	/* a new jobs group is no neighbour: 1/4 below 32/1 is no drop */
	p[2].value = 3000;
	p[3] = (struct finding_point){ 1, 4, 100, 0, 0 };
	p[4] = (struct finding_point){ 2, 4, 200, 0, 0 };
	assert_false(finding_drop(p, N(p), "MB/s", buf, sizeof(buf)));
	/* the last of a group against the previous queue depth */
	p[4].value = 50;
	assert_true(finding_drop(p, N(p), "MB/s", buf, sizeof(buf)));
	expect_text(buf, "below the previous queue depth");
}

static void test_rating(void **state)
{
	struct finding_point p[4] = {
		{ 1, 1, 50e3, 0, 0 }, { 4, 1, 100e3, 0, 0 }, { 16, 1, 130e3, 0, 0 }, { 32, 1, 125e3, 0, 0 },
	};
	char buf[512];
	(void)state;

	assert_true(finding_rating(p, 4, "IOPS", 120e3, buf, sizeof(buf)));
	expect_text(buf, "At or above its 120K IOPS rating in 2 of 4 points, all at 16 outstanding");
	assert_true(finding_rating(p, 4, "IOPS", 200e3, buf, sizeof(buf)));
	expect_text(buf, "Below its 200K IOPS rating at every point (best 65% of it).");
	assert_true(finding_rating(p + 2, 1, "IOPS", 120e3, buf, sizeof(buf)));
	expect_text(buf, "At or above its 120K IOPS rating (+8.3%).");
	assert_false(finding_rating(p, 4, "IOPS", 0, buf, sizeof(buf)));
}

static void test_rank(void **state)
{
	char buf[512];
	(void)state;

	assert_true(finding_rank(2, 5, 4, 1.02e6, "IOPS", "leader", 1.11e6, NAN, NULL, buf,
				 sizeof(buf)));
	expect_text(buf, "Ranks 2 of 5 (at the 4 points all 5 ran, best of each): 1.02M IOPS, "
		    "8.1% behind the leader, leader (1.11M IOPS).");
	assert_true(finding_rank(1, 3, 1, 7000, "MB/s", "me", 7000, 3.2, "x, y", buf, sizeof(buf)));
	expect_text(buf, "Leads the 3 drives by 3.2% over the next (at the 1 point all 3 ran, "
		    "best of each). Not ranked (ran a different matrix): x, y.");
	assert_false(finding_rank(1, 1, 3, 7000, "MB/s", "me", 7000, NAN, "", buf, sizeof(buf)));
	/* past twice the next: a ratio */
	assert_true(finding_rank(1, 2, 1, 7000, "MB/s", "me", 7000, 1078.7, NULL, buf, sizeof(buf)));
	expect_text(buf, "Leads the 2 drives at 11.8x the next (at the 1 point all 2 ran, best of "
		    "each).");
	/* no point shared: no rank */
	assert_false(finding_rank(1, 2, 0, 7000, "MB/s", "me", 7000, NAN, "", buf, sizeof(buf)));
}

static void test_checkpoint(void **state)
{
	/* the Russian review's pass times (seeds/001): 459-465 s, then 578 s */
	double mean[3] = { 462.0, 578.0, 580.0 }, lo[3] = { 459, 570, 575 }, hi[3] = { 465, 590, 585 };
	char buf[512];
	(void)state;

	assert_true(finding_checkpoint(mean, lo, hi, 3, 1636e9, 3000, buf, sizeof(buf)));
	expect_text(buf, "Pass 2 is 25.1% slower than pass 1");
	expect_text(buf, "pass 1 ranges 459.000-465.000 s");
	expect_text(buf, "Pass 1 writes 3.54 GB/s, 118% of its own 128K sequential write");
	assert_false(finding_checkpoint(mean, lo, hi, 0, 1, 0, buf, sizeof(buf)));
	/* past twice the other pass: a ratio, either way (issue 27.11) */
	double slow[2] = { 0.014, 0.164 }, fast[2] = { 0.180, 0.072 };
	assert_true(finding_checkpoint(slow, slow, slow, 2, 0, 0, buf, sizeof(buf)));
	expect_text(buf, "Pass 2 is 11.7x slower than pass 1 (0.164 s vs 0.014 s per checkpoint)");
	assert_true(finding_checkpoint(fast, fast, fast, 2, 0, 0, buf, sizeof(buf)));
	expect_text(buf, "Pass 2 is 2.5x faster than pass 1 (0.072 s vs 0.180 s per checkpoint)");
	/* twice exactly: still a percentage */
	double twice[2] = { 1.0, 2.0 };
	assert_true(finding_checkpoint(twice, twice, twice, 2, 0, 0, buf, sizeof(buf)));
	expect_text(buf, "Pass 2 is 100.0% slower than pass 1");
}

/* GDS: the peak per block size and where; a drop past the peak fires only
 * beyond FINDING_GDS_DROP_SHARE (the reviews' 128K writes past 32 threads). */
static void test_gds(void **state)
{
	static const unsigned threads[] = { 1, 4, 8, 16, 32, 64, 128 };
	double rising[] = { 0.4, 1.5, 2.9, 4.8, 5.6, 5.7, 5.65 };
	double falling[] = { 0.4, 1.5, 2.9, 4.8, 5.62, 5.0, 4.61 };
	double gaps[] = { NAN, 1.0, NAN, 2.0, NAN, NAN, 1.85 };
	double none[] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	char buf[256];
	(void)state;

	assert_true(finding_gds_peak("128K", threads, rising, 7, buf, sizeof(buf)));
	assert_string_equal(buf, "128K peaks at 5.70 GiB/s with 64 threads.");
	/* 5.65 is 0.9% below its peak: no drop */
	assert_false(finding_gds_scaling("128K", threads, rising, 7, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_true(finding_gds_scaling("128K", threads, falling, 7, buf, sizeof(buf)));
	assert_string_equal(buf, "128K drops 18% past its 32-thread peak: 4.61 GiB/s at 128 "
			    "threads against 5.62 GiB/s.");
	/* 7.5% below: under the threshold; missing points are skipped */
	assert_true(finding_gds_peak("1M", threads, gaps, 7, buf, sizeof(buf)));
	assert_string_equal(buf, "1M peaks at 2.00 GiB/s with 16 threads.");
	assert_false(finding_gds_scaling("1M", threads, gaps, 7, buf, sizeof(buf)));
	gaps[6] = 1.79;   /* 10.5% below */
	assert_true(finding_gds_scaling("1M", threads, gaps, 7, buf, sizeof(buf)));
	assert_false(finding_gds_peak("16K", threads, none, 7, buf, sizeof(buf)));
	assert_false(finding_gds_scaling("16K", threads, none, 7, buf, sizeof(buf)));
	assert_true(finding_gds_peak("16K", threads, rising, 1, buf, sizeof(buf)));
	assert_string_equal(buf, "16K peaks at 0.40 GiB/s with 1 thread.");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plateau),
		cmocka_unit_test(test_bus),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_rating),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_checkpoint),
		cmocka_unit_test(test_gds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
