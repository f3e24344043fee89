/* test_pts_suite.c - what the SNIA PTS suite needs of suite files: the
 * shipped suites/snia-pts-e.suite (its tests, rounds and tracked points),
 * a steady step's round of mixes x block sizes x points (order, tracked
 * point, the options noted per point) and every error of those
 * parameters, sweeps' repeat, operating points (the parameters and
 * operating_choose), --set overrides and their errors, --only/--skip by
 * test, and plan's figures for PTS rounds, write_capacities and repeats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite/operating.h"
#include "suite/plan.h"
#include "suite/steadyround.h"
#include "suite/suite.h"
#include "util/error.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

#define KIB 1024ull

static const char *write_suite(const char *name, const char *text)
{
	const char *path = tmp_path(name);

	file_write_text(path, text);
	return path;
}

static void load(const char *text, struct suite *s)
{
	if (suite_load(write_suite("t.suite", text), s))
		fail_msg("%s", err_msg());
}

/* Loads text (with sets) and expects an error containing fragment. */
static void expect_error_set(const char *text, const char *const *sets, unsigned nr,
			     const char *fragment)
{
	struct suite s;

	err_clear();
	assert_int_equal(suite_load_set(write_suite("bad.suite", text), sets, nr, &s), -1);
	if (!strstr(err_msg(), fragment))
		fail_msg("error '%s' lacks '%s'", err_msg(), fragment);
	assert_null(s.steps);
}

static void expect_error(const char *text, const char *fragment)
{
	expect_error_set(text, NULL, 0, fragment);
}

static const struct suite_step *find(const struct suite *s, const char *name)
{
	for (unsigned i = 0; i < s->nr_steps; i++)
		if (!strcmp(s->steps[i].name, name))
			return &s->steps[i];
	fail_msg("no step %s", name);
	return NULL;
}

static void test_shipped_suite(void **state)
{
	static const unsigned mixes[] = { 100, 95, 65, 50, 35, 5, 0 };
	static const uint64_t sizes[] = { 1024 * KIB, 128 * KIB, 64 * KIB, 32 * KIB, 16 * KIB,
					  8 * KIB, 4 * KIB, 512 };
	const struct suite_step *st;
	struct round_point p;
	struct suite s;

	(void)state;
	assert_int_equal(suite_load("suites/snia-pts-e.suite", &s), 0);
	assert_string_equal(s.name, "snia-pts-e");
	st = find(&s, "iops");
	assert_int_equal(st->kind, STEP_STEADY);
	assert_int_equal(suite_round_points(st), 56);
	for (unsigned k = 0; k < 56; k++) {
		p = steady_round_point(st, k);
		assert_true(p.has_mix && p.has_bs && !p.has_qd);
		assert_int_equal(p.mix, mixes[k / 8]);
		assert_int_equal(p.bs, sizes[k % 8]);
	}
	assert_int_equal(steady_round_tracked(st), 6 * 8 + 6);   /* 0/100, 4K */
	assert_int_equal(st->window, 5);
	assert_int_equal(st->max_rounds, 25);
	/* DIRTH: TC 32..1 outer, QD 32..1 inner; tracked TC32/QD32 */
	st = find(&s, "dirth-dv");
	assert_int_equal(suite_round_points(st), 42);
	p = steady_round_point(st, 0);
	assert_int_equal(p.numjobs, 32);
	assert_int_equal(p.iodepth, 32);
	p = steady_round_point(st, 41);
	assert_int_equal(p.numjobs, 1);
	assert_int_equal(p.iodepth, 1);
	p = steady_round_point(st, 7);
	assert_int_equal(p.numjobs, 16);
	assert_int_equal(p.iodepth, 32);
	assert_int_equal(steady_round_tracked(st), 0);
	st = find(&s, "wsat");
	assert_true(st->write_capacities == 4);
	assert_int_equal(st->max_rounds, 1440);
	st = find(&s, "hir-ws5");
	assert_int_equal(st->repeat, 360);
	assert_int_equal(st->pause_ns, 50000000000ull);
	st = find(&s, "cbw-max");
	assert_int_equal(st->operating_point, OPERATING_MAX);
	assert_string_equal(st->operating_from, "cbw-dv");
	assert_int_equal(st->lat_ceiling_ns, 5000000);
	assert_int_equal(st->spec.bssplit_nr[DIR_WRITE], 12);
	assert_int_equal(st->spec.distribution.kind, DIST_ZONED);
	/* every step belongs to one of the eight tests, each begun by a purge */
	for (unsigned i = 0; i < s.nr_steps; i++) {
		static const char *const tests = " iops tp lat wsat hir xsr cbw dirth ";
		char word[80];

		snprintf(word, sizeof(word), " %s ", s.steps[i].test);
		assert_non_null(strstr(tests, word));
		if (i == 0 || strcmp(s.steps[i].test, s.steps[i - 1].test))
			assert_int_equal(s.steps[i].kind, STEP_PURGE);
	}
	suite_free(&s);
}

static void test_round_order_and_notes(void **state)
{
	struct suite s;
	struct job_spec spec;
	const struct suite_step *st;
	char big[5000];

	(void)state;
	load("[global]\ntime_based\nruntime = 1s\n"
	     "[r]\nstep = steady\nrw = randrw\nmixes = 100,0\nblock_sizes = 8k,4k\n"
	     "points = 1/1 2/1\ntrack_mix = 0\ntrack_bs = 4k\ntrack_point = 2/1\n", &s);
	st = &s.steps[0];
	assert_int_equal(suite_round_points(st), 8);
	/* mixes outermost, then block sizes, points innermost */
	assert_int_equal(steady_round_point(st, 5).mix, 0);
	assert_int_equal(steady_round_point(st, 5).bs, 8 * KIB);
	assert_int_equal(steady_round_point(st, 5).iodepth, 2);
	assert_int_equal(steady_round_tracked(st), 7);
	spec = st->spec;
	assert_int_equal(steady_round_apply(st, 2, &spec), 0);
	assert_int_equal(spec.rwmixread, 100);
	assert_int_equal(spec.bs[DIR_READ], 4 * KIB);
	assert_int_equal(spec.bs[DIR_WRITE], 4 * KIB);
	assert_int_equal(spec.iodepth, 1);
	assert_non_null(strstr(spec.options_text, "rwmixread=100\nbs=4096\n"));
	/* the options a point notes must fit */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	err_clear();
	assert_int_equal(suite_spec_note(&spec, "k", big), -1);
	assert_non_null(strstr(err_msg(), "do not fit"));
	suite_free(&s);

	/* one value needs no track_*: the list's one */
	load("[global]\ntime_based\nruntime = 1s\n"
	     "[r]\nstep = steady\nrw = rw\nmixes = 100\nbs = 128k\n", &s);
	assert_int_equal(suite_round_points(&s.steps[0]), 1);
	assert_int_equal(steady_round_tracked(&s.steps[0]), 0);
	suite_free(&s);
}

static void test_round_errors(void **state)
{
	static const char head[] = "[global]\ntime_based\nruntime = 1s\n[r]\nstep = steady\n";
	static const struct {
		const char *lines, *fragment;
	} cases[] = {
		{ "rw = randwrite\nmixes = 100,0\ntrack_mix = 0\n", "mixes set the read share of a mixed workload" },
		{ "rw = randrw\nmixes = 100,0\n", "a round of 2 mixes needs track_mix" },
		{ "rw = randrw\nmixes = 100,0\ntrack_mix = 50\n", "track_mix is not one of the mixes" },
		{ "rw = randrw\ntrack_mix = 50\n", "track_mix needs mixes" },
		{ "rw = randrw\nmixes = 101\n", "key 'mixes': 101 is too large, the range is 0..100" },
		{ "rw = randrw\nmixes = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n", "more than 16 mixes" },
		{ "rw = randrw\nmixes = ,\n", "no mixes given" },
		{ "rw = randread\nblock_sizes = 4k,8k\n", "a round of 2 block_sizes needs track_bs" },
		{ "rw = randread\nblock_sizes = 4k,8k\ntrack_bs = 16k\n", "track_bs is not one of the block_sizes" },
		{ "rw = randread\nblock_sizes = 4k,lots\n", "key 'block_sizes': bad size 'lots'" },
		{ "rw = randread\nbssplit = 4k/50:8k/50\nblock_sizes = 4k\n", "block_sizes and bssplit exclude each other" },
		{ "rw = randread\nblock_sizes = ,\n", "no block sizes given" },
		{ "rw = randread\npoints = 1/1 2/1\n", "a round of 2 points needs track_point" },
		{ "rw = randread\npoints = 1/1 2/1\ntrack_point = 4/1\n", "track_point is not one of the points" },
		{ "rw = randread\ntrack_point = 4\n", "bad point '4'" },
		{ "rw = randread\ntrack_point = 0/1\n", "bad point '0/1'" },
		{ "rw = randrw\nwrite_capacities = 4\n", "write_capacities needs a workload that only writes" },
		{ "rw = randwrite\nwrite_capacities = 101\n", "101 is too large" },
		{ "rw = randwrite\nrepeat = 2\n", "key 'repeat' does not apply to a steady step" },
		{ "rw = randwrite\ntest = a b\n", "bad test name 'a b'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];

		snprintf(text, sizeof(text), "%s%s", head, cases[i].lines);
		expect_error(text, cases[i].fragment);
	}
}

static void test_sweep_and_operating_errors(void **state)
{
	static const char from[] = "[global]\ntime_based\nruntime = 1s\n"
		"[dv]\nstep = steady\nrw = randwrite\nnumjobs = 2,1\niodepths = 2,1\ntrack_point = 2/2\n"
		"[flat]\nstep = steady\nrw = randwrite\n";
	static const struct {
		const char *lines, *fragment;
	} cases[] = {
		{ "[m]\nstep = measure\noperating_point = top\nfrom = dv\n", "unknown operating point 'top'" },
		{ "[m]\nstep = measure\noperating_point = max\n", "operating_point needs from = STEP" },
		{ "[m]\nstep = measure\nfrom = dv\n", "from needs operating_point" },
		{ "[m]\nstep = measure\nlat_ceiling = 5ms\n", "lat_ceiling needs operating_point = max" },
		{ "[m]\nstep = measure\noperating_point = mid\nfrom = dv\nlat_ceiling = 5ms\n",
		  "lat_ceiling applies to operating_point = max only" },
		{ "[m]\nstep = measure\noperating_point = max\nfrom = later\n[later]\nstep = sweep\npoints = 1/1\n",
		  "from = later: no step of that name before this one" },
		{ "[m]\nstep = measure\noperating_point = max\nfrom = flat\n",
		  "from = flat: a steady step without QD/jobs points" },
		{ "[m]\nstep = measure\noperating_point = max\nfrom = dv\nlat_ceiling = 0\n",
		  "0 is too small, the range is 1ns..1d" },
		{ "[m]\nstep = measure\nrepeat = 3\n", "key 'repeat' does not apply to a measure step" },
		{ "[m]\nstep = sweep\npoints = 1/1\nrepeat = 0\n", "key 'repeat': 0 is too small" },
	};
	struct suite s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];

		snprintf(text, sizeof(text), "%s%s", from, cases[i].lines);
		expect_error(text, cases[i].fragment);
	}
	load("[global]\ntime_based\nruntime = 1s\n"
	     "[dv]\nstep = sweep\nrw = randwrite\npoints = 1/1 4/1\n"
	     "[m]\nstep = measure\nrw = randwrite\noperating_point = min\nfrom = dv\n"
	     "[h]\nstep = sweep\nrw = randwrite\npoints = 4/1\nrepeat = 3\npause = 1s\n", &s);
	assert_int_equal(s.steps[1].operating_point, OPERATING_MIN);
	assert_int_equal(s.steps[2].repeat, 3);
	suite_free(&s);
}

static const char set_suite[] =
	"[global]\ntime_based\nruntime = 10s\n"
	"[a-purge]\nstep = purge\ntest = a\n"
	"[a]\nstep = steady\ntest = a\nrw = randwrite\nwindow = 3\nmax_rounds = 9\n"
	"[b-burst]\nstep = sweep\ntest = b\nrw = randwrite\npoints = 4/1\nrepeat = 10\n"
	"[c]\nstep = measure\nrw = read\n";

static void test_overrides(void **state)
{
	const char *sets[] = { "runtime=1s", "b.repeat=2", "a.max_rounds=4", "c.bs=8k",
			       "time_based" };
	struct suite s;

	(void)state;
	assert_int_equal(suite_load_set(write_suite("s.suite", set_suite), sets, 5, &s), 0);
	for (unsigned i = 0; i < s.nr_steps; i++)
		assert_int_equal(s.steps[i].spec.runtime_ns, 1000000000ull);
	assert_int_equal(s.steps[1].max_rounds, 4);
	assert_int_equal(s.steps[1].window, 3);
	assert_int_equal(s.steps[2].repeat, 2);
	assert_int_equal(s.steps[3].spec.bs[DIR_READ], 8 * KIB);
	assert_int_equal(s.steps[1].spec.bs[DIR_WRITE], 4 * KIB);
	/* a stored option says what ran */
	assert_non_null(strstr(s.steps[3].spec.options_text, "bs=8k"));
	suite_free(&s);

	{
		const char *e1[] = { "z.runtime=1s" }, *e2[] = { "a.repeat=2" },
			   *e3[] = { "a.window=1" }, *e4[] = { "step=sweep" },
			   *e5[] = { "=1" }, *e6[] = { "a-purge.window=3" },
			   *e7[] = { "runtime=soon" }, *e8[] = { "filename=/tmp/x" },
			   *e9[] = { "repeat=2", "nothing=1" };

		expect_error_set(set_suite, e1, 1, "--set z.runtime=1s: suite has no step or test 'z'");
		expect_error_set(set_suite, e2, 1, "key 'repeat' does not apply to a steady step");
		expect_error_set(set_suite, e3, 1, "--set a.window=1: key 'window': 1 is too small");
		expect_error_set(set_suite, e4, 1, "--set step=sweep: a step's 'step' is the suite file's");
		expect_error_set(set_suite, e5, 1, "--set =1: write KEY=VALUE or NAME.KEY=VALUE");
		expect_error_set(set_suite, e6, 1, "--set a-purge.window=3: key 'window' does not apply to a purge step");
		expect_error_set(set_suite, e7, 1, "--set runtime=soon: option 'runtime'");
		expect_error_set(set_suite, e8, 1, "--set filename=/tmp/x: key 'filename'");
		expect_error_set(set_suite, e9, 2, "--set nothing=1: unknown option 'nothing'");
	}
	{
		/* a parameter no step takes, unnamed or by test */
		const char *e1[] = { "idle=1s" }, *e2[] = { "b.window=3" };

		expect_error_set(set_suite, e1, 1, "--set idle=1s: no step takes 'idle'");
		expect_error_set(set_suite, e2, 1, "--set b.window=3: no step of b takes 'window'");
	}
}

static void test_select_by_test(void **state)
{
	const char *only[] = { "b", "c", NULL }, *skip[] = { "a-purge", NULL }, *bad[] = { "x", NULL };
	unsigned selected[8], nr;
	struct suite s;

	(void)state;
	load(set_suite, &s);
	assert_true(suite_step_is(&s.steps[0], "a"));
	assert_true(suite_step_is(&s.steps[0], "a-purge"));
	assert_false(suite_step_is(&s.steps[3], "a"));
	assert_int_equal(suite_select(&s, only, NULL, selected, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(selected[0], 2);
	assert_int_equal(selected[1], 3);
	assert_int_equal(suite_select(&s, NULL, skip, selected, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(selected[0], 1);
	err_clear();
	assert_int_equal(suite_select(&s, bad, NULL, selected, &nr), -1);
	assert_non_null(strstr(err_msg(), "--only: suite 't' has no step or test 'x'"));
	only[0] = "a";
	only[1] = NULL;
	skip[0] = "a";
	assert_int_equal(suite_select(&s, only, skip, selected, &nr), -1);
	assert_non_null(strstr(err_msg(), "no step of suite 't' is selected"));
	assert_int_equal(suite_select(&s, NULL, NULL, selected, &nr), 0);
	selected[0] = 1;
	selected[1] = 3;
	suite_keep_steps(&s, selected, 2);
	assert_int_equal(s.nr_steps, 2);
	assert_string_equal(s.steps[0].name, "a");
	assert_string_equal(s.steps[1].name, "c");
	suite_free(&s);
}

static void test_operating_choose(void **state)
{
	const struct operating_candidate c[] = {
		{ 32, 32, 900000, 9e6, 1 },   /* most IOPS, 9 ms */
		{ 16, 32, 800000, 4e6, 1 },   /* most under 5 ms */
		{ 8, 8, 450000, 1e6, 1 },
		{ 2, 1, 120000, 60e3, 1 },
		{ 1, 1, 90000, 50e3, 1 },     /* the fewest outstanding */
	};
	unsigned i;

	(void)state;
	assert_int_equal(operating_choose(c, 5, OPERATING_MAX, 0, &i), 0);
	assert_int_equal(i, 0);
	assert_int_equal(operating_choose(c, 5, OPERATING_MAX, 5000000, &i), 0);
	assert_int_equal(i, 1);
	assert_int_equal(operating_choose(c, 5, OPERATING_MIN, 0, &i), 0);
	assert_int_equal(i, 4);
	/* halfway between 800K (max under 5 ms) and 90K: 445K -> 450K */
	assert_int_equal(operating_choose(c, 5, OPERATING_MID, 5000000, &i), 0);
	assert_int_equal(i, 2);
	err_clear();
	assert_int_equal(operating_choose(c, 5, OPERATING_MAX, 1000, &i), -1);
	assert_non_null(strstr(err_msg(), "no point has a mean latency of at most 0.001 ms"));
	assert_int_equal(operating_choose(c, 0, OPERATING_MIN, 0, &i), -1);
	assert_non_null(strstr(err_msg(), "no QD/jobs points"));
	assert_string_equal(operating_point_name(OPERATING_MID), "mid");
}

static void test_plan_pts(void **state)
{
	struct plan_inputs in = { .capacity = 1000000000000ull, .write_bps = 2e9, .read_bps = 4e9,
				  .random_write_bps = 1e9 };
	struct plan_step out[4];
	uint64_t written;
	double seconds;
	struct suite s;

	(void)state;
	load("[global]\ntime_based\nruntime = 60s\n"
	     "[m]\nstep = steady\nrw = randrw\nmixes = 100,0\nblock_sizes = 4k,8k,16k\n"
	     "track_mix = 0\ntrack_bs = 4k\nmax_rounds = 25\n"
	     "[w]\nstep = steady\nrw = randwrite\nwrite_capacities = 4\nmax_rounds = 1440\n"
	     "[short]\nstep = steady\nrw = randwrite\nwrite_capacities = 4\nmax_rounds = 10\n"
	     "[h]\nstep = sweep\nrw = randwrite\npoints = 4/1\nrepeat = 360\npause = 10s\n"
	     "runtime = 5s\n", &s);
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	/* 25 rounds of 6 one-minute points */
	assert_true(fabs(out[0].seconds - 25 * 6 * 60.0) < 1e-6);
	assert_non_null(strstr(out[0].basis, "25 rounds x 6 points x 60 s (at least 5)"));
	/* 4 TB at the random write rate: 4000 s, 67 rounds of the 1440 */
	assert_true(fabs(out[1].seconds - 4000.0) < 1e-6);
	assert_int_equal(out[1].bytes_written, 4000000000000ull);
	assert_non_null(strstr(out[1].basis, "about 67 rounds of 60 s (at most 1440)"));
	/* max_rounds comes first */
	assert_true(fabs(out[2].seconds - 600.0) < 1e-6);
	/* 360 x (5 s + 10 s) */
	assert_true(fabs(out[3].seconds - 360 * 15.0) < 1e-6);
	suite_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_suite),
		cmocka_unit_test(test_round_order_and_notes),
		cmocka_unit_test(test_round_errors),
		cmocka_unit_test(test_sweep_and_operating_errors),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_select_by_test),
		cmocka_unit_test(test_operating_choose),
		cmocka_unit_test(test_plan_pts),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
