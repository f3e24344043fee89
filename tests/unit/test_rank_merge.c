/* test_rank_merge.c - what an MPI rank sends rank 0 and how rank 0 makes
 * one result of the ranks' results: a job_result survives packing whole
 * (histograms bucket by bucket, series, snapshots, verify failures, clat
 * by priority); short or malformed bytes are refused; the merge adds the
 * histograms exactly, runs over the union of the ranks' intervals and
 * counts the first-done figures up to the first rank's stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/job_spec.h"
#include "measure/result_pack.h"
#include "measure/verify_failures.h"
#include "record/rank_merge.h"
#include "util/error.h"
#include "util/pack.h"

#define MS 1000000ull

static struct job_spec spec;

static struct job_result *new_result(void)
{
	struct job_result *r = malloc(sizeof(*r));

	assert_non_null(r);
	job_result_init(r, &spec);
	return r;
}

static void free_result(struct job_result *r)
{
	job_result_free(r);
	free(r);
}

/* A rank's result: ios reads of lat_ns each over runtime, measured from
 * start after its phase began, one series point per 100 ms. */
static struct job_result *rank_result(uint64_t ios, uint64_t lat_ns, uint64_t start_ns,
				      uint64_t runtime_ns)
{
	struct job_result *r = new_result();
	unsigned points = (unsigned)(runtime_ns / (100 * MS));

	r->phase_start_ns = 1000 * MS;
	r->measure_start_ns = r->phase_start_ns + start_ns;
	r->runtime_ns = runtime_ns;
	r->total_run_ns = runtime_ns;
	for (uint64_t i = 0; i < ios; i++) {
		lat_add(&r->dir[DIR_READ].clat, lat_ns + i % 7);
		lat_add(&r->dir[DIR_READ].lat, lat_ns + 100 + i % 7);
	}
	r->dir[DIR_READ].ios = ios;
	r->dir[DIR_READ].bytes = ios * 4096;
	r->series.interval_ns = 100 * MS;
	assert_int_equal(series_reserve(&r->series, points), 0);
	for (unsigned p = 0; p < points; p++) {
		struct series_point pt = { .t_ns = (p + 1) * 100 * MS };

		pt.ios[DIR_READ] = ios / points;
		pt.bytes[DIR_READ] = ios / points * 4096;
		assert_int_equal(series_append(&r->series, &pt), 0);
	}
	return r;
}

static void assert_lat_equal(const struct lat_stat *a, const struct lat_stat *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_memory_equal(&a->hist, &b->hist, sizeof(a->hist));
}

static void test_pack_round_trip(void **state)
{
	struct job_result *r = rank_result(1000, 5000, 2 * MS, 1000 * MS), *back = new_result();
	struct pack p = { 0 };
	struct unpack u;

	(void)state;
	snprintf(r->name, sizeof(r->name), "rank part");
	r->error = -5;
	r->dir[DIR_WRITE].errors = 3;
	r->dir[DIR_WRITE].first_error = -5;
	r->dir[DIR_WRITE].first_error_offset = 1u << 20;
	lat_add(&r->dir[DIR_WRITE].slat, 70000000000ull);   /* the last bucket */
	r->drive_before = strdup("{\"serial\":\"S1\"}");
	r->drive_delta = strdup("{}");
	r->verify_failures = calloc(2, sizeof(*r->verify_failures));
	assert_non_null(r->verify_failures);
	r->verify_failures[1].offset = 8192;
	r->verify_failures[1].expected_byte = -1;
	r->nr_verify_failures = 2;
	r->prio_clat[DIR_READ] = calloc(1, sizeof(struct prio_clat));
	assert_non_null(r->prio_clat[DIR_READ]);
	r->prio_clat[DIR_READ][0].ioprio = 3 << 13;
	lat_stat_init(&r->prio_clat[DIR_READ][0].clat);
	lat_add(&r->prio_clat[DIR_READ][0].clat, 1234);
	r->nr_prio_clat[DIR_READ] = 1;
	r->first_done_ios[DIR_TRIM] = 9;

	result_pack(&p, r);
	assert_int_equal(pack_done(&p), 0);
	/* sparse: far below the ~150 KB of the full histograms */
	assert_true(p.len < 8192);
	unpack_init(&u, p.data, p.len);
	free_result(back);
	back = malloc(sizeof(*back));
	assert_non_null(back);
	assert_int_equal(result_unpack(&u, &spec, back), 0);
	assert_int_equal(u.at, p.len);
	assert_string_equal(back->name, "rank part");
	assert_ptr_equal(back->spec, &spec);
	assert_int_equal(back->error, -5);
	assert_int_equal(back->runtime_ns, r->runtime_ns);
	assert_int_equal(back->measure_start_ns, r->measure_start_ns);
	assert_int_equal(back->phase_start_ns, r->phase_start_ns);
	assert_int_equal(back->first_done_ios[DIR_TRIM], 9);
	for (int d = 0; d < DIR_ALL; d++) {
		assert_int_equal(back->dir[d].ios, r->dir[d].ios);
		assert_int_equal(back->dir[d].bytes, r->dir[d].bytes);
		assert_int_equal(back->dir[d].errors, r->dir[d].errors);
		assert_int_equal(back->dir[d].first_error, r->dir[d].first_error);
		assert_int_equal(back->dir[d].first_error_offset, r->dir[d].first_error_offset);
		assert_lat_equal(&back->dir[d].slat, &r->dir[d].slat);
		assert_lat_equal(&back->dir[d].clat, &r->dir[d].clat);
		assert_lat_equal(&back->dir[d].lat, &r->dir[d].lat);
	}
	assert_int_equal(back->series.nr, r->series.nr);
	assert_memory_equal(back->series.points, r->series.points,
			    r->series.nr * sizeof(*r->series.points));
	assert_string_equal(back->drive_before, "{\"serial\":\"S1\"}");
	assert_null(back->drive_after);
	assert_string_equal(back->drive_delta, "{}");
	assert_int_equal(back->nr_verify_failures, 2);
	assert_int_equal(back->verify_failures[1].offset, 8192);
	assert_int_equal(back->verify_failures[1].expected_byte, -1);
	assert_int_equal(back->nr_prio_clat[DIR_READ], 1);
	assert_int_equal(back->prio_clat[DIR_READ][0].ioprio, 3 << 13);
	assert_lat_equal(&back->prio_clat[DIR_READ][0].clat, &r->prio_clat[DIR_READ][0].clat);
	pack_free(&p);
	free_result(r);
	free_result(back);
}

/* Every cut of the bytes is refused with a message and leaves nothing
 * allocated (ASan and valgrind check). */
static void test_unpack_refuses_short_and_malformed(void **state)
{
	struct job_result *r = rank_result(100, 5000, 0, 200 * MS), back;
	struct pack p = { 0 };
	struct unpack u;

	(void)state;
	r->drive_before = strdup("{}");
	result_pack(&p, r);
	assert_int_equal(pack_done(&p), 0);
	for (size_t cut = 0; cut < p.len; cut += 1 + cut / 16) {
		unpack_init(&u, p.data, cut);
		assert_int_equal(result_unpack(&u, &spec, &back), -1);
		assert_non_null(strstr(err_msg(), "short or malformed"));
	}
	pack_free(&p);
	free_result(r);
}

/* Four ranks that started 0..3 ms after the barrier and ran 1 s each. */
static void test_merge_exact_union_first_done(void **state)
{
	struct job_result *r[4], *copy[4];
	const struct job_result *others[3];
	struct hist sum;
	uint64_t ios = 0;

	(void)state;
	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < 4; i++) {
		struct pack p = { 0 };
		struct unpack u;

		r[i] = rank_result(1000 * (uint64_t)(i + 1), 1000 * (uint64_t)(i + 1) * 37,
				   (uint64_t)i * MS, 1000 * MS);
		hist_merge(&sum, &r[i]->dir[DIR_READ].clat.hist);
		ios += r[i]->dir[DIR_READ].ios;
		/* merged from what the ranks sent, as rank 0 does */
		result_pack(&p, r[i]);
		unpack_init(&u, p.data, p.len);
		copy[i] = malloc(sizeof(*copy[i]));
		assert_non_null(copy[i]);
		assert_int_equal(result_unpack(&u, &spec, copy[i]), 0);
		pack_free(&p);
	}
	for (int i = 1; i < 4; i++)
		others[i - 1] = copy[i];
	assert_int_equal(rank_merge_results(copy[0], others, 3), 0);
	assert_int_equal(copy[0]->nr_ranks, 4);
	assert_int_equal(copy[0]->dir[DIR_READ].ios, ios);
	assert_int_equal(copy[0]->dir[DIR_READ].clat.n, ios);
	assert_memory_equal(&copy[0]->dir[DIR_READ].clat.hist, &sum, sizeof(sum));
	/* last done: from the earliest start (0) to the latest stop (1003 ms) */
	assert_int_equal(copy[0]->runtime_ns, 1003 * MS);
	/* first done: until rank 0 stopped at 1000 ms; the others' last
	 * interval (ending after it) counts in proportion */
	assert_int_equal(copy[0]->first_done_ns, 1000 * MS);
	{
		double want = 1000;   /* rank 0 whole */

		for (int i = 1; i < 4; i++) {
			double per = 1000.0 * (i + 1) / 10;   /* ios per 100 ms point */

			want += per * 9 + per * (100.0 - i) / 100.0;
		}
		assert_true(copy[0]->first_done_ios[DIR_READ] >= (uint64_t)want - 3 &&
			    copy[0]->first_done_ios[DIR_READ] <= (uint64_t)want + 3);
	}
	{
		/* the percentiles of the merged result are the summed histogram's */
		static const double pcts[] = { 50, 99, 99.9 };
		uint64_t mine[3], want[3];

		hist_percentiles(&copy[0]->dir[DIR_READ].clat.hist, pcts, 3, mine);
		hist_percentiles(&sum, pcts, 3, want);
		assert_memory_equal(mine, want, sizeof(mine));
	}
	for (int i = 0; i < 4; i++) {
		free_result(r[i]);
		free_result(copy[i]);
	}
}

/* One rank's span: earliest start to latest stop of its results. */
static void test_rank_span(void **state)
{
	struct job_result r[2];
	uint64_t ns, bytes;

	(void)state;
	job_result_init(&r[0], &spec);
	job_result_init(&r[1], &spec);
	r[0].phase_start_ns = r[1].phase_start_ns = 50 * MS;
	r[0].measure_start_ns = 52 * MS;
	r[0].runtime_ns = 100 * MS;
	r[1].measure_start_ns = 51 * MS;
	r[1].runtime_ns = 80 * MS;
	r[0].dir[DIR_WRITE].bytes = 10;
	r[1].dir[DIR_WRITE].bytes = 32;
	rank_span(r, 2, &ns, &bytes);
	assert_int_equal(ns, 101 * MS);   /* 1 ms .. 102 ms after the phase start */
	assert_int_equal(bytes, 42);
	rank_span(r, 0, &ns, &bytes);
	assert_int_equal(ns, 0);
	assert_int_equal(bytes, 0);
}

static void test_pack_strings_and_bounds(void **state)
{
	struct pack p = { 0 };
	struct unpack u;
	char *s;

	(void)state;
	pack_str(&p, "abc");
	pack_str(&p, NULL);
	pack_u64(&p, 42);
	assert_int_equal(pack_done(&p), 0);
	unpack_init(&u, p.data, p.len);
	s = unpack_str(&u);
	assert_string_equal(s, "abc");
	free(s);
	assert_null(unpack_str(&u));
	assert_int_equal(unpack_u64(&u), 42);
	assert_int_equal(unpack_done(&u, "x"), 0);
	assert_int_equal(unpack_u64(&u), 0);   /* past the end */
	assert_int_equal(unpack_done(&u, "the message"), -1);
	assert_string_equal(err_msg(), "the message: the message is short or malformed");
	/* a string whose last byte is not its end */
	p.data[8 + 3] = 'x';
	unpack_init(&u, p.data, p.len);
	assert_null(unpack_str(&u));
	assert_int_equal(unpack_done(&u, "s"), -1);
	pack_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_round_trip),
		cmocka_unit_test(test_unpack_refuses_short_and_malformed),
		cmocka_unit_test(test_merge_exact_union_first_done),
		cmocka_unit_test(test_rank_span),
		cmocka_unit_test(test_pack_strings_and_bounds),
	};

	snprintf(spec.name, sizeof(spec.name), "job");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
