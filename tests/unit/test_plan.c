/* test_plan.c - suite_plan arithmetic: fills at the write rate, random fills
 * at the random rate, sprandom from its plan, steady rounds as an upper
 * bound, points x (ramp + runtime), mixed workloads, size limits, idle and
 * purge, the totals, bad inputs, and the sprandom saving over full fills. */
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

#include "suite/plan.h"
#include "suite/sprandom.h"
#include "util/error.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

#define TB 1e12

static void load(const char *text, struct suite *s)
{
	const char *path = tmp_path("t.suite");

	file_write_text(path, text);
	if (suite_load(path, s))
		fail_msg("suite_load: %s", err_msg());
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > fabs(want) * 1e-9 + 1e-6)
		fail_msg("got %.9g, want %.9g", got, want);
}

static const struct plan_inputs big_drive = {
	.capacity = 245760000000000ull,   /* 245.76 TB */
	.write_bps = 3e9,
	.read_bps = 7e9,
};

static void test_two_full_fills(void **state)
{
	struct suite s;
	struct plan_step out[1];
	uint64_t written;
	double seconds;

	(void)state;
	load("[fill]\nstep = precondition\nprecondition = sequential\ncapacities = 2\nbs = 128k\n", &s);
	assert_int_equal(suite_plan(&s, &big_drive, out, &written, &seconds), 0);
	/* 2 x 245.76 TB at 3 GB/s: 163,840 s, about 45.5 hours */
	assert_int_equal(out[0].bytes_written, 491520000000000ull);
	assert_int_equal(out[0].bytes_read, 0);
	assert_near(out[0].seconds, 2 * 245.76e12 / 3e9);
	assert_true(out[0].seconds / 3600 > 45.5 && out[0].seconds / 3600 < 45.6);
	assert_ptr_equal(out[0].step, &s.steps[0]);
	assert_non_null(strstr(out[0].basis, "sequential"));
	assert_int_equal(written, out[0].bytes_written);
	assert_near(seconds, out[0].seconds);
	suite_free(&s);
}

static void test_random_and_sprandom_fills(void **state)
{
	struct suite s;
	struct plan_step out[3];
	struct plan_inputs in = big_drive;
	struct sprandom_plan sp;
	uint64_t written;
	double seconds;

	(void)state;
	load("[rnd]\nstep = precondition\nprecondition = random\nbs = 4k\n"
	     "[half]\nstep = precondition\nprecondition = random\nsize = 50%\n"
	     "[spr]\nstep = precondition\nprecondition = sprandom\nop = 7%\nregions = 16\niu = 16k\n", &s);
	/* without a random rate, the sequential write rate */
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	assert_int_equal(out[0].bytes_written, in.capacity);
	assert_near(out[0].seconds, 245.76e12 / 3e9);
	in.random_write_bps = 1e9;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	assert_near(out[0].seconds, 245.76e12 / 1e9);
	/* size=50% covers half the drive */
	assert_int_equal(out[1].bytes_written, in.capacity / 2);
	assert_near(out[1].seconds, 122.88e12 / 1e9);
	/* sprandom writes what its plan writes: the drive once, then the
	 * overwrites at the random rate */
	assert_int_equal(sprandom_plan(in.capacity, 0.07, 16, 16384, &sp), 0);
	assert_int_equal(out[2].bytes_written, sp.total_bytes);
	assert_true(sp.total_bytes > in.capacity && sp.total_bytes < 2 * in.capacity);
	assert_near(out[2].seconds, 245.76e12 / 3e9 + (double)(sp.total_bytes - in.capacity) / 1e9);
	sprandom_plan_free(&sp);
	assert_int_equal(written, out[0].bytes_written + out[1].bytes_written + out[2].bytes_written);
	assert_near(seconds, out[0].seconds + out[1].seconds + out[2].seconds);
	suite_free(&s);
}

static void test_timed_steps(void **state)
{
	struct suite s;
	struct plan_step out[6];
	struct plan_inputs in = { .capacity = 1000000000000ull, .write_bps = 2e9, .read_bps = 5e9,
				  .random_write_bps = 1e9 };
	uint64_t written;
	double seconds;

	(void)state;
	load("[global]\ntime_based\nruntime = 10s\nramp_time = 2s\n"
	     "[ss]\nstep = steady\nrw = randwrite\nruntime = 60s\nramp_time = 0\nmax_rounds = 20\n"
	     "[w]\nstep = sweep\nrw = write\npoints = 1/1 2/1 4/1\n"
	     "[r]\nstep = sweep\nrw = randread\niodepths = 1,2\nnumjobs = 1,4\n"
	     "[mix]\nstep = measure\nrw = randrw\nrwmixread = 70\nruntime = 100\nramp_time = 0\n"
	     "[rest]\nstep = idle\nidle = 3m\n"
	     "[wipe]\nstep = purge\nnvme_format = 1\n", &s);
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	/* steady: max_rounds x round, random write rate */
	assert_near(out[0].seconds, 20 * 60.0);
	assert_int_equal(out[0].bytes_written, 20 * 60 * 1000000000ull);
	assert_non_null(strstr(out[0].basis, "upper bound"));
	/* sweep: points x (ramp + runtime), bytes at the rate the whole time */
	assert_near(out[1].seconds, 3 * 12.0);
	assert_int_equal(out[1].bytes_written, 3 * 12 * 2000000000ull);
	assert_int_equal(out[1].bytes_read, 0);
	assert_near(out[2].seconds, 4 * 12.0);
	assert_int_equal(out[2].bytes_read, 4 * 12 * 5000000000ull);
	assert_int_equal(out[2].bytes_written, 0);
	/* mixed: 70% of bytes read; time per byte 0.7/5e9 + 0.3/1e9 */
	{
		double rate = 1.0 / (0.7 / 5e9 + 0.3 / 1e9);

		assert_near(out[3].seconds, 100);
		assert_near((double)out[3].bytes_read, 100 * rate * 0.7);
		assert_near((double)out[3].bytes_written, 100 * rate * 0.3);
	}
	assert_near(out[4].seconds, 180);
	assert_int_equal(out[4].bytes_written, 0);
	assert_near(out[5].seconds, PLAN_FORMAT_SECONDS);
	assert_int_equal(out[5].bytes_written, 0);
	{
		uint64_t sum = 0;
		double sum_s = 0;

		for (unsigned i = 0; i < 6; i++) {
			sum += out[i].bytes_written;
			sum_s += out[i].seconds;
		}
		assert_int_equal(written, sum);
		assert_near(seconds, sum_s);
	}
	suite_free(&s);
}

static void test_size_bound_measure(void **state)
{
	struct suite s;
	struct plan_step out[4];
	struct plan_inputs in = { .capacity = 100000000000ull, .write_bps = 1e9, .read_bps = 2e9 };
	uint64_t written;
	double seconds;

	(void)state;
	load("[io]\nstep = measure\nrw = write\nio_size = 10g\n"
	     "[whole]\nstep = measure\nrw = read\n"
	     "[capped]\nstep = measure\nrw = read\nruntime = 5s\nramp_time = 1s\n"
	     "[zap]\nstep = purge\n", &s);
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	assert_int_equal(out[0].bytes_written, 10ull << 30);
	assert_near(out[0].seconds, (double)(10ull << 30) / 1e9);
	/* no runtime: one pass over the whole target */
	assert_int_equal(out[1].bytes_read, in.capacity);
	assert_near(out[1].seconds, 50);
	/* a runtime without time_based cuts the pass, ramp on top */
	assert_near(out[2].seconds, 6);
	assert_int_equal(out[2].bytes_read, 12000000000ull);
	suite_free(&s);
	/* purge alone: the fixed discard estimate */
	load("[zap]\nstep = purge\n", &s);
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), 0);
	assert_near(out[0].seconds, PLAN_PURGE_SECONDS);
	assert_int_equal(written, 0);
	suite_free(&s);
}

static void test_bad_inputs(void **state)
{
	struct suite s;
	struct plan_step out[1];
	struct plan_inputs in = big_drive;
	struct plan_fill_saving saving;
	uint64_t written;
	double seconds;

	(void)state;
	load("[spr]\nstep = precondition\nprecondition = sprandom\nregions = 64\niu = 4k\n", &s);
	in.capacity = 0;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), -1);
	assert_non_null(strstr(err_msg(), "capacity"));
	assert_int_equal(plan_sprandom_saving(&s, &in, out, &saving), -1);
	in = big_drive;
	in.write_bps = 0;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), -1);
	assert_non_null(strstr(err_msg(), "write throughput"));
	in = big_drive;
	in.read_bps = -1;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), -1);
	assert_non_null(strstr(err_msg(), "read throughput"));
	in = big_drive;
	in.random_write_bps = -5;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), -1);
	assert_non_null(strstr(err_msg(), "random write"));
	/* sprandom's own check: too small a drive for 64 regions of 4k */
	in = big_drive;
	in.capacity = 8192;
	assert_int_equal(suite_plan(&s, &in, out, &written, &seconds), -1);
	assert_non_null(strstr(err_msg(), "step 'spr'"));
	suite_free(&s);
}

static void test_review_plan_and_saving(void **state)
{
	struct suite s;
	struct plan_step *out;
	struct plan_fill_saving saving;
	uint64_t written;
	double seconds, want;

	(void)state;
	assert_int_equal(suite_load("suites/review.suite", &s), 0);
	out = calloc(s.nr_steps, sizeof(*out));
	assert_non_null(out);
	assert_int_equal(suite_plan(&s, &big_drive, out, &written, &seconds), 0);
	/* purge + two fills + 2 points + 3 x 25 rounds of 60 s
	 * + (4 write sweeps x 18 + 4 read sweeps x 24) points of 330 s */
	want = PLAN_PURGE_SECONDS + 2 * 245.76e12 / 3e9 + 2 * 330 + 3 * 25 * 60 +
	       (4 * 18 + 4 * 24) * 330;
	/* CDN: the fill (4 jobs, each a quarter: the whole drive at the write
	 * rate), 3 h of saturation, two sweeps of 18 points x (330 s + 180 s
	 * pause); object storage: 4 x 330 s */
	want += 245.76e12 / 3e9 + 3 * 3600 + 2 * 18 * (330 + 180) + 4 * 330;
	/* DLIO checkpoints: floor(245.76 TB x 0.9 / 1,636 GB) = 135 per pass,
	 * 3 passes, at the sequential write rate */
	want += 135.0 * 3 * 1636e9 / 3e9;
	assert_near(seconds, want);
	assert_int_equal(plan_sprandom_saving(&s, &big_drive, out, &saving), 0);
	assert_int_equal(saving.nr_fills, 1);
	assert_int_equal(saving.fill_bytes, 491520000000000ull);
	assert_near(saving.fill_seconds, 2 * 245.76e12 / 3e9);
	assert_true(saving.sprandom_bytes > big_drive.capacity);
	assert_true(saving.sprandom_bytes < saving.fill_bytes);
	assert_true(saving.sprandom_seconds < saving.fill_seconds);
	free(out);
	suite_free(&s);

	/* a suite without a full fill has nothing to compare */
	load("[spr]\nstep = precondition\nprecondition = sprandom\n[m]\nstep = measure\n", &s);
	out = calloc(s.nr_steps, sizeof(*out));
	assert_non_null(out);
	assert_int_equal(suite_plan(&s, &big_drive, out, &written, &seconds), 0);
	assert_int_equal(plan_sprandom_saving(&s, &big_drive, out, &saving), 0);
	assert_int_equal(saving.nr_fills, 0);
	assert_int_equal(saving.fill_bytes, 0);
	free(out);
	suite_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_full_fills),
		cmocka_unit_test(test_random_and_sprandom_fills),
		cmocka_unit_test(test_timed_steps),
		cmocka_unit_test(test_size_bound_measure),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_review_plan_and_saving),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
