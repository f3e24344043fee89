/* test_sprandom_job.c - the sprandom job option: the per-region invalid
 * shares equal fio's (its linspace/resample of the model curve, computed
 * independently in Python for op 0.15 and 10 regions), the plan's sizes
 * (physical = logical + ceil(op x logical) in whole blocks, equal
 * regions), the sequence (region 0 all fresh, every block written, the
 * counted length, the same for a seed), spr_cs deferring the replays to a
 * region's end, the errors, and fio's option rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"
#include "job/options.h"
#include "job/sprandom_job.h"

#define BLOCKS 4096u
#define BS 4096u

static void spec_with(struct job_spec *s, const char *op, const char *regions, const char *cs)
{
	job_spec_defaults(s);
	assert_int_equal(job_option_set(s, "rw", "randwrite"), 0);
	assert_int_equal(job_option_set(s, "sprandom", "1"), 0);
	assert_int_equal(job_option_set(s, "spr_op", op), 0);
	assert_int_equal(job_option_set(s, "spr_num_regions", regions), 0);
	if (cs)
		assert_int_equal(job_option_set(s, "spr_cs", cs), 0);
}

static void test_validity_is_fios(void **state)
{
	static const uint32_t fio_invalid[10] = {
		2479, 2237, 1988, 1730, 1464, 1190, 906, 614, 312, 0,
	};
	double v[10], one;

	(void)state;
	assert_int_equal(spr_validity(10, 0.15, v), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal((uint32_t)lround((1 - v[i]) * SPR_PCT_PRECISION), fio_invalid[i]);
	assert_true(fabs(spr_model_waf(0.15) - (0.5 / 0.15 + 0.7)) < 1e-12);
	assert_true(fabs(spr_gc_validity(0.15) - (1 - 1 / spr_model_waf(0.15))) < 1e-12);
	assert_int_equal(spr_validity(1, 0.15, &one), 0);
	assert_true(one == 1.0);
}

static void test_plan_and_sequence(void **state)
{
	struct job_spec s;
	struct spr_gen *g, *again;
	struct sprandom_report *r, *r2;
	unsigned *seen = calloc(BLOCKS, sizeof(*seen));
	uint64_t fresh = 0;

	(void)state;
	spec_with(&s, "0.15", "10", NULL);
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 42, &r), 0);
	assert_int_equal(r->logical_bytes, 16777216);
	/* 16777216 + ceil(2516582.4) = 19293799, down to whole blocks */
	assert_int_equal(r->physical_bytes, 19292160);
	assert_int_equal(r->region_bytes, 19292160 / 10);
	assert_int_equal(r->region_writes, 19292160 / 10 / BS);
	assert_int_equal(r->invalid[0], 2479);
	assert_int_equal(r->invalid[9], 0);
	assert_true(r->writes > BLOCKS && r->writes <= r->physical_bytes / BS + r->region_writes);
	assert_int_equal(r->replays, r->writes - BLOCKS);
	for (uint64_t k = 0; k < r->writes; k++) {
		uint64_t b = spr_gen_next(g);

		assert_true(b < BLOCKS);
		if (k < r->region_writes)
			assert_int_equal(seen[b], 0);   /* region 0 writes fresh blocks */
		fresh += seen[b]++ == 0;
	}
	assert_int_equal(fresh, BLOCKS);          /* every block written */
	assert_true(spr_gen_next(g) < BLOCKS);    /* past the plan: more passes */
	/* the same seed, the same sequence */
	assert_int_equal(spr_gen_create(&again, &s, BLOCKS, BS, 42, &r2), 0);
	spr_gen_free(g);
	sprandom_report_free(r);
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 42, &r), 0);
	for (int k = 0; k < 1000; k++)
		assert_int_equal(spr_gen_next(g), spr_gen_next(again));
	assert_int_equal(r->writes, r2->writes);
	spr_gen_free(g);
	spr_gen_free(again);
	sprandom_report_free(r);
	sprandom_report_free(r2);
	free(seen);
}

/* Without spr_cs the second region starts (after one fresh write, as fio's
 * sequence has it) with the first region's kept blocks; with it they wait
 * until the region's own fresh writes are done. */
static void test_cache_defers_replays(void **state)
{
	struct job_spec s;
	struct spr_gen *g;
	struct sprandom_report *r;
	unsigned *seen = calloc(BLOCKS, sizeof(*seen));
	uint64_t again_early = 0, again_late = 0;

	(void)state;
	spec_with(&s, "0.25", "4", NULL);
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 7, &r), 0);
	for (uint64_t k = 0; k < 2 * r->region_writes; k++) {
		uint64_t b = spr_gen_next(g);

		if (k == r->region_writes)
			assert_int_equal(seen[b], 0);
		if (k > r->region_writes && k <= r->region_writes + 50)
			again_early += seen[b] > 0;
		seen[b]++;
	}
	assert_int_equal(again_early, 50);
	spr_gen_free(g);
	sprandom_report_free(r);

	memset(seen, 0, BLOCKS * sizeof(*seen));
	spec_with(&s, "0.25", "4", "64k");
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 7, &r), 0);
	assert_int_equal(r->cache_bytes, 65536);
	again_early = 0;
	for (uint64_t k = 0; k < 2 * r->region_writes + 200; k++) {
		uint64_t b = spr_gen_next(g);

		if (k >= r->region_writes && k < r->region_writes + 50)
			again_early += seen[b] > 0;
		if (k >= 2 * r->region_writes - 50 && k < 2 * r->region_writes + 50)
			again_late += seen[b] > 0;
		seen[b]++;
	}
	assert_int_equal(again_early, 0);
	assert_true(again_late > 0);
	spr_gen_free(g);
	sprandom_report_free(r);
	free(seen);
}

static void test_errors(void **state)
{
	struct job_spec s;
	struct spr_gen *g;
	struct sprandom_report *r;

	(void)state;
	spec_with(&s, "0.15", "10", "4m");
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 1, &r), -1);
	assert_non_null(strstr(err_msg(), "option 'spr_cs': 4194304 is above the region size 1929216"));
	assert_null(g);
	assert_null(r);
	spec_with(&s, "0.15", "5000", NULL);
	assert_int_equal(spr_gen_create(&g, &s, BLOCKS, BS, 1, &r), -1);
	assert_non_null(strstr(err_msg(), "option 'spr_num_regions': 5000 regions"));
	job_spec_defaults(&s);
	assert_int_equal(job_option_set(&s, "spr_op", "1"), -1);
	assert_non_null(strstr(err_msg(), "0 < spr_op < 1"));
	assert_int_equal(job_option_set(&s, "spr_op", "0"), -1);
	assert_true(s.checks.spr_op == 0.15 && s.checks.spr_num_regions == 100);
}

static void test_fio_rules(void **state)
{
	struct job_spec s;

	(void)state;
	job_spec_defaults(&s);
	assert_int_equal(job_option_set(&s, "sprandom", "1"), 0);
	assert_int_equal(job_spec_validate(&s), -1);   /* rw=read */
	assert_non_null(strstr(err_msg(), "option 'sprandom': needs random writes"));
	assert_int_equal(job_option_set(&s, "rw", "randrw"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_int_equal(job_option_set(&s, "rw", "randwrite"), 0);
	assert_int_equal(job_spec_validate(&s), 0);    /* lfsr, no map: implied */
	assert_int_equal(job_option_set(&s, "norandommap", "1"), 0);
	assert_int_equal(job_option_set(&s, "random_generator", "lfsr"), 0);
	assert_int_equal(job_spec_validate(&s), 0);
	assert_int_equal(job_option_set(&s, "random_generator", "tausworthe"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "requires random_generator=lfsr"));
	job_spec_defaults(&s);
	assert_int_equal(job_option_set(&s, "rw", "randwrite"), 0);
	assert_int_equal(job_option_set(&s, "sprandom", "1"), 0);
	assert_int_equal(job_option_set(&s, "norandommap", "0"), 0);
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "requires norandommap=1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validity_is_fios),
		cmocka_unit_test(test_plan_and_sequence),
		cmocka_unit_test(test_cache_defers_replays),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fio_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
