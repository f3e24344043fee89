/* test_random.c - the PRNG and seeds (random.h), the offset generators and
 * the block-size picker (offsets.h): determinism, uniformity, permutation
 * coverage, the shape of each skewed distribution, and every error path. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/error.h"
#include "job/offsets.h"
#include "job/random.h"

static struct job_spec spec;

/* The fields these modules read, at fio's defaults; no dependency on the
 * option parser. */
static void reset_spec(void)
{
	memset(&spec, 0, sizeof(spec));
	strcpy(spec.name, "job");
	spec.rw = RW_RANDREAD;
	spec.bs[DIR_READ] = spec.bs[DIR_WRITE] = 4096;
	spec.randrepeat = true;
	spec.distribution.kind = DIST_RANDOM;
}

static void assert_err_contains(const char *needle)
{
	if (!strstr(err_msg(), needle))
		fail_msg("error '%s' does not mention '%s'", err_msg(), needle);
}

/* ---- rng ---------------------------------------------------------------- */

static void test_rng_deterministic(void **state)
{
	(void)state;
	struct rng a, b, c;

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	int differs = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);
		assert_int_equal(x, rng_next(&b));
		differs += x != rng_next(&c);
	}
	assert_true(differs > 990);

	/* seed 0 must still give a live generator */
	rng_seed(&a, 0);
	assert_false(a.s[0] == 0 && a.s[1] == 0 && a.s[2] == 0 && a.s[3] == 0);
	assert_true(rng_next(&a) != rng_next(&a));
}

static void test_rng_unit_range(void **state)
{
	(void)state;
	struct rng r;
	double sum = 0, lowest = 1, highest = 0;
	const int draws = 1000000;

	rng_seed(&r, 7);
	for (int i = 0; i < draws; i++) {
		double u = rng_unit(&r);
		assert_true(u >= 0 && u < 1);
		sum += u;
		lowest = u < lowest ? u : lowest;
		highest = u > highest ? u : highest;
	}
	assert_true(fabs(sum / draws - 0.5) < 0.002);
	assert_true(lowest < 1e-5 && highest > 1 - 1e-5);
}

/* Chi-square of rng_below(n) over n buckets: its mean is n - 1 and its
 * standard deviation sqrt(2(n - 1)); 6 deviations is a loose bound. */
static void check_below_uniform(uint64_t n, int draws)
{
	struct rng r;
	uint64_t *counts = calloc(n, sizeof(*counts));
	double expected = (double)draws / (double)n, chi2 = 0;

	assert_non_null(counts);
	rng_seed(&r, 1234 + n);
	for (int i = 0; i < draws; i++) {
		uint64_t v = rng_below(&r, n);
		assert_true(v < n);
		counts[v]++;
	}
	for (uint64_t i = 0; i < n; i++)
		chi2 += ((double)counts[i] - expected) * ((double)counts[i] - expected) / expected;
	free(counts);
	double df = (double)n - 1;
	if (chi2 > df + 6 * sqrt(2 * df))
		fail_msg("rng_below(%llu): chi-square %.1f for %.0f degrees of freedom",
			 (unsigned long long)n, chi2, df);
}

static void test_rng_below_uniform(void **state)
{
	(void)state;
	check_below_uniform(2, 200000);
	check_below_uniform(10, 1000000);
	check_below_uniform(1000, 1000000);
	check_below_uniform(65537, 2000000);

	/* n = 1 is always 0; a huge n that is not a power of two spreads over
	 * its whole range (thirds of 3 * 2^62 get a third each) */
	struct rng r;
	rng_seed(&r, 9);
	assert_int_equal(rng_below(&r, 1), 0);
	uint64_t big = 3ULL << 62, third = 1ULL << 62;
	int thirds[3] = { 0, 0, 0 };
	for (int i = 0; i < 300000; i++) {
		uint64_t v = rng_below(&r, big);
		assert_true(v < big);
		thirds[v / third]++;
	}
	for (int i = 0; i < 3; i++)
		assert_true(abs(thirds[i] - 100000) < 1500);
}

/* ---- job_seed ------------------------------------------------------------ */

static void test_job_seed(void **state)
{
	(void)state;
	reset_spec();
	uint64_t repeatable = job_seed(&spec, 0, RNG_STREAM_OFFSETS);

	assert_int_equal(repeatable, job_seed(&spec, 0, RNG_STREAM_OFFSETS));
	assert_int_not_equal(repeatable, job_seed(&spec, 1, RNG_STREAM_OFFSETS));
	assert_int_not_equal(repeatable, job_seed(&spec, 0, RNG_STREAM_BS));
	assert_int_not_equal(job_seed(&spec, 0, RNG_STREAM_BS),
			     job_seed(&spec, 0, RNG_STREAM_RWMIX));

	/* a different job in the same file gets its own sequence */
	strcpy(spec.name, "other");
	assert_int_not_equal(repeatable, job_seed(&spec, 0, RNG_STREAM_OFFSETS));
	strcpy(spec.name, "job");

	/* randseed=N: deterministic, and N matters */
	spec.randseed_set = true;
	spec.randseed = 5;
	uint64_t seeded = job_seed(&spec, 0, RNG_STREAM_OFFSETS);
	assert_int_equal(seeded, job_seed(&spec, 0, RNG_STREAM_OFFSETS));
	assert_int_not_equal(seeded, repeatable);
	assert_int_not_equal(seeded, job_seed(&spec, 1, RNG_STREAM_OFFSETS));
	spec.randseed = 6;
	assert_int_not_equal(seeded, job_seed(&spec, 0, RNG_STREAM_OFFSETS));
	/* randseed wins over randrepeat=0 */
	spec.randrepeat = false;
	spec.randseed = 5;
	assert_int_equal(seeded, job_seed(&spec, 0, RNG_STREAM_OFFSETS));

	/* randrepeat=0 without randseed: fresh every time */
	spec.randseed_set = false;
	uint64_t fresh = job_seed(&spec, 0, RNG_STREAM_OFFSETS);
	assert_int_not_equal(fresh, job_seed(&spec, 0, RNG_STREAM_OFFSETS));
	assert_int_not_equal(fresh, repeatable);
}

/* ---- uniform and permutation --------------------------------------------- */

static void test_offsets_deterministic(void **state)
{
	(void)state;
	struct offset_gen a, b, c;

	reset_spec();
	for (int map = 0; map < 2; map++) {
		spec.norandommap = map == 0;
		assert_int_equal(offset_gen_init(&a, &spec, 100000, 11), 0);
		assert_int_equal(offset_gen_init(&b, &spec, 100000, 11), 0);
		assert_int_equal(offset_gen_init(&c, &spec, 100000, 12), 0);
		int differs = 0;
		for (int i = 0; i < 10000; i++) {
			uint64_t x = offset_gen_next(&a);
			assert_int_equal(x, offset_gen_next(&b));
			differs += x != offset_gen_next(&c);
		}
		assert_true(differs > 9900);
	}
}

static void test_uniform_repeats(void **state)
{
	(void)state;
	struct offset_gen g;
	const uint64_t n = 1000;
	unsigned char seen[1000] = { 0 };
	unsigned distinct = 0;

	reset_spec();
	spec.norandommap = true;
	spec.random_generator = RANDGEN_TAUSWORTHE64;
	assert_int_equal(offset_gen_init(&g, &spec, n, 3), 0);
	assert_int_equal(g.kind, OFFSET_UNIFORM);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = offset_gen_next(&g);
		assert_true(v < n);
		distinct += !seen[v];
		seen[v] = 1;
	}
	/* independent draws: about n (1 - 1/e) = 632 distinct, not n */
	assert_true(distinct > 590 && distinct < 675);
}

/* Chi-square of consecutive pairs (a, b) of one pass over a grid x grid
 * table of (a * grid / n, b * grid / n), and over the low 4 bits of a and
 * b: structure left by too weak a shuffle shows up in one or the other. */
static void check_serial_pairs(const uint64_t *order, uint64_t n, unsigned grid)
{
	double *cells = calloc((size_t)grid * grid, sizeof(*cells));
	double low_cells[16][16] = { { 0 } };
	double pairs = (double)(n - 1), chi2 = 0, low_chi2 = 0;

	assert_non_null(cells);
	for (uint64_t i = 1; i < n; i++) {
		cells[order[i - 1] * grid / n * grid + order[i] * grid / n]++;
		low_cells[order[i - 1] & 15][order[i] & 15]++;
	}
	double expected = pairs / grid / grid, low_expected = pairs / 256;
	for (unsigned c = 0; c < grid * grid; c++)
		chi2 += (cells[c] - expected) * (cells[c] - expected) / expected;
	for (int a = 0; a < 16; a++)
		for (int b = 0; b < 16; b++)
			low_chi2 += (low_cells[a][b] - low_expected) *
				    (low_cells[a][b] - low_expected) / low_expected;
	free(cells);
	double df = (double)grid * grid - 1;
	if (chi2 > df + 6 * sqrt(2 * df) || low_chi2 > 255 + 6 * sqrt(2 * 255))
		fail_msg("n=%llu: consecutive blocks correlate (chi-square %.0f for %.0f, "
			 "low bits %.0f for 255)", (unsigned long long)n, chi2, df, low_chi2);
}

/* Each block exactly once per pass, a new order each pass, and the order
 * is not close to sequential. */
static void check_permutation(uint64_t n, enum random_generator generator, bool norandommap)
{
	struct offset_gen g;
	unsigned char *seen = calloc(n, 1);
	uint64_t *first_pass = calloc(n, sizeof(*first_pass));
	uint64_t same_as_first = 0, ascending_steps = 0;

	assert_non_null(seen);
	assert_non_null(first_pass);
	reset_spec();
	spec.random_generator = generator;
	spec.norandommap = norandommap;
	assert_int_equal(offset_gen_init(&g, &spec, n, 77 + n), 0);
	assert_int_equal(g.kind, OFFSET_PERMUTATION);
	for (int pass = 0; pass < 3; pass++) {
		uint64_t previous = UINT64_MAX;

		memset(seen, 0, n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = offset_gen_next(&g);
			if (v >= n || seen[v])
				fail_msg("n=%llu pass %d step %llu: block %llu %s",
					 (unsigned long long)n, pass, (unsigned long long)i,
					 (unsigned long long)v, v >= n ? "out of range" : "repeated");
			seen[v] = 1;
			if (pass == 0)
				first_pass[i] = v;
			else if (pass == 1)
				same_as_first += first_pass[i] == v;
			ascending_steps += previous != UINT64_MAX && v == previous + 1;
			previous = v;
		}
	}
	if (n >= 1000) {
		/* a random order has about 1 ascending step in n, and agrees
		 * with another pass at about 1 position */
		assert_true(ascending_steps < 3 * n / 100 + 5);
		assert_true(same_as_first < n / 100 + 5);
		check_serial_pairs(first_pass, n, n >= 100000 ? 32 : 4);
	}
	free(seen);
	free(first_pass);
}

static void test_permutation_coverage(void **state)
{
	(void)state;
	const uint64_t sizes[] = { 1, 2, 3, 1000, (1ULL << 20) + 7 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_permutation(sizes[i], RANDGEN_TAUSWORTHE, false);
	/* huge ranges: values stay in range and do not repeat early */
	const uint64_t huge[] = { UINT64_MAX, (1ULL << 40) + 3, 0xffffffff00000001ULL };
	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		struct offset_gen g;
		uint64_t values[1000];

		reset_spec();
		assert_int_equal(offset_gen_init(&g, &spec, huge[i], 8), 0);
		for (int j = 0; j < 1000; j++) {
			values[j] = offset_gen_next(&g);
			assert_true(values[j] < huge[i]);
			for (int k = 0; k < j; k++)
				assert_true(values[k] != values[j]);
		}
		assert_true(offset_gen_scatter(&g, huge[i] - 1) < huge[i]);
	}
	/* lfsr is a permutation even with norandommap */
	check_permutation(1000, RANDGEN_LFSR, true);
	check_permutation(4096, RANDGEN_LFSR, false);
}

static void test_permutation_pass_orders_differ_small(void **state)
{
	(void)state;
	struct offset_gen g;
	int orders_seen = 0;
	unsigned seen_mask = 0;

	/* n = 3 has 6 orders; 60 passes must show more than one */
	reset_spec();
	assert_int_equal(offset_gen_init(&g, &spec, 3, 5), 0);
	for (int pass = 0; pass < 60; pass++) {
		unsigned code = 0;
		for (int i = 0; i < 3; i++)
			code = code * 3 + (unsigned)offset_gen_next(&g);
		if (!(seen_mask & (1u << (code % 32)))) {
			seen_mask |= 1u << (code % 32);
			orders_seen++;
		}
	}
	assert_true(orders_seen >= 3);
	assert_int_equal(g.passes, 59);
}

/* ---- skewed distributions ------------------------------------------------ */

static void test_scatter_is_bijection(void **state)
{
	(void)state;
	struct offset_gen g;
	const uint64_t n = 100003;
	unsigned char *seen = calloc(n, 1);
	uint64_t adjacent = 0;

	assert_non_null(seen);
	reset_spec();
	spec.distribution.kind = DIST_ZIPF;
	spec.distribution.param = 1.1;
	assert_int_equal(offset_gen_init(&g, &spec, n, 1), 0);
	for (uint64_t rank = 0; rank < n; rank++) {
		uint64_t block = offset_gen_scatter(&g, rank);
		assert_true(block < n);
		assert_false(seen[block]);
		seen[block] = 1;
		if (rank > 0 && (block == offset_gen_scatter(&g, rank - 1) + 1))
			adjacent++;
	}
	assert_true(adjacent < n / 100);
	free(seen);

	/* fixed: a generator with another seed scatters the same way */
	struct offset_gen other;
	assert_int_equal(offset_gen_init(&other, &spec, n, 999), 0);
	for (uint64_t rank = 0; rank < 100; rank++)
		assert_int_equal(offset_gen_scatter(&g, rank), offset_gen_scatter(&other, rank));
}

static uint32_t *count_draws(struct offset_gen *g, uint64_t n, int draws)
{
	uint32_t *counts = calloc(n, sizeof(*counts));

	assert_non_null(counts);
	for (int i = 0; i < draws; i++) {
		uint64_t v = offset_gen_next(g);
		assert_true(v < n);
		counts[v]++;
	}
	return counts;
}

static void test_zipf_top_frequency(void **state)
{
	(void)state;
	struct offset_gen g;
	const uint64_t n = 10000;
	const int draws = 1000000;
	const double theta = 1.2;
	double harmonic = 0;

	reset_spec();
	spec.distribution.kind = DIST_ZIPF;
	spec.distribution.param = theta;
	assert_int_equal(offset_gen_init(&g, &spec, n, 21), 0);
	uint32_t *counts = count_draws(&g, n, draws);

	for (uint64_t k = 1; k <= n; k++)
		harmonic += pow((double)k, -theta);
	uint64_t hottest = 0;
	for (uint64_t i = 1; i < n; i++)
		if (counts[i] > counts[hottest])
			hottest = i;
	assert_int_equal(hottest, offset_gen_scatter(&g, 0));
	double observed = (double)counts[hottest] / draws, expected = 1 / harmonic;
	if (fabs(observed / expected - 1) > 0.05)
		fail_msg("zipf top share %.4f, expected %.4f", observed, expected);
	/* the ten hottest ranks each within 5 binomial deviations of k^-theta / H */
	for (uint64_t rank = 0; rank < 10; rank++) {
		double p = pow((double)rank + 1, -theta) / harmonic;
		double count = counts[offset_gen_scatter(&g, rank)];
		if (fabs(count - p * draws) > 5 * sqrt(p * (1 - p) * draws))
			fail_msg("zipf rank %llu: %.0f hits, expected %.0f",
				 (unsigned long long)rank, count, p * draws);
	}
	free(counts);

	/* theta = 1 (the harmonic case) works too */
	spec.distribution.param = 1.0;
	assert_int_equal(offset_gen_init(&g, &spec, 1000, 2), 0);
	counts = count_draws(&g, 1000, 200000);
	harmonic = 0;
	for (int k = 1; k <= 1000; k++)
		harmonic += 1.0 / k;
	observed = (double)counts[offset_gen_scatter(&g, 0)] / 200000;
	assert_true(fabs(observed * harmonic - 1) < 0.05);
	free(counts);
}

static int compare_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void test_pareto_80_20(void **state)
{
	(void)state;
	struct offset_gen g;
	const uint64_t n = 10000;
	const int draws = 1000000;
	uint64_t low_ranks = 0;

	reset_spec();
	spec.distribution.kind = DIST_PARETO;
	spec.distribution.param = 0.2;
	assert_int_equal(offset_gen_init(&g, &spec, n, 31), 0);
	uint32_t *counts = count_draws(&g, n, draws);

	for (uint64_t rank = 0; rank < n / 5; rank++)
		low_ranks += counts[offset_gen_scatter(&g, rank)];
	qsort(counts, n, sizeof(*counts), compare_desc);
	uint64_t hottest_fifth = 0;
	for (uint64_t i = 0; i < n / 5; i++)
		hottest_fifth += counts[i];
	double share = (double)hottest_fifth / draws;
	if (fabs(share - 0.8) > 0.02)
		fail_msg("pareto:0.2 hottest 20%% got %.3f of hits", share);
	assert_true(fabs((double)low_ranks / draws - 0.8) < 0.02);
	free(counts);

	/* h = 0.5 is uniform */
	spec.distribution.param = 0.5;
	assert_int_equal(offset_gen_init(&g, &spec, n, 32), 0);
	counts = count_draws(&g, n, draws);
	low_ranks = 0;
	for (uint64_t rank = 0; rank < n / 2; rank++)
		low_ranks += counts[offset_gen_scatter(&g, rank)];
	assert_true(fabs((double)low_ranks / draws - 0.5) < 0.01);
	free(counts);
}

static void test_normal_concentrates(void **state)
{
	(void)state;
	struct offset_gen g;
	const uint64_t n = 100000;
	const int draws = 1000000;
	const double sigma_pct = 10;
	uint32_t *rank_of = malloc(n * sizeof(*rank_of));
	uint64_t within_one = 0, within_two = 0;

	assert_non_null(rank_of);
	reset_spec();
	spec.distribution.kind = DIST_NORMAL;
	spec.distribution.param = sigma_pct;
	assert_int_equal(offset_gen_init(&g, &spec, n, 41), 0);
	for (uint64_t rank = 0; rank < n; rank++)
		rank_of[offset_gen_scatter(&g, rank)] = (uint32_t)rank;

	double centre = (double)n / 2, sigma = sigma_pct / 100 * (double)n;
	for (int i = 0; i < draws; i++) {
		uint64_t v = offset_gen_next(&g);
		assert_true(v < n);
		double distance = fabs((double)rank_of[v] + 0.5 - centre);
		within_one += distance <= sigma;
		within_two += distance <= 2 * sigma;
	}
	double one = (double)within_one / draws, two = (double)within_two / draws;
	if (fabs(one - 0.6827) > 0.03 || fabs(two - 0.9545) > 0.03)
		fail_msg("normal: %.4f within 1 sigma, %.4f within 2", one, two);
	free(rank_of);

	/* a sigma far wider than the range folds back in: all in range */
	spec.distribution.param = 500;
	assert_int_equal(offset_gen_init(&g, &spec, 1000, 42), 0);
	for (int i = 0; i < 100000; i++)
		assert_true(offset_gen_next(&g) < 1000);
}

static void set_zone(unsigned i, double access, double range, uint64_t size)
{
	spec.distribution.zones[i].access_pct = access;
	spec.distribution.zones[i].range_pct = range;
	spec.distribution.zones[i].size = size;
	if (i + 1 > spec.distribution.nr_zones)
		spec.distribution.nr_zones = i + 1;
}

/* draws fall only in [start, end) of each zone, with the given shares */
static void check_zone_shares(struct offset_gen *g, unsigned nr, const uint64_t *start,
			      const uint64_t *end, const double *share)
{
	const int draws = 1000000;
	int counts[ZONES_MAX] = { 0 };

	for (int i = 0; i < draws; i++) {
		uint64_t v = offset_gen_next(g);
		unsigned z = 0;
		while (z < nr && !(v >= start[z] && v < end[z]))
			z++;
		if (z == nr)
			fail_msg("block %llu outside every zone", (unsigned long long)v);
		counts[z]++;
	}
	for (unsigned z = 0; z < nr; z++)
		if (fabs((double)counts[z] / draws - share[z] / 100) > 0.01)
			fail_msg("zone %u: %.4f of hits, expected %.4f", z,
				 (double)counts[z] / draws, share[z] / 100);
}

static void test_zoned_shares(void **state)
{
	(void)state;
	struct offset_gen g;

	reset_spec();
	spec.distribution.kind = DIST_ZONED;
	set_zone(0, 60, 10, 0);
	set_zone(1, 30, 20, 0);
	set_zone(2, 8, 30, 0);
	set_zone(3, 2, 40, 0);
	assert_int_equal(offset_gen_init(&g, &spec, 10000, 51), 0);
	const uint64_t start[] = { 0, 1000, 3000, 6000 }, end[] = { 1000, 3000, 6000, 10000 };
	const double share[] = { 60, 30, 8, 2 };
	check_zone_shares(&g, 4, start, end, share);

	/* fractional shares and a zone with no accesses */
	reset_spec();
	spec.distribution.kind = DIST_ZONED;
	set_zone(0, 0, 50, 0);
	set_zone(1, 97.5, 25, 0);
	set_zone(2, 2.5, 25, 0);
	assert_int_equal(offset_gen_init(&g, &spec, 4000, 52), 0);
	const uint64_t start2[] = { 0, 2000, 3000 }, end2[] = { 2000, 3000, 4000 };
	const double share2[] = { 0, 97.5, 2.5 };
	check_zone_shares(&g, 3, start2, end2, share2);

	/* a range too small for a zone's share still gives it a block */
	assert_int_equal(offset_gen_init(&g, &spec, 2, 53), 0);
	for (int i = 0; i < 1000; i++)
		assert_true(offset_gen_next(&g) < 2);
}

static void test_zoned_abs_shares(void **state)
{
	(void)state;
	struct offset_gen g;

	reset_spec();
	spec.distribution.kind = DIST_ZONED_ABS;
	/* 4 KiB blocks, 1000 of them: zones 1 MiB, 1 MiB + 2 KiB, 512 KiB */
	set_zone(0, 50, 0, 1 << 20);
	set_zone(1, 30, 0, (1 << 20) + 2048);
	set_zone(2, 20, 0, 512 << 10);
	assert_int_equal(offset_gen_init(&g, &spec, 1000, 61), 0);
	const uint64_t start[] = { 0, 256, 512 }, end[] = { 256, 512, 640 };
	const double share[] = { 50, 30, 20 };
	check_zone_shares(&g, 3, start, end, share);

	/* with an explicit unit (8 KiB) the same sizes cover fewer blocks */
	assert_int_equal(offset_gen_init_unit(&g, &spec, 1000, 8192, 62), 0);
	const uint64_t start8[] = { 0, 128, 256 }, end8[] = { 128, 256, 320 };
	check_zone_shares(&g, 3, start8, end8, share);

	/* zones exactly filling the range are fine */
	reset_spec();
	spec.distribution.kind = DIST_ZONED_ABS;
	set_zone(0, 90, 0, 4096);
	set_zone(1, 10, 0, 3 * 4096);
	assert_int_equal(offset_gen_init(&g, &spec, 4, 63), 0);
	const uint64_t start4[] = { 0, 1 }, end4[] = { 1, 4 };
	const double share4[] = { 90, 10 };
	check_zone_shares(&g, 2, start4, end4, share4);
}

static void test_offset_block_bytes(void **state)
{
	(void)state;
	reset_spec();
	assert_int_equal(offset_block_bytes(&spec), 4096);
	spec.bs[DIR_READ] = 65536;
	spec.bs[DIR_WRITE] = 512;            /* unused by randread */
	assert_int_equal(offset_block_bytes(&spec), 65536);
	spec.rw = RW_RANDRW;
	assert_int_equal(offset_block_bytes(&spec), 512);
	spec.rw = RW_RANDWRITE;
	spec.blockalign[DIR_WRITE] = 4096;
	assert_int_equal(offset_block_bytes(&spec), 4096);
	spec.rw = RW_RANDREAD;
	spec.bssplit_nr[DIR_READ] = 2;
	spec.bssplit[DIR_READ][0] = (struct bssplit_entry){ 131072, 50 };
	spec.bssplit[DIR_READ][1] = (struct bssplit_entry){ 16384, 50 };
	assert_int_equal(offset_block_bytes(&spec), 16384);
	spec.blockalign[DIR_READ] = 8192;
	assert_int_equal(offset_block_bytes(&spec), 8192);
}

/* ---- errors -------------------------------------------------------------- */

static void expect_init_error(uint64_t nr_blocks, const char *needle)
{
	struct offset_gen g;

	err_clear();
	assert_int_equal(offset_gen_init(&g, &spec, nr_blocks, 1), -1);
	assert_err_contains(needle);
}

static void test_offset_errors(void **state)
{
	(void)state;
	reset_spec();
	expect_init_error(0, "no whole block");

	spec.distribution.kind = DIST_ZIPF;
	spec.distribution.param = 0;
	expect_init_error(100, "zipf theta");
	spec.distribution.param = -1;
	expect_init_error(100, "zipf theta");
	spec.distribution.param = NAN;
	expect_init_error(100, "zipf theta");

	spec.distribution.kind = DIST_PARETO;
	spec.distribution.param = 0;
	expect_init_error(100, "pareto h");
	spec.distribution.param = 1;
	expect_init_error(100, "pareto h");
	spec.distribution.param = 1.5;
	expect_init_error(100, "pareto h");

	spec.distribution.kind = DIST_NORMAL;
	spec.distribution.param = 0;
	expect_init_error(100, "normal sigma");
	spec.distribution.param = INFINITY;
	expect_init_error(100, "normal sigma");

	spec.distribution.kind = (enum distribution_kind)99;
	expect_init_error(100, "unknown kind");

	reset_spec();
	spec.distribution.kind = DIST_ZONED;
	expect_init_error(100, "needs 1 to");
	set_zone(0, 60, 50, 0);
	set_zone(1, 30, 50, 0);
	expect_init_error(100, "access shares add up to 90");
	set_zone(1, 40, 40, 0);
	expect_init_error(100, "range shares add up to 90");
	set_zone(0, 60, 60, 0);
	set_zone(1, -40, 40, 0);
	expect_init_error(100, "access -40");
	set_zone(0, 60, 110, 0);
	set_zone(1, 40, -10, 0);
	expect_init_error(100, "range 110");
	set_zone(0, 100, 0, 0);
	set_zone(1, 0, 100, 0);
	expect_init_error(100, "accesses but no range");
	spec.distribution.nr_zones = ZONES_MAX + 1;
	expect_init_error(100, "needs 1 to");

	reset_spec();
	spec.distribution.kind = DIST_ZONED_ABS;
	set_zone(0, 50, 0, 3 * 4096);
	set_zone(1, 50, 0, 2 * 4096);
	expect_init_error(4, "past the range");
	set_zone(1, 50, 0, 4096 + 1);      /* one byte into a block beyond */
	expect_init_error(4, "past the range");
	set_zone(1, 50, 0, 1024);
	expect_init_error(4, "smaller than a block");
	set_zone(1, 50, 0, UINT64_MAX);
	expect_init_error(4, "overflow");
	set_zone(1, 40, 0, 4096);
	expect_init_error(4, "access shares add up to 90");

	struct offset_gen g;
	set_zone(1, 50, 0, 4096);
	err_clear();
	assert_int_equal(offset_gen_init_unit(&g, &spec, 4, 0, 1), -1);
	assert_err_contains("needs the block size");
	assert_int_equal(offset_gen_init_unit(&g, &spec, 4, 4096, 1), 0);
}

/* ---- block sizes --------------------------------------------------------- */

static void test_bs_picker_weights(void **state)
{
	(void)state;
	const struct bssplit_entry split[] = {
		{ 8192, 29.7 }, { 1 << 20, 0.3 }, { 4096, 60 }, { 512, 0 }, { 65536, 10 },
	};
	const int nr = sizeof(split) / sizeof(split[0]);
	const int draws = 10000000;
	int counts[5] = { 0 };
	struct bs_picker p;
	struct rng r;

	assert_int_equal(bs_picker_init(&p, split, nr, 4096), 0);
	rng_seed(&r, 71);
	for (int i = 0; i < draws; i++) {
		uint64_t bs = bs_picker_next(&p, &r);
		int j = 0;
		while (j < nr && split[j].bs != bs)
			j++;
		assert_true(j < nr);
		counts[j]++;
	}
	assert_int_equal(counts[3], 0);
	for (int j = 0; j < nr; j++) {
		double expected = split[j].pct / 100 * draws;
		double deviation = sqrt(expected * (1 - split[j].pct / 100));
		double error = fabs(counts[j] - expected);
		/* 5 standard deviations: under 0.5% of the share for all but
		 * the 0.3% entry, whose bound is still under 3% of itself */
		if (error > 5 * deviation + 1 ||
		    (split[j].pct >= 10 && error > 0.005 * expected) ||
		    (split[j].pct > 0 && error > 0.03 * expected))
			fail_msg("bs %llu: %d draws, expected %.0f",
				 (unsigned long long)split[j].bs, counts[j], expected);
	}
}

static void test_bs_picker_fixed(void **state)
{
	(void)state;
	struct bs_picker p;
	struct rng r, untouched;

	assert_int_equal(bs_picker_init(&p, NULL, 0, 16384), 0);
	rng_seed(&r, 3);
	untouched = r;
	for (int i = 0; i < 100; i++)
		assert_int_equal(bs_picker_next(&p, &r), 16384);
	assert_memory_equal(&r, &untouched, sizeof(r));

	/* one entry with all of the share behaves the same */
	const struct bssplit_entry one[] = { { 512, 0 }, { 8192, 100 } };
	assert_int_equal(bs_picker_init(&p, one, 2, 4096), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(bs_picker_next(&p, &r), 8192);
}

static void test_bs_picker_errors(void **state)
{
	(void)state;
	struct bs_picker p;
	struct bssplit_entry split[BSSPLIT_MAX + 1];

	for (int i = 0; i <= BSSPLIT_MAX; i++)
		split[i] = (struct bssplit_entry){ 4096, 100.0 / (BSSPLIT_MAX + 1) };

	err_clear();
	assert_int_equal(bs_picker_init(&p, NULL, 0, 0), -1);
	assert_err_contains("must be > 0");
	assert_int_equal(bs_picker_init(&p, split, BSSPLIT_MAX + 1, 4096), -1);
	assert_err_contains("at most 64");

	split[0] = (struct bssplit_entry){ 4096, 50 };
	split[1] = (struct bssplit_entry){ 0, 50 };
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), -1);
	assert_err_contains("entry 2 has block size 0");
	split[1] = (struct bssplit_entry){ 8192, -5 };
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), -1);
	assert_err_contains("-5%");
	split[1] = (struct bssplit_entry){ 8192, NAN };
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), -1);
	assert_err_contains("not in 0..100");
	split[1] = (struct bssplit_entry){ 8192, 40 };
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), -1);
	assert_err_contains("add up to 90%");
	split[1] = (struct bssplit_entry){ 8192, 50.5 };
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), -1);
	assert_err_contains("add up to 100.5%");
	split[1] = (struct bssplit_entry){ 8192, 50.005 };  /* within the slack */
	assert_int_equal(bs_picker_init(&p, split, 2, 4096), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_deterministic),
		cmocka_unit_test(test_rng_unit_range),
		cmocka_unit_test(test_rng_below_uniform),
		cmocka_unit_test(test_job_seed),
		cmocka_unit_test(test_offsets_deterministic),
		cmocka_unit_test(test_uniform_repeats),
		cmocka_unit_test(test_permutation_coverage),
		cmocka_unit_test(test_permutation_pass_orders_differ_small),
		cmocka_unit_test(test_scatter_is_bijection),
		cmocka_unit_test(test_zipf_top_frequency),
		cmocka_unit_test(test_pareto_80_20),
		cmocka_unit_test(test_normal_concentrates),
		cmocka_unit_test(test_zoned_shares),
		cmocka_unit_test(test_zoned_abs_shares),
		cmocka_unit_test(test_offset_block_bytes),
		cmocka_unit_test(test_offset_errors),
		cmocka_unit_test(test_bs_picker_weights),
		cmocka_unit_test(test_bs_picker_fixed),
		cmocka_unit_test(test_bs_picker_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
