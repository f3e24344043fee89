/* test_sprandom.c - the sprandom region plan (tiling, invalid shares, total
 * bytes = about one physical write, distinct overwrite offsets, bad
 * parameters) and, on the greedy-GC FTL simulator in helpers/ftl_sim.c,
 * host bytes needed to reach steady write amplification: sprandom against
 * plain random fill (and sequential fill + random). The simulation figures
 * are printed for docs/preconditioning.md. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers/ftl_sim.h"
#include "suite/sprandom.h"
#include "util/error.h"

#define KIB 1024ULL
#define GIB (1024ULL * 1024 * 1024)

static void check_tiling(const struct sprandom_plan *p, uint64_t capacity)
{
	uint64_t next = 0, overwrites = 0;

	assert_non_null(p->regions);
	for (unsigned r = 0; r < p->nr; r++) {
		const struct sprandom_region *g = &p->regions[r];

		assert_int_equal(g->offset, next);
		assert_int_equal(g->offset % p->iu, 0);
		assert_int_equal(g->length % p->iu, 0);
		assert_true(g->length >= p->iu);
		/* equal up to one IU */
		assert_true(g->length - p->regions[p->nr - 1].length <= p->iu);
		assert_int_equal(g->overwrite_bytes % p->iu, 0);
		assert_true(g->overwrite_bytes < g->length);
		assert_true(g->invalid_fraction >= 0 && g->invalid_fraction < 1);
		/* the share is exactly what the overwrites invalidate */
		assert_true(fabs(g->invalid_fraction * (double)g->length -
				 (double)g->overwrite_bytes) < 1e-6 * (double)p->iu);
		next += g->length;
		overwrites += g->overwrite_bytes;
	}
	assert_int_equal(next, capacity);
	assert_int_equal(p->total_bytes, capacity + overwrites);
}

static void test_plan_shape(void **state)
{
	(void)state;
	const double ops[] = { 0.07, 0.28, 0.50 };

	for (unsigned i = 0; i < 3; i++) {
		double op = ops[i];
		uint64_t capacity = 8 * GIB + 3 * 16 * KIB; /* not a multiple of nr */
		struct sprandom_plan p;

		assert_int_equal(sprandom_plan(capacity, op, 64, 16 * KIB, &p), 0);
		assert_int_equal(p.nr, 64);
		assert_int_equal(p.iu, 16 * KIB);
		assert_true(fabs(p.waf - (0.5 / op + 0.7)) < 1e-12);
		check_tiling(&p, capacity);

		/* One physical write: capacity x (1 + op), to the nearest IU. */
		double physical = (double)capacity * (1 + op);
		assert_true(fabs((double)p.total_bytes - physical) <= 16 * KIB);

		/* Oldest region most invalid, falling towards the newest; the
		 * largest share is about the greedy victim's invalid share
		 * 1 / WAF, the smallest well below it. */
		double victim_invalid = 1 / p.waf;
		for (unsigned r = 1; r < p.nr; r++) {
			double slack = (double)p.iu / (double)p.regions[r].length;
			assert_true(p.regions[r].invalid_fraction <=
				    p.regions[r - 1].invalid_fraction + slack);
		}
		assert_true(p.regions[0].invalid_fraction > 0.9 * victim_invalid);
		assert_true(p.regions[0].invalid_fraction < 1.15 * victim_invalid);
		assert_true(p.regions[p.nr - 1].invalid_fraction <
			    0.6 * p.regions[0].invalid_fraction);
		sprandom_plan_free(&p);
		assert_null(p.regions);
		sprandom_plan_free(&p); /* twice is harmless */
	}
	sprandom_plan_free(NULL);
}

static void test_plan_single_region(void **state)
{
	(void)state;
	struct sprandom_plan p;

	assert_int_equal(sprandom_plan(1000 * 4096ULL, 0.20, 1, 4096, &p), 0);
	check_tiling(&p, 1000 * 4096ULL);
	assert_int_equal(p.regions[0].overwrite_bytes, 200 * 4096ULL);
	assert_int_equal(p.total_bytes, 1200 * 4096ULL);
	sprandom_plan_free(&p);
}

static void test_plan_one_block_regions(void **state)
{
	(void)state;
	/* Each region keeps its one block valid: nothing to overwrite. */
	struct sprandom_plan p;

	assert_int_equal(sprandom_plan(8 * 4096ULL, 0.5, 8, 4096, &p), 0);
	check_tiling(&p, 8 * 4096ULL);
	assert_int_equal(p.total_bytes, 8 * 4096ULL);
	sprandom_plan_free(&p);
}

static void test_overwrite_offsets_distinct(void **state)
{
	(void)state;
	struct sprandom_plan p;
	uint64_t iu = 4096, capacity = 3001 * iu;

	assert_int_equal(sprandom_plan(capacity, 0.07, 7, iu, &p), 0);
	uint8_t *hit = calloc(capacity / iu, 1);
	assert_non_null(hit);
	uint64_t count = 0;
	for (unsigned r = 0; r < p.nr; r++) {
		const struct sprandom_region *g = &p.regions[r];
		uint64_t n = g->overwrite_bytes / iu;

		for (uint64_t k = 0; k < n; k++) {
			uint64_t off = sprandom_overwrite_offset(g, iu, k, 42);

			assert_int_equal(off % iu, 0);
			assert_true(off >= g->offset && off < g->offset + g->length);
			assert_int_equal(hit[off / iu], 0);
			hit[off / iu] = 1;
			count++;
		}
		/* out of range: the region start */
		assert_int_equal(sprandom_overwrite_offset(g, iu, n, 42), g->offset);
	}
	assert_int_equal(count * iu, p.total_bytes - capacity);
	/* another seed, another order */
	const struct sprandom_region *g = &p.regions[0];
	unsigned same = 0;
	for (uint64_t k = 0; k < 20; k++)
		same += sprandom_overwrite_offset(g, iu, k, 1) ==
			sprandom_overwrite_offset(g, iu, k, 2);
	assert_true(same < 5);
	assert_int_equal(sprandom_overwrite_offset(NULL, iu, 0, 1), 0);
	assert_int_equal(sprandom_overwrite_offset(g, 0, 0, 1), 0);
	free(hit);
	sprandom_plan_free(&p);
}

static void test_bad_parameters(void **state)
{
	(void)state;
	struct sprandom_plan p;
	uint64_t cap = GIB, iu = 4096;

	assert_int_equal(sprandom_plan(cap, 0, 16, iu, &p), -1);
	assert_non_null(strstr(err_msg(), "over-provisioning"));
	assert_int_equal(sprandom_plan(cap, -0.1, 16, iu, &p), -1);
	assert_int_equal(sprandom_plan(cap, 1, 16, iu, &p), -1);
	assert_int_equal(sprandom_plan(cap, 1.5, 16, iu, &p), -1);
	assert_int_equal(sprandom_plan(cap, NAN, 16, iu, &p), -1);
	assert_int_equal(sprandom_plan(cap, 0.07, 0, iu, &p), -1);
	assert_non_null(strstr(err_msg(), "regions"));
	assert_int_equal(sprandom_plan(cap, 0.07, 16, 0, &p), -1);
	assert_non_null(strstr(err_msg(), "indirection unit"));
	assert_int_equal(sprandom_plan(cap + 512, 0.07, 16, iu, &p), -1);
	assert_non_null(strstr(err_msg(), "not a multiple"));
	assert_int_equal(sprandom_plan(15 * iu, 0.07, 16, iu, &p), -1);
	assert_non_null(strstr(err_msg(), "smaller than 16 regions"));
	assert_int_equal(sprandom_plan(0, 0.07, 16, iu, &p), -1);
	assert_int_equal(sprandom_plan(cap, 0.07, 16, iu, NULL), -1);
}

static void test_model_waf(void **state)
{
	(void)state;
	assert_true(fabs(sprandom_model_waf(0.07) - 7.842857142857143) < 1e-9);
	assert_true(fabs(sprandom_model_waf(0.28) - 2.4857142857142858) < 1e-9);
	assert_true(fabs(sprandom_model_waf(0.5) - 1.7) < 1e-12);
	assert_true(isinf(sprandom_model_waf(0)));
	assert_true(isinf(sprandom_model_waf(-1)));
}

/* ---- greedy-GC simulation ---- */

#define SIM_PAGES 65536u
#define SIM_PAGES_PER_BLOCK 256u
#define SIM_IU 4096u
#define SIM_REGIONS 64u
#define WINDOWS_PER_CAPACITY 8u
#define RANDOM_CAPACITIES 16u
#define SETTLE 0.05 /* steady: every later window within 5% of the reference */

/* Random writes for `capacities` capacities; WAF of each window. */
static void random_windows(struct ftl_sim *s, unsigned capacities, double *waf)
{
	uint32_t window = SIM_PAGES / WINDOWS_PER_CAPACITY;

	for (unsigned w = 0; w < capacities * WINDOWS_PER_CAPACITY; w++) {
		uint64_t host = s->host_writes, nand = s->nand_writes;

		for (uint32_t i = 0; i < window; i++)
			ftl_sim_write(s, ftl_sim_random_page(s));
		waf[w] = (double)(s->nand_writes - nand) / (double)(s->host_writes - host);
	}
}

/* Windows until steady: the first window from which every window stays
 * within SETTLE of the reference, counted to its end. */
static unsigned windows_to_steady(const double *waf, unsigned n, double ref)
{
	unsigned first = n;

	while (first > 0 && fabs(waf[first - 1] - ref) <= SETTLE * ref)
		first--;
	return first + 1;
}

static double mean_of(const double *v, unsigned from, unsigned to)
{
	double sum = 0;

	for (unsigned i = from; i < to; i++)
		sum += v[i];
	return sum / (to - from);
}

struct figures {
	double random_caps, seq_random_caps, sprandom_caps;
	double steady_waf;
};

static void simulate(double op, struct figures *f)
{
	unsigned n = RANDOM_CAPACITIES * WINDOWS_PER_CAPACITY;
	double *waf = calloc(n, sizeof(*waf));
	struct ftl_sim s;

	assert_non_null(waf);

	/* Plain random fill from an empty drive; its last quarter gives the
	 * reference steady WAF. */
	assert_int_equal(ftl_sim_init(&s, SIM_PAGES, op, SIM_PAGES_PER_BLOCK, 1), 0);
	random_windows(&s, RANDOM_CAPACITIES, waf);
	f->steady_waf = mean_of(waf, n - n / 4, n);
	f->random_caps = (double)windows_to_steady(waf, n, f->steady_waf) /
			 WINDOWS_PER_CAPACITY;
	ftl_sim_free(&s);

	/* Sequential fill, then random. */
	assert_int_equal(ftl_sim_init(&s, SIM_PAGES, op, SIM_PAGES_PER_BLOCK, 2), 0);
	for (uint32_t lpn = 0; lpn < SIM_PAGES; lpn++)
		ftl_sim_write(&s, lpn);
	random_windows(&s, RANDOM_CAPACITIES / 2, waf);
	f->seq_random_caps = 1.0 + (double)windows_to_steady(waf, n / 2, f->steady_waf) /
				       WINDOWS_PER_CAPACITY;
	ftl_sim_free(&s);

	/* sprandom: each region sequentially, then its distinct overwrites. */
	struct sprandom_plan p;
	uint64_t capacity = (uint64_t)SIM_PAGES * SIM_IU;
	assert_int_equal(sprandom_plan(capacity, op, SIM_REGIONS, SIM_IU, &p), 0);
	assert_int_equal(ftl_sim_init(&s, SIM_PAGES, op, SIM_PAGES_PER_BLOCK, 3), 0);
	for (unsigned r = 0; r < p.nr; r++) {
		const struct sprandom_region *g = &p.regions[r];

		for (uint64_t off = g->offset; off < g->offset + g->length; off += SIM_IU)
			ftl_sim_write(&s, (uint32_t)(off / SIM_IU));
		for (uint64_t k = 0; k < g->overwrite_bytes / SIM_IU; k++)
			ftl_sim_write(&s, (uint32_t)(sprandom_overwrite_offset(g, SIM_IU, k, 7) /
						     SIM_IU));
	}
	assert_int_equal(s.host_writes * SIM_IU, p.total_bytes);
	random_windows(&s, RANDOM_CAPACITIES / 2, waf);
	f->sprandom_caps = (double)p.total_bytes / (double)capacity +
			   (double)windows_to_steady(waf, n / 2, f->steady_waf) /
			   WINDOWS_PER_CAPACITY;
	ftl_sim_free(&s);
	sprandom_plan_free(&p);
	free(waf);
}

static void test_simulated_steady_state(void **state)
{
	(void)state;
	const double ops[] = { 0.07, 0.28 };

	printf("# greedy-GC FTL simulation: %u pages of 4 KiB, %u pages per "
	       "erase block, %u sprandom regions;\n# capacities written until "
	       "every later WAF window (1/%u capacity) is within %.0f%% of steady\n",
	       SIM_PAGES, SIM_PAGES_PER_BLOCK, SIM_REGIONS, WINDOWS_PER_CAPACITY,
	       SETTLE * 100);
	printf("# %-5s %-10s %-10s %-12s %-14s %-10s\n", "op", "model WAF",
	       "sim WAF", "random fill", "seq + random", "sprandom");
	for (unsigned i = 0; i < 2; i++) {
		struct figures f;
		double model = sprandom_model_waf(ops[i]);

		simulate(ops[i], &f);
		printf("# %-5.2f %-10.2f %-10.2f %-12.3f %-14.3f %-10.3f\n", ops[i],
		       model, f.steady_waf, f.random_caps, f.seq_random_caps,
		       f.sprandom_caps);
		/* plausibility of the model against the simulator */
		assert_true(fabs(f.steady_waf - model) <= 0.20 * model);
		/* the point of sprandom */
		assert_true(f.sprandom_caps < f.random_caps);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_shape),
		cmocka_unit_test(test_plan_single_region),
		cmocka_unit_test(test_plan_one_block_regions),
		cmocka_unit_test(test_overwrite_offsets_distinct),
		cmocka_unit_test(test_bad_parameters),
		cmocka_unit_test(test_model_waf),
		cmocka_unit_test(test_simulated_steady_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
