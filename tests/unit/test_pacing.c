/* test_pacing.c - the pure logic of the pacing, shape and job-control
 * options: their parsing (fio's per-direction rule, startdelay ranges,
 * bsrange, offset modifiers, sequence lists, zoned shares left empty), the
 * cross-checks, which jobs take the paced or shaped path, the sequence
 * distribution's order and end, and fio's bsrange draw. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/shape.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "job/offsets.h"
#include "job/options.h"
#include "helpers/fixtures.h"

#define KiB 1024ull

static void defaults_are_fios(void **state)
{
	struct job_spec *s = new_spec();
	const struct job_pacing *p = &s->pacing;

	(void)state;
	assert_int_equal(p->loops, 1);
	assert_int_equal(p->thinktime_blocks, 1);
	assert_int_equal(p->rate_cycle_ns, 1000000000ull);
	assert_true(p->latency_percentile == 100.0);
	assert_int_equal(p->rand_seq_nr, 1);
	assert_int_equal(p->submit_mode, SUBMIT_INLINE);
	assert_int_equal(p->thinktime_blocks_type, THINK_COMPLETE);
	assert_false(pacing_active(s));
	assert_false(pacing_shaped(s));
	assert_false(shape_needed(s));
	free(s);
}

static void rates_follow_the_blocksize_rule(void **state)
{
	struct job_spec *s = new_spec();
	const struct job_pacing *p = &s->pacing;

	(void)state;
	set_ok(s, "rate", "1m");
	assert_true(p->rate[DIR_READ] == 1 << 20 && p->rate[DIR_WRITE] == 1 << 20 &&
		    p->rate[DIR_TRIM] == 1 << 20);
	set_ok(s, "rate", "1m,500k");   /* the last value runs on to trims */
	assert_true(p->rate[DIR_WRITE] == 500 * KiB && p->rate[DIR_TRIM] == 500 * KiB);
	set_ok(s, "rate", ",2m,");       /* reads and trims keep theirs */
	assert_true(p->rate[DIR_READ] == 1 << 20 && p->rate[DIR_WRITE] == 2 << 20 &&
		    p->rate[DIR_TRIM] == 500 * KiB);
	set_ok(s, "ratemin", "1250");    /* fio's alias, bytes/s */
	assert_true(p->rate_min[DIR_READ] == 1250);
	set_ok(s, "rate_iops", "300,300,300");
	assert_true(p->rate_iops[DIR_TRIM] == 300);
	set_fails_with(s, "rate", "1m,2m,3m,4m", "READ[,WRITE[,TRIM]]");
	set_fails_with(s, "rate_iops", "1k", "bad number '1k'");
	set_ok(s, "rate_process", "poisson");
	assert_int_equal(p->rate_process, RATE_POISSON);
	assert_true(pacing_active(s));
	validate_fails_with(s, "rate and rate_iops");
	set_ok(s, "rate_iops", "0");
	set_ok(s, "rate", "1m");
	set_ok(s, "rate_min", "2m");      /* fio: minimum rate exceeds rate */
	validate_fails_with(s, "minimum rate is above the rate");
	set_ok(s, "rate_min", "0");
	set_ok(s, "rate", "1k");          /* under one 4k block a second */
	validate_fails_with(s, "poisson needs at least one I/O a second");
	set_ok(s, "rate_process", "linear");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "rw", "trimwrite");
	validate_fails_with(s, "not supported with trimwrite");
	free(s);
}

static void startdelay_and_times(void **state)
{
	struct job_spec *s = new_spec();
	const struct job_pacing *p = &s->pacing;

	(void)state;
	set_ok(s, "startdelay", "4");            /* seconds */
	assert_true(p->startdelay_ns == 4000000000ull && p->startdelay_max_ns == 0);
	set_fails_with(s, "startdelay", "1s-500ms0", "bad time '500ms0'");
	assert_true(p->startdelay_ns == 4000000000ull);   /* a failure keeps it */
	free(s);
}

static void startdelay_ranges(void **state)
{
	struct job_spec *s = new_spec();
	const struct job_pacing *p = &s->pacing;

	(void)state;
	set_ok(s, "startdelay", "1-3");
	assert_true(p->startdelay_ns == 1000000000ull && p->startdelay_max_ns == 3000000000ull);
	set_ok(s, "startdelay", "100ms-2s");
	assert_true(p->startdelay_ns == 100000000ull && p->startdelay_max_ns == 2000000000ull);
	set_fails_with(s, "startdelay", "3-1", "minimum 3 is above maximum 1");
	set_fails_with(s, "startdelay", "1-2-3", "want TIME or MIN-MAX");
	set_ok(s, "thinktime", "100");           /* microseconds */
	assert_true(p->thinktime_ns == 100000ull);
	set_ok(s, "thinktime_iotime", "2");      /* seconds */
	assert_true(p->thinktime_iotime_ns == 2000000000ull);
	set_ok(s, "rate_cycle", "500");          /* milliseconds */
	assert_true(p->rate_cycle_ns == 500000000ull);
	set_ok(s, "latency_target", "500000");   /* microseconds, as fio */
	assert_true(p->latency_target_ns == 500000000ull);
	set_ok(s, "latency_window", "5000000");
	assert_true(p->latency_window_ns == 5000000000ull);
	set_ok(s, "latency_percentile", "99.9");
	assert_true(fabs(p->latency_percentile - 99.9) < 1e-9);
	set_ok(s, "number_ios", "1k");
	assert_true(p->number_ios == 1024);
	free(s);
}

static void bsrange_per_direction(void **state)
{
	struct job_spec *s = new_spec();
	const struct job_pacing *p = &s->pacing;

	(void)state;
	set_ok(s, "bsrange", "1k-4k,2k-8k");
	assert_true(p->bs_min[DIR_READ] == KiB && p->bs_max[DIR_READ] == 4 * KiB);
	assert_true(p->bs_min[DIR_WRITE] == 2 * KiB && p->bs_max[DIR_TRIM] == 8 * KiB);
	assert_true(job_spec_max_bs(s) == 4 * KiB && job_spec_min_bs(s) == KiB);
	set_ok(s, "blocksize_range", "1k:4k");   /* fio's ':' form and alias */
	assert_true(p->bs_max[DIR_WRITE] == 4 * KiB);
	set_ok(s, "bsrange", "4k-4k");           /* one size: plain bs */
	assert_true(p->bs_max[DIR_READ] == 0 && s->bs[DIR_READ] == 4 * KiB);
	assert_false(shape_needed(s));
	set_fails_with(s, "bsrange", "8k-4k", "minimum above maximum");
	set_fails_with(s, "bsrange", "4k-8k-16k", "want MIN-MAX");
	set_ok(s, "bsrange", "4k-16k");
	assert_true(shape_needed(s));
	set_ok(s, "bssplit", "4k/50:8k/50");
	validate_fails_with(s, "bsrange': cannot be combined with bssplit");
	free(s);
}

/* fio's draw: every size a multiple of the minimum within the range, and
 * for 4k-16k each of 4k, 8k, 12k, 16k a quarter of the unit interval. */
static void bsrange_draw_is_fios(void **state)
{
	unsigned count[5] = { 0 };

	(void)state;
	for (unsigned i = 0; i < 100000; i++) {
		double u = (i + 0.5) / 100000.0;
		uint64_t a = shape_range_size(4096, 16384, u);
		uint64_t b = shape_range_size(3000, 10000, u);   /* not a power of 2 */

		assert_true(a >= 4096 && a <= 16384 && a % 4096 == 0);
		/* fio caps at the maximum even when it is not a multiple */
		assert_true(b >= 3000 && (b % 3000 == 0 || b == 10000) && b <= 10000);
		count[a / 4096]++;
	}
	for (unsigned k = 1; k <= 4; k++)
		assert_int_equal(count[k], 25000);
	assert_true(shape_range_size(4096, 16384, 0.0) == 4096);
	assert_true(shape_range_size(4096, 16384, 0.999999) == 16384);
}

static void offset_modifiers(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "rw", "read:-8k");
	assert_true(s->pacing.seq_add == -8192);
	assert_true(pacing_shaped(s) && !pacing_active(s));
	set_ok(s, "rw", "randread:8");
	set_ok(s, "rw_sequencer", "identical");
	assert_true(s->pacing.rand_seq_nr == 8 && s->pacing.rw_sequencer == RW_SEQ_IDENTICAL);
	set_ok(s, "rw", "randread");
	assert_false(pacing_shaped(s));
	set_fails_with(s, "rw", "write:-", "bad size");
	free(s);
}

static void sequence_and_zoned_shares(void **state)
{
	struct job_spec *s = new_spec();
	const struct distribution *d = &s->distribution;

	(void)state;
	set_ok(s, "random_distribution", "sequence:2,0,1");
	assert_int_equal(d->kind, DIST_SEQUENCE);
	assert_int_equal(s->pacing.nr_sequence, 3);
	assert_true(s->pacing.sequence[0] == 2 && s->pacing.sequence[2] == 1);
	set_fails_with(s, "random_distribution", "sequence:", "needs block indices");
	set_fails_with(s, "random_distribution", "sequence:1,-2", "bad sequence element '-2'");
	set_fails_with(s, "random_distribution", "sequence:1,,2", "bad sequence element in");
	/* the empty last share takes the rest */
	set_ok(s, "random_distribution", "zoned:50/5:30/15:20/");
	assert_int_equal(d->kind, DIST_ZONED);
	assert_int_equal(d->nr_zones, 3);
	assert_true(fabs(d->zones[2].range_pct - 80) < 1e-9);
	/* two empty shares split it */
	set_ok(s, "random_distribution", "zoned:40/10:30/:30/");
	assert_true(fabs(d->zones[1].range_pct - 45) < 1e-9 &&
		    fabs(d->zones[2].range_pct - 45) < 1e-9);
	set_ok(s, "random_distribution", "zoned:60/10:/90");
	assert_true(fabs(d->zones[1].access_pct - 40) < 1e-9);
	set_fails_with(s, "random_distribution", "zoned:50/60:50/50",
		       "add up to 110, more than 100");
	free(s);
}

/* The sequence distribution: the list in order, strided groups, and the
 * end past the range. */
static void sequence_order(void **state)
{
	struct job_spec *s = new_spec();
	struct offset_gen g;
	static const uint64_t fixed[] = { 2, 0, 1, 2, 0, 1 };
	static const uint64_t strided[] = { 2, 0, 1, 5, 3, 4, 8, 6, 7 };

	(void)state;
	set_ok(s, "random_distribution", "sequence:2,0,1");
	assert_int_equal(offset_gen_init(&g, s, 12, 1), 0);
	for (unsigned i = 0; i < 6; i++)
		assert_true(offset_gen_next(&g) == fixed[i]);
	set_ok(s, "random_sequence_stride", "1");
	assert_int_equal(offset_gen_init(&g, s, 8, 1), 0);
	/* the loop stops issuing at the first index past the range */
	for (unsigned i = 0; i < 7; i++)
		assert_true(offset_gen_next(&g) == (strided[i] < 8 ? strided[i] : OFFSET_SEQUENCE_END));
	set_ok(s, "random_distribution", "sequence:2,9");
	assert_int_equal(offset_gen_init(&g, s, 8, 1), -1);
	assert_non_null(strstr(err_msg(), "sequence block 9 is out of bounds"));
	free(s);
}

static void zones_and_job_control(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "zonesize", "256m");           /* fio: zonesize alone = strided */
	assert_true(pacing_zone_strided(s) && pacing_shaped(s));
	set_ok(s, "zonemode", "none");
	assert_false(pacing_zone_strided(s));
	set_ok(s, "zonemode", "strided");
	set_ok(s, "zonesize", "0");
	validate_fails_with(s, "strided needs zonesize");
	set_ok(s, "zonemode", "none");
	set_ok(s, "zonemode", "zbd");             /* the device is checked at run time */
	assert_true(pacing_zone_zbd(s) && pacing_shaped(s) && !pacing_zone_strided(s));
	set_ok(s, "direct", "1");
	set_ok(s, "zonesize", "1m");
	validate_fails_with(s, "option 'zonesize': not with zonemode=zbd");
	set_ok(s, "zonesize", "0");
	set_ok(s, "zonemode", "none");
	set_ok(s, "max_open_zones", "2");
	validate_fails_with(s, "option 'max_open_zones': needs zonemode=zbd");
	set_ok(s, "max_open_zones", "0");
	set_ok(s, "name", "me");
	set_ok(s, "wait_for", "me");
	validate_fails_with(s, "a job cannot wait for itself");
	set_ok(s, "wait_for", "other");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "exit_what", "stonewall");
	assert_int_equal(s->pacing.exit_what, EXIT_STONEWALL);
	set_ok(s, "flow_watermark", "100");      /* accepted, no effect, as fio */
	set_ok(s, "flow", "8");
	assert_true(pacing_active(s));
	free(s);
}

static void trims_write_and_have_a_block_size(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "rw", "randtrim");
	assert_true(job_spec_trims(s) && job_spec_writes(s) && job_spec_random(s));
	assert_false(job_spec_reads(s));
	assert_false(job_spec_uses_dir(s, DIR_WRITE));
	assert_true(job_spec_uses_dir(s, DIR_TRIM));
	set_ok(s, "bs", "4k,4k,64k");
	assert_true(job_spec_max_bs(s) == 64 * KiB);
	set_ok(s, "rw", "trimwrite");
	assert_true(job_spec_uses_dir(s, DIR_WRITE) && pacing_shaped(s));
	assert_false(job_spec_random(s));
	set_ok(s, "verify", "crc32c");
	validate_fails_with(s, "trims are not verified");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_fios),
		cmocka_unit_test(rates_follow_the_blocksize_rule),
		cmocka_unit_test(startdelay_and_times),
		cmocka_unit_test(startdelay_ranges),
		cmocka_unit_test(bsrange_per_direction),
		cmocka_unit_test(bsrange_draw_is_fios),
		cmocka_unit_test(offset_modifiers),
		cmocka_unit_test(sequence_and_zoned_shares),
		cmocka_unit_test(sequence_order),
		cmocka_unit_test(zones_and_job_control),
		cmocka_unit_test(trims_write_and_have_a_block_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
