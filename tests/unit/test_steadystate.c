/* test_steadystate.c - fio's steady-state judgement: nothing is judged
 * before the window is full; the deviation criterion (largest distance
 * from the mean, as a value and in % of the mean) and the slope criterion
 * (least squares, in % of the whole-unit mean as fio divides) on known
 * series, strict "below the limit"; the window slides, oldest first; the
 * means over the window and fio's texts; the shared window figures; and
 * the option forms of steadystate=, ss_dur, ss_interval with their errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/steadystate.h"
#include "measure/window.h"
#include "util/error.h"
#include "job/options.h"

static struct job_checks checks(enum ss_metric m, bool slope, bool pct, double limit,
				unsigned intervals)
{
	struct job_checks c;

	job_checks_defaults(&c);
	c.ss_metric = m;
	c.ss_slope = slope;
	c.ss_pct = pct;
	c.ss_limit = limit;
	c.ss_interval_ns = 1000000000ull;
	c.ss_dur_ns = intervals * c.ss_interval_ns;
	return c;
}

static void test_window_fit(void **state)
{
	const double v[] = { 10, 12, 14, 16 };
	struct window_fit f;

	(void)state;
	window_fit(v, 4, &f);
	assert_true(f.mean == 13);
	assert_true(f.slope == 2);
	assert_true(f.max_dev == 3);
	assert_true(f.range == 6);
	window_fit(v, 1, &f);
	assert_true(f.slope == 0 && f.mean == 10 && f.max_dev == 0);
}

static void test_deviation_in_percent(void **state)
{
	struct job_checks c = checks(SS_IOPS, false, true, 10.0, 3);
	struct steady_report s;
	char text[64];

	(void)state;
	assert_int_equal(steady_report_init(&s, &c), 0);
	assert_false(steady_report_add(&s, 1000, 1, 7));
	assert_false(steady_report_add(&s, 1200, 2, 8));   /* not full yet */
	assert_int_equal(s.nr, 2);
	/* 1000 1200 1100: mean 1100, largest distance 100 = 9.09% < 10% */
	assert_true(steady_report_add(&s, 1100, 3, 9));
	assert_true(s.attained);
	assert_true(fabs(s.max_deviation - 100) < 1e-9);
	assert_true(fabs(s.criterion - 100.0 * 100 / 1100) < 1e-9);
	assert_int_equal(steady_report_mean(&s, s.iops), 1100);
	assert_int_equal(steady_report_mean(&s, s.bw), 2);
	steady_report_ss_text(&s, text, sizeof(text));
	assert_string_equal(text, "iops:10.000000%");
	steady_report_criterion_text(&s, text, sizeof(text));
	assert_string_equal(text, "9.090909%");
	steady_report_free(&s);
}

static void test_deviation_slides_and_is_strict(void **state)
{
	struct job_checks c = checks(SS_BW, false, false, 50.0, 2);
	struct steady_report s;

	(void)state;
	assert_int_equal(steady_report_init(&s, &c), 0);
	assert_false(steady_report_add(&s, 0, 100, 0));
	assert_false(steady_report_add(&s, 0, 300, 0));   /* 100 from the mean */
	assert_false(steady_report_add(&s, 0, 400, 0));   /* 300 400: 50, not below 50 */
	assert_true(s.bw[0] == 300 && s.bw[1] == 400);    /* oldest first */
	assert_true(steady_report_add(&s, 0, 420, 0));    /* 400 420: 10 */
	assert_true(s.bw[0] == 400 && s.bw[1] == 420);
	/* after attaining it keeps the window it judged */
	assert_true(steady_report_add(&s, 0, 9999, 0));
	assert_true(s.bw[1] == 420);
	steady_report_free(&s);
}

static void test_slope(void **state)
{
	struct job_checks c = checks(SS_IOPS, true, true, 1.0, 4);
	struct job_checks lat = checks(SS_LAT, true, false, 5.0, 3);
	struct steady_report s;

	(void)state;
	assert_int_equal(steady_report_init(&s, &c), 0);
	/* 1000 1010 1020 1030: slope 10 per interval, 10 / 1015 = 0.985% */
	assert_false(steady_report_add(&s, 1000, 0, 0));
	assert_false(steady_report_add(&s, 1010, 0, 0));
	assert_false(steady_report_add(&s, 1020, 0, 0));
	assert_true(steady_report_add(&s, 1030, 0, 0));
	assert_true(fabs(s.slope_value - 10) < 1e-9);
	assert_true(fabs(s.criterion - 100.0 * 10 / 1015) < 1e-9);
	steady_report_free(&s);
	/* a falling latency: |slope| counts; not below 5 ns, then below */
	assert_int_equal(steady_report_init(&s, &lat), 0);
	assert_false(steady_report_add(&s, 0, 0, 200));
	assert_false(steady_report_add(&s, 0, 0, 190));
	assert_false(steady_report_add(&s, 0, 0, 180));   /* slope -10 */
	assert_false(steady_report_add(&s, 0, 0, 178));   /* 190 180 178: -6 */
	assert_true(steady_report_add(&s, 0, 0, 177));    /* 180 178 177: -1.5 */
	assert_true(fabs(s.criterion + 1.5) < 1e-9);
	steady_report_free(&s);
}

static void test_mean_zero_never_attains(void **state)
{
	struct job_checks c = checks(SS_IOPS, false, true, 5.0, 2);
	struct steady_report s;
	char text[64];

	(void)state;
	assert_int_equal(steady_report_init(&s, &c), 0);
	assert_false(steady_report_add(&s, 0, 0, 0));
	assert_false(steady_report_add(&s, 0, 0, 0));   /* 0 / 0 % */
	assert_false(s.attained);
	steady_report_ss_text(&s, text, sizeof(text));
	assert_string_equal(text, "iops:5.000000%");
	steady_report_free(&s);
	c = checks(SS_LAT, true, false, 2500, 4);
	assert_int_equal(steady_report_init(&s, &c), 0);
	steady_report_ss_text(&s, text, sizeof(text));
	assert_string_equal(text, "lat_slope:2500.000000");
	steady_report_free(&s);
}

static void test_dup(void **state)
{
	struct job_checks c = checks(SS_BW, true, true, 1.0, 3);
	struct steady_report s, *copy;

	(void)state;
	assert_int_equal(steady_report_init(&s, &c), 0);
	steady_report_add(&s, 1, 2, 3);
	assert_int_equal(steady_report_dup(&copy, &s), 0);
	assert_true(copy->iops != s.iops && copy->iops[0] == 1 && copy->lat[0] == 3);
	assert_int_equal(copy->nr, 1);
	steady_report_free(copy);
	steady_report_free(&s);
	free(copy);
	assert_int_equal(steady_report_dup(&copy, NULL), 0);
	assert_null(copy);
}

static void test_options(void **state)
{
	static const struct { const char *key, *value, *msg; } bad[] = {
		{ "steadystate", "iops", "the limit must follow the criterion" },
		{ "steadystate", "iops:", "the limit must follow the criterion" },
		{ "steadystate", "speed:1%", "unknown criterion in 'speed:1%'" },
		{ "ss", "iops:-1%", "bad percentage '-1%'" },
		{ "ss", "iops:x", "bad IOPS limit 'x'" },
		{ "ss", "bw:fast", "option 'ss'" },
		{ "ss", "lat:soon", "option 'ss'" },
		{ "ss_interval", "0", "too small" },
		{ "ss_dur", "366d", "too large" },
	};
	struct job_spec s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		job_spec_defaults(&s);
		assert_int_equal(job_option_set(&s, bad[i].key, bad[i].value), -1);
		if (!strstr(err_msg(), bad[i].msg))
			fail_msg("%s=%s: '%s' lacks '%s'", bad[i].key, bad[i].value, err_msg(),
				 bad[i].msg);
	}
	job_spec_defaults(&s);
	assert_true(s.checks.ss_slope && s.checks.ss_pct && s.checks.ss_limit == 0.01);
	assert_int_equal(job_option_set(&s, "ss", "bw:1m"), 0);
	assert_true(s.checks.ss_metric == SS_BW && !s.checks.ss_slope && !s.checks.ss_pct);
	assert_true(s.checks.ss_limit == 1048576);
	assert_int_equal(job_option_set(&s, "steadystate", "lat_slope:20us"), 0);
	assert_true(s.checks.ss_metric == SS_LAT && s.checks.ss_slope && s.checks.ss_limit == 20000);
	assert_int_equal(job_option_set(&s, "steadystate", "iops_slope:0.1%"), 0);
	assert_int_equal(job_option_set(&s, "ss_dur", "3"), 0);   /* seconds */
	assert_int_equal(s.checks.ss_dur_ns, 3000000000ull);
	assert_int_equal(job_option_set(&s, "ss_interval", "2"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "not a whole number of ss_interval"));
	assert_int_equal(job_option_set(&s, "ss_interval", "3s"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "a slope needs at least 2 intervals"));
	assert_int_equal(job_option_set(&s, "ss", "iops:5"), 0);
	assert_int_equal(job_spec_validate(&s), 0);           /* one is enough for a deviation */
	assert_int_equal(job_option_set(&s, "ss_interval", "1ms"), 0);
	assert_int_equal(job_option_set(&s, "ss_dur", "1h"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "at most 1000000"));
	/* a name no table has is looked up past the last table's end */
	assert_int_equal(job_option_set(&s, "no_such_option", "1"), -1);
	assert_string_equal(err_msg(), "unknown option 'no_such_option'");
	assert_int_equal(job_option_set(&s, "steadystate_ramp_time", "10"), 0);
	assert_int_equal(s.checks.ss_ramp_ns, 10000000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_fit),
		cmocka_unit_test(test_deviation_in_percent),
		cmocka_unit_test(test_deviation_slides_and_is_strict),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_mean_zero_never_attains),
		cmocka_unit_test(test_dup),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
