/* test_report_sections.c - the report groups results by the identity of
 * the step that made them (issue 16): the section rules for suite results
 * and for imported jobs by their names, the job-name stems, the reader
 * names of the workloads' phases, the reviews' order of the tests, and the
 * page's sections, contents and summary in that order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/report.h"
#include "report/review/review.h"
#include "report/analysis/sections.h"
#include "job/job_spec.h"
#include "helpers/fixtures.h"

static void record(struct result_record *r, const char *job, const char *step,
		   const char *kind, const char *rw, uint64_t bs, unsigned qd, unsigned jobs,
		   double iops)
{
	int dir = strstr(rw, "write") ? DIR_WRITE : DIR_READ;

	memset(r, 0, sizeof(*r));
	snprintf(r->job_name, sizeof(r->job_name), "%s", job);
	snprintf(r->step_name, sizeof(r->step_name), "%s", step);
	snprintf(r->step_kind, sizeof(r->step_kind), "%s", kind);
	snprintf(r->rw, sizeof(r->rw), "%s", rw);
	r->bs = bs;
	r->iodepth = qd;
	r->numjobs = jobs;
	r->dir[dir].ios = 1000;
	r->dir[dir].iops = iops;
	r->dir[dir].bw_bytes = iops * (double)(bs ? bs : 65536);
	r->dir[dir].clat.mean = 100000;
}

static void expect_identity(const struct result_record *r, enum report_section s,
			    const char *group)
{
	struct report_identity id;

	report_identity_of(r, &id);
	if (id.section != s || strcmp(id.group, group))
		fail_msg("job '%s' step '%s' kind '%s': section %d group '%s', want %d '%s'",
			 r->job_name, r->step_name, r->step_kind, id.section, id.group, s, group);
}

static void test_suite_results_by_step(void **state)
{
	struct result_record r;
	(void)state;

	record(&r, "seq-fill-128k", "seq-fill-128k", "precondition", "write", 131072, 256, 1, 1);
	expect_identity(&r, SECTION_FILL, "seq-fill-128k");
	record(&r, "seq-write-128k", "seq-write-128k", "measure", "write", 131072, 16, 1, 1);
	expect_identity(&r, SECTION_SEQ128K, "");
	record(&r, "precondition-64k-round2", "precondition-64k", "steady", "randwrite", 65536,
	       32, 1, 1);
	expect_identity(&r, SECTION_NOT_A_POINT, "");
	record(&r, "rand-write-64k-qd4-j4", "rand-write-64k", "sweep", "randwrite", 65536, 4, 4, 1);
	expect_identity(&r, SECTION_RAND64K, "");
	record(&r, "seq-read-16k-qd1-j1", "seq-read-16k", "sweep", "read", 16384, 1, 1, 1);
	expect_identity(&r, SECTION_16K, "");
	record(&r, "rand-read-4k-qd1-j1", "rand-read-4k", "sweep", "randread", 4096, 1, 1, 1);
	expect_identity(&r, SECTION_4K, "");
	record(&r, "x", "seq-read-1m", "measure", "read", 1 << 20, 1, 1, 1);
	expect_identity(&r, SECTION_OTHER, "");
	/* the CDN fill is a named phase of the CDN section, not a fill */
	record(&r, "cdn-fill", "cdn-fill", "measure", "write", 1 << 20, 1, 4, 1);
	expect_identity(&r, SECTION_CDN, "cdn-fill");
	record(&r, "cdn-rand-read-qd8-j4", "cdn-rand-read", "sweep", "randread", 0, 8, 4, 1);
	expect_identity(&r, SECTION_CDN, "cdn-rand-read");
	record(&r, "obj-rand-read-4x10", "obj-rand-read-4x10", "measure", "randread", 0, 10, 4, 1);
	expect_identity(&r, SECTION_OBJECT, "obj-rand-read-4x10");
}

/* Imported fio JSON has no step: its job names say it (docs/report.md). */
static void test_imported_by_job_name(void **state)
{
	struct result_record r;
	(void)state;

	record(&r, "cdn-rand-read-qd8-j4", "", "", "randread", 0, 8, 4, 1);
	expect_identity(&r, SECTION_CDN, "cdn-rand-read");
	record(&r, "obj-seq-read-qd40", "", "", "read", 0, 40, 1, 1);
	expect_identity(&r, SECTION_OBJECT, "obj-seq-read-qd40");
	record(&r, "precondition-64k-round3", "", "", "randwrite", 65536, 32, 1, 1);
	expect_identity(&r, SECTION_NOT_A_POINT, "");
	record(&r, "seq-fill-128k", "", "", "write", 131072, 256, 1, 1);
	expect_identity(&r, SECTION_FILL, "seq-fill-128k");
	record(&r, "fill", "", "", "write", 131072, 32, 1, 1);
	expect_identity(&r, SECTION_FILL, "fill");
	/* any other name: a synthetic test, by rw and block size */
	record(&r, "randread-qd32", "", "", "randread", 4096, 32, 1, 1);
	expect_identity(&r, SECTION_4K, "");
	record(&r, "job1", "", "", "read", 131072, 32, 1, 1);
	expect_identity(&r, SECTION_SEQ128K, "");
	/* a suite's sweep and an imported one of the same test are one test */
	struct report_point a = { .rw = "randread", .bs = 4096, .section = SECTION_4K };
	struct report_point b = a;
	assert_true(report_same_test(&a, &b));
	snprintf(b.group, sizeof(b.group), "seq-fill-128k");
	assert_false(report_same_test(&a, &b));
}

static void expect_stem(const char *job, const char *want)
{
	char stem[64];

	report_job_stem(job, stem, sizeof(stem));
	if (strcmp(stem, want))
		fail_msg("stem of '%s' is '%s', want '%s'", job, stem, want);
}

static void test_job_stems(void **state)
{
	(void)state;
	expect_stem("cdn-rand-read-qd8-j4", "cdn-rand-read");
	expect_stem("obj-rand-read-qd40", "obj-rand-read");
	expect_stem("rand-write-4k-j16", "rand-write-4k");
	expect_stem("precondition-4k-round12", "precondition-4k");
	expect_stem("x-qdz", "x-qdz");
	expect_stem("qd8", "qd8");
	expect_stem("-j4", "");
	expect_stem("", "");
}

static void expect_name(const struct result_record *r, const char *want)
{
	struct report_point *pts;
	unsigned n;
	char name[128];

	assert_int_equal(report_points(r, 1, &pts, &n), 0);
	assert_int_equal(n, 1);
	report_test_name(&pts[0], name, sizeof(name));
	if (strcmp(name, want))
		fail_msg("job '%s': named '%s', want '%s'", r->job_name, name, want);
	free(pts);
}

static void test_reader_names(void **state)
{
	struct result_record r;
	(void)state;

	record(&r, "cdn-rand-read-qd1-j1", "cdn-rand-read", "sweep", "randread", 0, 1, 1, 1);
	expect_name(&r, "CDN random read");
	record(&r, "cdn-saturate", "cdn-saturate", "measure", "randwrite", 0, 32, 1, 1);
	expect_name(&r, "CDN saturation");
	record(&r, "cdn-fill", "cdn-fill", "measure", "write", 1 << 20, 1, 4, 1);
	expect_name(&r, "CDN fill");
	record(&r, "obj-rand-read-qd40", "obj-rand-read-qd40", "measure", "randread", 0, 40, 1, 1);
	expect_name(&r, "Object storage: random read, 1 thread QD40");
	record(&r, "obj-seq-read-4x10", "obj-seq-read-4x10", "measure", "read", 0, 10, 4, 1);
	expect_name(&r, "Object storage: sequential read, 4 threads QD10");
	record(&r, "seq-fill-128k", "seq-fill-128k", "precondition", "write", 131072, 256, 1, 1);
	expect_name(&r, "128K sequential write fill (seq-fill-128k)");
	record(&r, "rand-read-4k", "rand-read-4k", "sweep", "randread", 4096, 1, 1, 1);
	expect_name(&r, "4K random read");
}

/* The fill and the 128K sequential write measured at the same point stay
 * two tests; the order is the reviews'. */
static void test_reviews_order(void **state)
{
	struct result_record r[10];
	struct report_point *pts;
	unsigned n;
	(void)state;

	record(&r[0], "obj-rand-read-qd40", "obj-rand-read-qd40", "measure", "randread", 0, 40, 1, 1);
	record(&r[1], "cdn-rand-read-qd1-j1", "cdn-rand-read", "sweep", "randread", 0, 1, 1, 1);
	record(&r[2], "cdn-fill", "cdn-fill", "measure", "write", 1 << 20, 1, 4, 1);
	record(&r[3], "rand-read-4k", "rand-read-4k", "sweep", "randread", 4096, 1, 1, 1);
	record(&r[4], "seq-read-16k", "seq-read-16k", "sweep", "read", 16384, 1, 1, 1);
	record(&r[5], "rand-read-16k", "rand-read-16k", "sweep", "randread", 16384, 1, 1, 1);
	record(&r[6], "rand-read-64k", "rand-read-64k", "sweep", "randread", 65536, 1, 1, 1);
	record(&r[7], "seq-write-128k", "seq-write-128k", "measure", "write", 131072, 16, 1, 1);
	record(&r[8], "seq-fill-128k", "seq-fill-128k", "precondition", "write", 131072, 16, 1, 1);
	record(&r[9], "precondition-4k-round1", "precondition-4k", "steady", "randwrite", 4096,
	       32, 1, 1);
	assert_int_equal(report_points(r, 10, &pts, &n), 0);
	assert_int_equal(n, 9);   /* the steady round is not a point */
	const char *want[] = { "seq-fill-128k", "seq-write-128k", "rand-read-64k", "rand-read-16k",
			       "seq-read-16k", "rand-read-4k", "cdn-fill", "cdn-rand-read-qd1-j1",
			       "obj-rand-read-qd40" };
	for (unsigned i = 0; i < n; i++)
		if (strcmp(pts[i].rec->job_name, want[i]))
			fail_msg("test %u is %s, want %s", i, pts[i].rec->job_name, want[i]);
	free(pts);
}

static char *page(const struct report_drive *d, unsigned nr)
{
	struct fx_capture c;

	assert_int_equal(report_html(fx_capture_open(&c), d, nr, NULL), 0);
	return fx_capture_text(&c);
}

/* The page: summary, contents, then the sections in the reviews' order;
 * every contents link has its target; each section its two lines. */
static void test_page_order_and_contents(void **state)
{
	struct result_record r[6];
	struct report_drive d[2] = {
		{ .label = "reviewed", .recs = r, .nr = 6 },
		{ .label = "other", .recs = r, .nr = 3 },
	};
	(void)state;

	record(&r[0], "rand-read-4k", "rand-read-4k", "sweep", "randread", 4096, 1, 1, 1000);
	record(&r[1], "seq-write-128k", "seq-write-128k", "measure", "write", 131072, 16, 1, 20000);
	record(&r[2], "seq-fill-128k", "seq-fill-128k", "precondition", "write", 131072, 16, 1,
	       20000);
	record(&r[3], "obj-rand-read-qd40", "obj-rand-read-qd40", "measure", "randread", 0, 40, 1, 9);
	record(&r[4], "cdn-rand-read-qd1-j1", "cdn-rand-read", "sweep", "randread", 0, 1, 1, 50);
	record(&r[5], "cdn-rand-read-qd8-j1", "cdn-rand-read", "sweep", "randread", 0, 8, 1, 80);
	char *html = page(d, 2);
	const char *order[] = { "id=\"summary\"", "<nav class=\"toc\"", "id=\"drives\"",
				"<h2 id=\"precondition\">", "<h2 id=\"seq128k\">", "<h2 id=\"rand4k\">",
				"<h2 id=\"cdn\">", "<h2 id=\"object\">" };
	const char *at = html;
	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *next = strstr(at, order[i]);
		if (!next)
			fail_msg("'%s' missing or out of order", order[i]);
		at = next;
	}
	/* every contents link has its anchor */
	for (const char *h = strstr(html, "href=\"#"); h; h = strstr(h + 1, "href=\"#")) {
		char id[64], want[80];
		sscanf(h + 7, "%63[^\"]", id);
		snprintf(want, sizeof(want), "id=\"%s\"", id);
		if (!strstr(html, want))
			fail_msg("link #%s has no target", id);
	}
	assert_non_null(strstr(html, "<p class=\"say section-summary\"><b>Tests:</b> CDN random read."));
	/* the summary: the reviewed drive's rank against the other one */
	assert_non_null(strstr(html, "<td>1 of 2</td>"));
	/* the object test is a table row, not a chart section */
	assert_non_null(strstr(html, "<tr id=\"t5\"><td class=\"l\">Object storage: random read, 1 thread QD40"));
	free(html);
}

/* A sweep's tail at the peak per drive, a column in ms where it reaches
 * 10,000 µs; a percentile not recorded is "-". */
static void test_peak_percentiles(void **state)
{
	struct result_record r[2];
	struct report_drive d = { .label = "drive", .recs = r, .nr = 2 };
	const double pcts[] = { 99, 99.9, 99.99, 99.9999 };
	const uint64_t ns[] = { 800000, 9999000, 15000000, 42000000 };
	(void)state;

	record(&r[0], "rand-read-4k", "rand-read-4k", "sweep", "randread", 4096, 1, 1, 1000);
	record(&r[1], "rand-read-4k", "rand-read-4k", "sweep", "randread", 4096, 32, 1, 9000);
	for (unsigned i = 0; i < 4; i++)
		r[1].dir[DIR_READ].clat_pct[i] = (struct pct_value){ pcts[i], ns[i] };
	r[1].dir[DIR_READ].nr_clat_pct = 3;   /* 99.9999 not recorded */
	char *html = page(&d, 1);
	const char *t = strstr(html, "<table class=\"pct\">");
	assert_non_null(t);
	/* one unit per column, in its head: ms where the column reaches
	 * 10,000 µs */
	assert_non_null(strstr(t, "<th>mean \u00b5s</th><th>p99 \u00b5s</th><th>p99.9 \u00b5s</th>"
				  "<th>p99.99 ms</th><th>p99.9999 \u00b5s</th>"));
	assert_non_null(strstr(t, "<td>32/1</td><td>100.0</td><td>800.0</td>"
				  "<td>9,999.0</td><td>15.0</td><td>-</td>"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_results_by_step),
		cmocka_unit_test(test_imported_by_job_name),
		cmocka_unit_test(test_job_stems),
		cmocka_unit_test(test_reader_names),
		cmocka_unit_test(test_reviews_order),
		cmocka_unit_test(test_page_order_and_contents),
		cmocka_unit_test(test_peak_percentiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
