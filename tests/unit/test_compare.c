/* test_compare.c - the compare table on synthetic records: the points of
 * three drives (the rows every drive has, '-' for the others, the % against
 * A, a later result replacing an earlier, steady rounds not taken as
 * points), checkpoint passes (pass means, read-back last, stopped and
 * replaced checkpoints), GDS points (per transfer type, block size,
 * threads, direction; stopped ones left out), steady steps (the metric's
 * unit), the blocks' order and absence, the drive count limits, and the
 * text and JSON output (header marks, titles, count lines, the not-whole
 * warning line, nulls). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "report/compare/compare_table.h"
#include "util/error.h"
#include "helpers/fixtures.h"

static void fill_record(struct result_record *r, const char *rw, uint64_t bs, int dir,
			unsigned qd, unsigned jobs, double iops, double lat_us)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->rw, sizeof(r->rw), "%s", rw);
	r->bs = bs;
	r->iodepth = qd;
	r->numjobs = jobs;
	r->dir[dir].ios = (uint64_t)iops * 10;
	r->dir[dir].bytes = r->dir[dir].ios * bs;
	r->dir[dir].iops = iops;
	r->dir[dir].bw_bytes = iops * (double)bs;
	r->dir[dir].clat.n = r->dir[dir].ios;
	r->dir[dir].clat.mean = lat_us * 1000;
	r->dir[dir].lat.n = r->dir[dir].ios;
	r->dir[dir].lat.mean = lat_us * 1000;
	r->dir[dir].clat_pct[0] = (struct pct_value){ 99.0, (uint64_t)(lat_us * 2000) };
	r->dir[dir].nr_clat_pct = 1;
}

static void checkpoint_record(struct result_record *r, unsigned pass, unsigned index,
			      double seconds, uint64_t bytes)
{
	fill_record(r, pass ? "write" : "read", 1048576, pass ? DIR_WRITE : DIR_READ, 1, 1, 100, 10);
	snprintf(r->step_kind, sizeof(r->step_kind), "%s", pass ? "checkpoint" : "checkpoint-read");
	r->has_pass = true;
	r->pass = pass;
	r->pass_index = index;
	r->runtime_ns = (uint64_t)(seconds * 1e9);
	r->dir[pass ? DIR_WRITE : DIR_READ].bytes = bytes;
}

static const char gds_opts[] = "{\"gds_xfer\":\"CPUONLY\",\"gds_mode\":\"host\"}";

static void gds_record(struct result_record *r, const char *rw, uint64_t bs, unsigned threads,
		       double gib)
{
	int dir = strstr(rw, "write") ? DIR_WRITE : DIR_READ;

	fill_record(r, rw, bs, dir, 1, threads, gib * (double)(1ull << 30) / (double)bs, 50);
	r->dir[dir].bw_bytes = gib * (double)(1ull << 30);
	r->options_json = (char *)gds_opts;
	snprintf(r->step_kind, sizeof(r->step_kind), "gds");
}

static const struct compare_row *find_row(const struct compare_block *b, const char *name,
					  const char *where)
{
	char n[256], w[64];

	for (unsigned i = 0; i < b->nr_rows; i++) {
		compare_row_name(b, &b->rows[i], n, sizeof(n), w, sizeof(w));
		if (!strcmp(n, name) && !strcmp(w, where))
			return &b->rows[i];
	}
	return NULL;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

static char *text_of(const struct compare_table *t, const struct compare_who *who, bool json)
{
	struct fx_capture c;
	FILE *f = fx_capture_open(&c);

	assert_int_equal(json ? compare_print_json(f, t, who) : compare_print_text(f, t, who, true), 0);
	return fx_capture_text(&c);
}

/* Points of three drives: A has 1/1 and 4/1, B the same and 32/1, C only
 * 1/1; B's 4/1 is stored twice (the later counts); A has steady rounds. */
static void test_points_three_drives(void **state)
{
	struct result_record a[4], b[4], c[1];
	(void)state;

	fill_record(&a[0], "randread", 4096, DIR_READ, 1, 1, 1000, 10);
	fill_record(&a[1], "randread", 4096, DIR_READ, 4, 1, 4000, 10);
	fill_record(&a[2], "randwrite", 4096, DIR_WRITE, 32, 1, 777, 10);
	snprintf(a[2].step_kind, sizeof(a[2].step_kind), "steady");
	fill_record(&a[3], "randwrite", 4096, DIR_WRITE, 32, 1, 888, 10);
	snprintf(a[3].step_kind, sizeof(a[3].step_kind), "steady");
	fill_record(&b[0], "randread", 4096, DIR_READ, 1, 1, 1500, 5);
	fill_record(&b[1], "randread", 4096, DIR_READ, 4, 1, 1, 1);
	fill_record(&b[2], "randread", 4096, DIR_READ, 32, 1, 9000, 20);
	fill_record(&b[3], "randread", 4096, DIR_READ, 4, 1, 2000, 20);   /* replaces b[1] */
	fill_record(&c[0], "randread", 4096, DIR_READ, 1, 1, 500, 20);
	struct compare_drive drives[3] = { { "A", a, 4, NULL, 0 }, { "B", b, 4, NULL, 0 },
					   { "C", c, 1, NULL, 0 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 3, &t), 0);
	assert_int_equal(t.nr_blocks, 1);   /* points only */
	const struct compare_block *p = compare_table_block(&t, COMPARE_POINTS);
	assert_non_null(p);
	assert_null(compare_table_block(&t, COMPARE_CHECKPOINTS));
	/* the steady rounds are not a "4K random write" point */
	assert_int_equal(p->nr_rows, 3);
	assert_int_equal(p->shared, 1);
	/* in the reviews' point order */
	char n[256], w[64];
	compare_row_name(p, &p->rows[0], n, sizeof(n), w, sizeof(w));
	assert_string_equal(n, "4K random read");
	assert_string_equal(w, "1/1");
	compare_row_name(p, &p->rows[2], n, sizeof(n), w, sizeof(w));
	assert_string_equal(w, "32/1");

	const struct compare_row *r = find_row(p, "4K random read", "1/1");
	assert_non_null(r);
	assert_true(r->cells[0].present && r->cells[1].present && r->cells[2].present);
	/* IOPS: B +50%, C -50% against A; MB/s the same; mean latency -50%, +100% */
	assert_true(near(compare_diff(p, r, 1, 1), 50.0));
	assert_true(near(compare_diff(p, r, 2, 1), -50.0));
	assert_true(near(compare_diff(p, r, 1, 0), 50.0));
	assert_true(near(compare_diff(p, r, 1, 2), -50.0));
	assert_true(near(compare_diff(p, r, 2, 2), 100.0));
	assert_true(near(r->cells[0].v[3], 20.0));   /* p99 us */

	r = find_row(p, "4K random read", "4/1");
	assert_non_null(r);
	assert_false(r->cells[2].present);
	assert_true(near(r->cells[1].v[1], 2000));   /* the later of B's two */
	assert_true(near(compare_diff(p, r, 1, 1), -50.0));
	assert_true(isnan(compare_diff(p, r, 2, 1)));

	r = find_row(p, "4K random read", "32/1");
	assert_non_null(r);
	assert_false(r->cells[0].present);
	assert_true(isnan(compare_diff(p, r, 1, 1)));   /* no A to compare with */
	compare_table_free(&t);
}

/* Checkpoint passes: per pass the count, mean seconds and GB/s; a stopped
 * checkpoint is left out, a later result of the same checkpoint replaces
 * the earlier, the read-back comes last; B has no pass 2. */
static void test_checkpoint_passes(void **state)
{
	struct result_record a[7], b[2];
	(void)state;

	checkpoint_record(&a[0], 0, 1, 0.5, 1000000000);          /* read-back */
	checkpoint_record(&a[1], 1, 1, 1.0, 2000000000);
	checkpoint_record(&a[2], 1, 2, 3.0, 2000000000);
	checkpoint_record(&a[3], 2, 1, 2.0, 2000000000);
	checkpoint_record(&a[4], 2, 2, 9.0, 1);
	a[4].partial = true;                                      /* stopped */
	checkpoint_record(&a[5], 1, 1, 9.0, 2000000000);          /* replaced below */
	checkpoint_record(&a[6], 1, 1, 1.0, 2000000000);          /* replaces a[5] */
	a[1].pass_index = 3;   /* so pass 1 has checkpoints 3, 2, 1 */
	checkpoint_record(&b[0], 1, 1, 1.0, 2000000000);
	checkpoint_record(&b[1], 1, 2, 1.0, 2000000000);
	struct compare_drive drives[2] = { { "A", a, 7, NULL, 0 }, { "B", b, 2, NULL, 0 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	/* checkpoints are not points of a 1M sequential write */
	assert_null(compare_table_block(&t, COMPARE_POINTS));
	const struct compare_block *c = compare_table_block(&t, COMPARE_CHECKPOINTS);
	assert_non_null(c);
	assert_int_equal(c->nr_rows, 3);
	assert_int_equal(c->shared, 1);
	char n[64], w[16];
	compare_row_name(c, &c->rows[0], n, sizeof(n), w, sizeof(w));
	assert_string_equal(n, "pass 1");
	compare_row_name(c, &c->rows[1], n, sizeof(n), w, sizeof(w));
	assert_string_equal(n, "pass 2");
	compare_row_name(c, &c->rows[2], n, sizeof(n), w, sizeof(w));
	assert_string_equal(n, "read-back");

	/* pass 1 of A: checkpoints 3 (1.0 s), 2 (3.0 s), 1 (1.0 s, the later) */
	const struct compare_row *r = &c->rows[0];
	assert_true(near(r->cells[0].v[0], 3));
	assert_true(near(r->cells[0].v[1], 5.0 / 3));
	assert_true(near(r->cells[0].v[2], 6.0 / 5.0));
	assert_true(near(r->cells[1].v[1], 1.0));
	assert_true(near(r->cells[1].v[2], 2.0));
	assert_true(near(compare_diff(c, r, 1, 1), (1.0 - 5.0 / 3) / (5.0 / 3) * 100));
	assert_true(isnan(compare_diff(c, r, 1, 0)));   /* the count has no % */
	/* pass 2 of A: only the whole checkpoint */
	assert_true(near(c->rows[1].cells[0].v[0], 1));
	assert_false(c->rows[1].cells[1].present);
	compare_table_free(&t);
}

/* GDS points: one row per transfer type, block size, threads and
 * direction; a stopped point is left out; not points of a read test. */
static void test_gds_points(void **state)
{
	struct result_record a[4], b[2];
	(void)state;

	gds_record(&a[0], "read", 16384, 1, 1.0);
	gds_record(&a[1], "read", 16384, 4, 2.0);
	gds_record(&a[2], "write", 1048576, 4, 4.0);
	gds_record(&a[3], "read", 16384, 8, 9.0);
	a[3].partial = true;
	gds_record(&b[0], "read", 16384, 4, 3.0);
	gds_record(&b[1], "write", 1048576, 4, 2.0);
	struct compare_drive drives[2] = { { "A", a, 4, NULL, 0 }, { "B", b, 2, NULL, 0 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	assert_null(compare_table_block(&t, COMPARE_POINTS));
	const struct compare_block *g = compare_table_block(&t, COMPARE_GDS);
	assert_non_null(g);
	assert_int_equal(g->nr_rows, 3);
	assert_int_equal(g->shared, 2);
	assert_null(find_row(g, "16K read (CPUONLY)", "8"));
	const struct compare_row *r = find_row(g, "16K read (CPUONLY)", "4");
	assert_non_null(r);
	assert_true(near(r->cells[0].v[0], 2.0));
	assert_true(near(compare_diff(g, r, 1, 0), 50.0));
	assert_true(near(r->cells[0].v[2], 50.0));   /* mean latency us */
	r = find_row(g, "1M write (CPUONLY)", "4");
	assert_non_null(r);
	assert_int_equal(r->key.dir, DIR_WRITE);
	assert_true(near(compare_diff(g, r, 1, 0), -50.0));
	r = find_row(g, "16K read (CPUONLY)", "1");
	assert_non_null(r);
	assert_false(r->cells[1].present);
	compare_table_free(&t);
}

/* Steady steps: rounds, reached, the window mean in the metric's unit; a
 * later run's step of the same name replaces the earlier. */
static void test_steady_steps(void **state)
{
	double rounds[3] = { 1, 2, 3 };
	struct report_steady a[3] = {
		{ .step = "steady-4k", .metric = "iops", .rounds = rounds, .nr_rounds = 3,
		  .reached = false, .mean = 1000 },
		{ .step = "steady-128k", .metric = "bw_bytes", .rounds = rounds, .nr_rounds = 2,
		  .reached = true, .mean = 2e9 },
		{ .step = "steady-4k", .metric = "iops", .rounds = rounds, .nr_rounds = 3,
		  .reached = true, .mean = 2000 },   /* replaces a[0] */
	};
	struct report_steady b[1] = {
		{ .step = "steady-4k", .metric = "iops", .rounds = rounds, .nr_rounds = 2,
		  .reached = true, .mean = 3000 },
	};
	struct compare_drive drives[2] = { { "A", NULL, 0, a, 3 }, { "B", NULL, 0, b, 1 } };
	struct compare_table t;
	(void)state;

	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	assert_int_equal(t.nr_blocks, 1);
	const struct compare_block *s = compare_table_block(&t, COMPARE_STEADY);
	assert_non_null(s);
	assert_int_equal(s->nr_rows, 2);
	assert_int_equal(s->shared, 1);
	/* in the order the steps ran */
	const struct compare_row *r = find_row(s, "steady-4k", "IOPS");
	assert_ptr_equal(r, &s->rows[0]);
	assert_true(near(r->cells[0].v[0], 3) && near(r->cells[0].v[1], 1));
	assert_true(near(r->cells[0].v[2], 2000));
	assert_true(near(compare_diff(s, r, 1, 2), 50.0));
	assert_true(isnan(compare_diff(s, r, 1, 0)));   /* rounds: no % */
	r = find_row(s, "steady-128k", "MB/s");
	assert_non_null(r);
	assert_true(near(r->cells[0].v[2], 2000.0));     /* 2e9 B/s = 2000 MB/s */
	compare_table_free(&t);
}

/* Every kind at once: blocks in the order points, checkpoints, GDS,
 * steady state; no results at all: no block. */
static void test_block_order(void **state)
{
	struct result_record a[3];
	double rounds[1] = { 5 };
	struct report_steady st = { .step = "s", .metric = "iops", .rounds = rounds,
				    .nr_rounds = 1, .mean = 5 };
	(void)state;

	gds_record(&a[0], "read", 16384, 1, 1.0);
	checkpoint_record(&a[1], 1, 1, 1.0, 1000);
	fill_record(&a[2], "read", 131072, DIR_READ, 32, 1, 100, 10);
	struct compare_drive drives[2] = { { "A", a, 3, &st, 1 }, { "B", NULL, 0, NULL, 0 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	assert_int_equal(t.nr_blocks, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(t.blocks[i].kind, i);
		assert_int_equal(t.blocks[i].shared, 0);
	}
	assert_string_equal(compare_kind_key(COMPARE_GDS), "gds");
	compare_table_free(&t);

	drives[0] = (struct compare_drive){ "A", NULL, 0, NULL, 0 };
	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	assert_int_equal(t.nr_blocks, 0);
	char *text = text_of(&t, (struct compare_who[2]){ { "1", "run 1", NULL, NULL, 0 },
							  { "2", "run 2", NULL, NULL, 0 } }, false);
	assert_non_null(strstr(text, "no results to compare"));
	free(text);
	compare_table_free(&t);
}

static void test_drive_limits(void **state)
{
	struct compare_drive drives[COMPARE_MAX_DRIVES + 1];
	struct compare_table t;
	(void)state;

	memset(drives, 0, sizeof(drives));
	for (unsigned d = 0; d <= COMPARE_MAX_DRIVES; d++)
		drives[d].name = "X";
	assert_int_equal(compare_table_build(drives, 1, &t), -1);
	assert_non_null(strstr(err_msg(), "2 to 16 drives"));
	compare_table_free(&t);
	assert_int_equal(compare_table_build(drives, COMPARE_MAX_DRIVES + 1, &t), -1);
	compare_table_free(&t);
	assert_int_equal(compare_table_build(drives, COMPARE_MAX_DRIVES, &t), 0);
	compare_table_free(&t);
}

/* The text: header with the marks, a block title, A's columns without a
 * %, the others' with one, '-' where a drive has no row, the count line,
 * the warning line naming the drives that are not whole. */
static void test_text_output(void **state)
{
	struct result_record a[2], b[1], c[1];
	(void)state;

	fill_record(&a[0], "randread", 4096, DIR_READ, 1, 1, 1000, 10);
	fill_record(&a[1], "randread", 4096, DIR_READ, 4, 1, 4000, 10);
	fill_record(&b[0], "randread", 4096, DIR_READ, 1, 1, 1500, 5);
	fill_record(&c[0], "randread", 4096, DIR_READ, 1, 1, 500, 20);
	struct compare_drive drives[3] = { { "A", a, 2, NULL, 0 }, { "B", b, 1, NULL, 0 },
					   { "C", c, 1, NULL, 0 } };
	const char *warn[1] = { "run 2 (suite) is incomplete" };
	struct compare_who who[3] = { { "1", "run 1", NULL, NULL, 0 },
				      { "2", "run 2", "incomplete", warn, 1 },
				      { "x", "x", "partial", NULL, 0 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 3, &t), 0);
	char *text = text_of(&t, who, false);
	assert_non_null(strstr(text, "A = 1 (run 1), B = 2 (run 2, INCOMPLETE), C = x (x, PARTIAL); "
				     "vs A = (drive - A) / A\n"));
	assert_non_null(strstr(text, "\n== Points: sweeps and single points ==\n"));
	assert_non_null(strstr(text, "A MB/s"));
	assert_non_null(strstr(text, "C p99     vs A\n"));
	/* 1/1: A 4.1 MB/s, B +50.0%, C -50.0% */
	const char *row = strstr(text, "\n4K random read 1/1");
	assert_non_null(row);
	assert_non_null(strstr(row, "+50.0%"));
	assert_non_null(strstr(row, "-50.0%"));
	row = strstr(text, "\n4K random read 4/1");
	assert_non_null(row);
	assert_non_null(strstr(row, "     -        -"));
	assert_non_null(strstr(text, "\n1 shared point(s) (in all 3 drives), 1 more in only some"));
	assert_non_null(strstr(text, "\nwarning: B and C hold runs that are not whole"));
	free(text);

	who[1].state = NULL;
	text = text_of(&t, who, false);
	assert_non_null(strstr(text, "\nwarning: C holds a run that is not whole"));
	free(text);
	who[2].state = NULL;
	text = text_of(&t, who, false);
	assert_null(strstr(text, "warning"));
	free(text);
	compare_table_free(&t);
}

/* JSON: the drives with their state, one object per block, rows with each
 * drive's figures or null, vs_a_pct for B on. */
static void test_json_output(void **state)
{
	struct result_record a[2], b[1];
	(void)state;

	fill_record(&a[0], "randread", 4096, DIR_READ, 1, 1, 1000, 10);
	checkpoint_record(&a[1], 1, 1, 1.0, 2000000000);
	fill_record(&b[0], "randread", 4096, DIR_READ, 1, 1, 1500, 5);
	b[0].dir[DIR_READ].nr_clat_pct = 0;   /* no p99 recorded */
	struct compare_drive drives[2] = { { "A", a, 2, NULL, 0 }, { "B", b, 1, NULL, 0 } };
	const char *warn[1] = { "run 3 (run) is partial" };
	struct compare_who who[2] = { { "P5430", "P5430", NULL, NULL, 0 },
				      { "3", "run 3", "partial", warn, 1 } };
	struct compare_table t;

	assert_int_equal(compare_table_build(drives, 2, &t), 0);
	char *text = text_of(&t, who, true);
	cJSON *j = cJSON_Parse(text);
	assert_non_null(j);
	const cJSON *drv = cJSON_GetObjectItem(j, "drives");
	assert_int_equal(cJSON_GetArraySize(drv), 2);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(drv, 0), "state")));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(drv, 1), "state")->valuestring,
			    "partial");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(drv, 1),
								   "warnings"), 0)->valuestring,
			    "run 3 (run) is partial");
	const cJSON *blocks = cJSON_GetObjectItem(j, "blocks");
	assert_int_equal(cJSON_GetArraySize(blocks), 2);
	const cJSON *pts = cJSON_GetArrayItem(blocks, 0);
	assert_string_equal(cJSON_GetObjectItem(pts, "kind")->valuestring, "points");
	assert_int_equal(cJSON_GetObjectItem(pts, "shared")->valueint, 1);
	const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(pts, "rows"), 0);
	assert_string_equal(cJSON_GetObjectItem(row, "name")->valuestring, "4K random read");
	assert_int_equal(cJSON_GetObjectItem(row, "iodepth")->valueint, 1);
	const cJSON *cells = cJSON_GetObjectItem(row, "drives");
	const cJSON *cb = cJSON_GetArrayItem(cells, 1);
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cells, 0), "vs_a_pct"));
	assert_true(near(cJSON_GetObjectItem(cb, "iops")->valuedouble, 1500));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cb, "p99_us")));
	const cJSON *vs = cJSON_GetObjectItem(cb, "vs_a_pct");
	assert_true(near(cJSON_GetObjectItem(vs, "iops")->valuedouble, 50.0));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(vs, "p99_us")));
	const cJSON *ck = cJSON_GetArrayItem(blocks, 1);
	assert_string_equal(cJSON_GetObjectItem(ck, "kind")->valuestring, "checkpoints");
	row = cJSON_GetArrayItem(cJSON_GetObjectItem(ck, "rows"), 0);
	assert_int_equal(cJSON_GetObjectItem(row, "pass")->valueint, 1);
	assert_true(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(row, "drives"), 1)));
	cJSON_Delete(j);
	free(text);
	compare_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_three_drives),
		cmocka_unit_test(test_checkpoint_passes),
		cmocka_unit_test(test_gds_points),
		cmocka_unit_test(test_steady_steps),
		cmocka_unit_test(test_block_order),
		cmocka_unit_test(test_drive_limits),
		cmocka_unit_test(test_text_output),
		cmocka_unit_test(test_json_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
