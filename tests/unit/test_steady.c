/* test_steady.c - the SNIA PTS steady-state detector on synthetic series:
 * reached, never reached, too noisy, drifting, exactly at each limit, too
 * few rounds, and every bad argument. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "suite/steady.h"
#include "util/error.h"

#define WINDOW 5
#define RANGE 0.20
#define SLOPE 0.10

/* Deterministic noise in [-1, 1]. */
static double noise(unsigned i)
{
	uint32_t x = i * 2654435761u + 12345u;

	x ^= x >> 13;
	x *= 0x5bd1e995u;
	x ^= x >> 15;
	return (double)(x % 2001) / 1000.0 - 1.0;
}

/* First round (1-based) after which the series is steady, 0 if never. */
static unsigned first_steady(const double *values, unsigned n)
{
	struct steady_verdict v;

	for (unsigned i = 1; i <= n; i++) {
		assert_int_equal(steady_check(values, i, WINDOW, RANGE, SLOPE, &v), 0);
		assert_int_equal(v.rounds, i);
		if (v.reached)
			return i;
	}
	return 0;
}

static void test_reached_flat_with_noise(void **state)
{
	(void)state;
	/* A write cliff: fast, falling, then flat at 1000 +- 2%. */
	double values[25];

	for (unsigned i = 0; i < 25; i++) {
		if (i < 6)
			values[i] = 3000 - 350.0 * i;
		else
			values[i] = 1000 + 20 * noise(i);
	}
	unsigned at = first_steady(values, 25);
	assert_true(at >= 6 + WINDOW);
	assert_true(at <= 6 + WINDOW + 1);

	struct steady_verdict v;
	assert_int_equal(steady_check(values, 25, WINDOW, RANGE, SLOPE, &v), 0);
	assert_true(v.reached);
	assert_true(fabs(v.mean - 1000) < 20);
	assert_true(v.range <= 40);
}

static void test_not_reached_in_25_rounds(void **state)
{
	(void)state;
	/* Keeps falling by 8% a round: never settles. */
	double values[25];
	double x = 5000;

	for (unsigned i = 0; i < 25; i++, x *= 0.92)
		values[i] = x;
	assert_int_equal(first_steady(values, 25), 0);
}

static void test_noisy_range_too_big(void **state)
{
	(void)state;
	/* No trend, but swings of +-15% around the mean: range 30% > 20%. */
	double values[] = { 850, 1150, 1000, 850, 1150, 1000, 1150, 850, 1000, 1000 };
	unsigned n = sizeof(values) / sizeof(values[0]);
	struct steady_verdict v;

	assert_int_equal(first_steady(values, n), 0);
	assert_int_equal(steady_check(values, n, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
	assert_true(v.range > RANGE * v.mean);
	assert_true(v.slope_excursion <= SLOPE * v.mean);
}

static void test_drifting_slope_too_big(void **state)
{
	(void)state;
	/* +3% of the mean per round with +-0.2% noise: range ~12% passes,
	 * slope excursion ~12% fails. */
	double values[WINDOW];

	for (unsigned i = 0; i < WINDOW; i++)
		values[i] = 1000 + 30.0 * ((double)i - 2) + 2 * noise(i);
	struct steady_verdict v;
	assert_int_equal(steady_check(values, WINDOW, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
	assert_true(v.range <= RANGE * v.mean);
	assert_true(v.slope_excursion > SLOPE * v.mean);
	assert_true(fabs(v.slope - 30) < 2);
}

static void test_range_exactly_at_limit(void **state)
{
	(void)state;
	struct steady_verdict v;
	double at[] = { 90, 110, 100, 100, 100 };       /* range 20 = 20% of 100 */
	double over[] = { 89.9, 110.1, 100, 100, 100 }; /* range 20.2 */

	assert_int_equal(steady_check(at, 5, WINDOW, RANGE, SLOPE, &v), 0);
	assert_true(v.reached);
	assert_true(fabs(v.mean - 100) < 1e-9);
	assert_true(fabs(v.range - 20) < 1e-9);
	assert_true(fabs(v.slope - 1) < 1e-9); /* sum dx*dy 10 / sum dx^2 10 */
	assert_true(fabs(v.slope_excursion - 4) < 1e-9);

	assert_int_equal(steady_check(over, 5, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
}

static void test_slope_exactly_at_limit(void **state)
{
	(void)state;
	struct steady_verdict v;
	double at[] = { 95, 97.5, 100, 102.5, 105 };    /* excursion 10 = 10% */
	double over[] = { 94.9, 97.45, 100, 102.55, 105.1 };

	assert_int_equal(steady_check(at, 5, WINDOW, RANGE, SLOPE, &v), 0);
	assert_true(v.reached);
	assert_true(fabs(v.slope - 2.5) < 1e-12);
	assert_true(fabs(v.slope_excursion - 10) < 1e-9);

	assert_int_equal(steady_check(over, 5, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
	assert_true(v.range <= RANGE * v.mean); /* only the slope fails */
}

static void test_only_last_window_counts(void **state)
{
	(void)state;
	/* Wild early rounds do not matter once the last 5 are flat. */
	double values[] = { 10, 9000, 3, 500, 500, 500, 500, 500 };
	struct steady_verdict v;

	assert_int_equal(steady_check(values, 8, WINDOW, RANGE, SLOPE, &v), 0);
	assert_true(v.reached);
	assert_true(fabs(v.mean - 500) < 1e-9);
	assert_true(v.range == 0 && v.slope == 0);
	/* One round earlier the window still holds the 3. */
	assert_int_equal(steady_check(values, 7, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
}

static void test_too_few_rounds(void **state)
{
	(void)state;
	double values[] = { 100, 100, 100, 100 };
	struct steady_verdict v;

	assert_int_equal(steady_check(values, 4, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
	assert_int_equal(v.rounds, 4);
	assert_true(fabs(v.mean - 100) < 1e-9); /* figures of what there is */

	assert_int_equal(steady_check(NULL, 0, WINDOW, RANGE, SLOPE, &v), 0);
	assert_false(v.reached);
	assert_int_equal(v.rounds, 0);

	/* A custom window of 3 judges after 3 rounds. */
	assert_int_equal(steady_check(values, 3, 3, RANGE, SLOPE, &v), 0);
	assert_true(v.reached);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	double values[] = { 100, 100, 100, 100, 100 };
	struct steady_verdict v;

	err_clear();
	assert_int_equal(steady_check(values, 5, 1, RANGE, SLOPE, &v), -1);
	assert_non_null(strstr(err_msg(), "window"));
	assert_int_equal(steady_check(values, 5, 0, RANGE, SLOPE, &v), -1);
	assert_int_equal(steady_check(values, 5, WINDOW, 0, SLOPE, &v), -1);
	assert_non_null(strstr(err_msg(), "range limit"));
	assert_int_equal(steady_check(values, 5, WINDOW, -0.2, SLOPE, &v), -1);
	assert_int_equal(steady_check(values, 5, WINDOW, NAN, SLOPE, &v), -1);
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, 0, &v), -1);
	assert_non_null(strstr(err_msg(), "slope limit"));
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, INFINITY, &v), -1);
	assert_int_equal(steady_check(NULL, 5, WINDOW, RANGE, SLOPE, &v), -1);
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, SLOPE, NULL), -1);

	values[1] = -1;
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, SLOPE, &v), -1);
	assert_non_null(strstr(err_msg(), "round 2"));
	assert_non_null(strstr(err_msg(), "negative"));
	values[1] = NAN;
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, SLOPE, &v), -1);
	assert_non_null(strstr(err_msg(), "not finite"));
	values[1] = INFINITY;
	assert_int_equal(steady_check(values, 5, WINDOW, RANGE, SLOPE, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reached_flat_with_noise),
		cmocka_unit_test(test_not_reached_in_25_rounds),
		cmocka_unit_test(test_noisy_range_too_big),
		cmocka_unit_test(test_drifting_slope_too_big),
		cmocka_unit_test(test_range_exactly_at_limit),
		cmocka_unit_test(test_slope_exactly_at_limit),
		cmocka_unit_test(test_only_last_window_counts),
		cmocka_unit_test(test_too_few_rounds),
		cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
