/* test_hist.c - the latency histogram: index <-> value round trips, the
 * 1/128 relative error bound from 1 ns to 100 s, percentiles against exact
 * sorted data, and merging. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/hist.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	/* xorshift64*: deterministic, good enough for test data */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static struct hist *new_hist(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

static void test_small_values_are_exact(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 128; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_bucket_value(v), v);
		assert_int_equal(hist_bucket_low(v), v);
		assert_int_equal(hist_bucket_high(v), v + 1);
	}
	/* first rounded group: 128..255 in buckets of 2, midpoint +1 */
	assert_int_equal(hist_index(128), 128);
	assert_int_equal(hist_index(129), 128);
	assert_int_equal(hist_index(130), 129);
	assert_int_equal(hist_bucket_value(128), 129);
	assert_int_equal(hist_bucket_low(129), 130);
	assert_int_equal(hist_bucket_high(129), 132);
	/* 256..511 in buckets of 4: fio's plat_idx_to_val gives 256 + 2 */
	assert_int_equal(hist_index(256), 192);
	assert_int_equal(hist_bucket_value(192), 258);
}

static void test_index_value_round_trip(void **state)
{
	(void)state;
	for (unsigned idx = 0; idx < HIST_BUCKETS; idx++) {
		uint64_t low = hist_bucket_low(idx), high = hist_bucket_high(idx);
		uint64_t mid = hist_bucket_value(idx);

		assert_true(low <= mid);
		assert_true(mid < high);
		assert_int_equal(hist_index(low), idx);
		assert_int_equal(hist_index(mid), idx);
		if (idx < HIST_BUCKETS - 1) {
			assert_int_equal(hist_index(high - 1), idx);
			assert_int_equal(hist_index(high), idx + 1);
			assert_int_equal(hist_bucket_low(idx + 1), high);
		}
	}
	/* values past the last group land in the last bucket */
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	assert_int_equal(hist_index((uint64_t)1 << 40), HIST_BUCKETS - 1);
	assert_true(hist_bucket_high(HIST_BUCKETS - 1) == UINT64_MAX);
	/* out-of-range indexes are clamped, never read past the table */
	assert_int_equal(hist_bucket_value(HIST_BUCKETS + 5),
			 hist_bucket_value(HIST_BUCKETS - 1));
}

static void check_relative_error(uint64_t v)
{
	uint64_t mid = hist_bucket_value(hist_index(v));
	double error = mid > v ? (double)(mid - v) : (double)(v - mid);

	if (error / (double)v > 1.0 / 128.0)
		fail_msg("value %llu -> %llu: relative error %g > 1/128",
			 (unsigned long long)v, (unsigned long long)mid,
			 error / (double)v);
}

static void test_relative_error_1ns_to_100s(void **state)
{
	(void)state;
	/* geometric sweep, 0.1% steps, 1 ns .. 100 s */
	for (double v = 1.0; v <= 100e9; v *= 1.001)
		check_relative_error((uint64_t)v);
	/* every power-of-two edge, where the error is largest */
	for (unsigned bit = 1; bit < 37; bit++) {
		uint64_t edge = (uint64_t)1 << bit;

		check_relative_error(edge - 1);
		check_relative_error(edge);
		check_relative_error(edge + 1);
	}
	/* random values across the range */
	for (unsigned i = 0; i < 1000000; i++)
		check_relative_error(1 + next_random() % 100000000000ull);
}

static void check_against_exact(uint64_t *values, size_t n)
{
	static const double pcts[] = {
		1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
		99.95, 99.99, 99.999, 100,
	};
	const unsigned nr = sizeof(pcts) / sizeof(pcts[0]);
	uint64_t out[sizeof(pcts) / sizeof(pcts[0])];
	struct hist *h = new_hist();

	for (size_t i = 0; i < n; i++)
		hist_add(h, values[i]);
	assert_int_equal(hist_count(h), n);
	hist_percentiles(h, pcts, nr, out);
	qsort(values, n, sizeof(values[0]), compare_u64);
	for (unsigned j = 0; j < nr; j++) {
		/* the exact percentile: smallest value with >= p% at or below */
		size_t rank = (size_t)ceil(pcts[j] / 100.0 * (double)n);
		uint64_t exact = values[rank ? rank - 1 : 0];
		double error = out[j] > exact ? (double)(out[j] - exact) :
						(double)(exact - out[j]);

		if (error > 0.01 * (double)exact)
			fail_msg("p%g: histogram %llu, exact %llu", pcts[j],
				 (unsigned long long)out[j], (unsigned long long)exact);
	}
	free(h);
}

static void test_percentiles_uniform(void **state)
{
	const size_t n = 1000000;
	uint64_t *values = malloc(n * sizeof(*values));

	(void)state;
	assert_non_null(values);
	/* exactly known: every value 1000..1000999 ns once */
	for (size_t i = 0; i < n; i++)
		values[i] = 1000 + (n - 1 - i);
	check_against_exact(values, n);
	free(values);
}

static void test_percentiles_long_tail(void **state)
{
	const size_t n = 1000000;
	uint64_t *values = malloc(n * sizeof(*values));

	(void)state;
	assert_non_null(values);
	/* log-uniform from 50 us to 5 s: a heavy tail over many groups */
	for (size_t i = 0; i < n; i++) {
		double u = (double)(next_random() >> 11) / 9007199254740992.0;

		values[i] = (uint64_t)(50000.0 * pow(100000.0, u));
	}
	check_against_exact(values, n);
	free(values);
}

static void test_percentiles_one_bucket_answers_many(void **state)
{
	static const double pcts[] = { 1, 50, 99, 99.99, 100 };
	uint64_t out[5];
	struct hist *h = new_hist();

	(void)state;
	for (int i = 0; i < 1000; i++)
		hist_add(h, 5000);
	hist_percentiles(h, pcts, 5, out);
	for (int i = 0; i < 5; i++)
		assert_int_equal(out[i], hist_bucket_value(hist_index(5000)));

	/* 90 fast, 10 slow: p90 is fast, p91 and up slow (fio's rule: first
	 * bucket where the running count reaches p% of the total) */
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 90; i++)
		hist_add(h, 100);
	for (int i = 0; i < 10; i++)
		hist_add(h, 1000000);
	static const double split[] = { 50, 90, 90.5, 100 };
	hist_percentiles(h, split, 4, out);
	assert_int_equal(out[0], 100);
	assert_int_equal(out[1], 100);
	assert_int_equal(out[2], hist_bucket_value(hist_index(1000000)));
	assert_int_equal(out[3], hist_bucket_value(hist_index(1000000)));
	free(h);
}

static void test_percentiles_empty_and_out_of_range(void **state)
{
	static const double pcts[] = { 50, 99, 150 };
	uint64_t out[3] = { 7, 7, 7 };
	struct hist *h = new_hist();

	(void)state;
	hist_percentiles(h, pcts, 3, out);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 0);
	hist_percentiles(h, pcts, 0, out);  /* nothing asked: nothing written */

	hist_add(h, 10);
	hist_add(h, 20);
	hist_percentiles(h, pcts, 3, out);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[1], 20);
	/* p > 100 cannot be reached: the largest value seen */
	assert_int_equal(out[2], 20);
	free(h);
}

static void test_merge_equals_single(void **state)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();

	(void)state;
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v = next_random() % 10000000000ull;

		hist_add(i % 3 ? a : b, v);
		hist_add(all, v);
	}
	hist_merge(a, b);
	assert_memory_equal(a->bucket, all->bucket, sizeof(all->bucket));
	assert_int_equal(hist_count(a), 100000);
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_are_exact),
		cmocka_unit_test(test_index_value_round_trip),
		cmocka_unit_test(test_relative_error_1ns_to_100s),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_long_tail),
		cmocka_unit_test(test_percentiles_one_bucket_answers_many),
		cmocka_unit_test(test_percentiles_empty_and_out_of_range),
		cmocka_unit_test(test_merge_equals_single),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
