/* test_zbd.c - zonemode=zbd's write pointers (run/zbd.c) over a fake zone
 * table: sequential writes at the pointers and across zones, the error at
 * a full zone without resets, max_open_zones for random writes, finish of
 * a zone with less room than a write, reset of full zones and the
 * threshold/frequency rule, waiting for I/O in flight, and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "run/zbd.h"
#include "util/error.h"

#define ZS (1u << 20)   /* 1 MiB zones */
#define NZ 8u

struct fake {
	unsigned resets, finishes;
	uint64_t last;
};

static int fake_reset(void *ctx, const struct blkzone *z)
{
	struct fake *f = ctx;

	f->resets++;
	f->last = z->start;
	return 0;
}

static int fake_finish(void *ctx, const struct blkzone *z)
{
	struct fake *f = ctx;

	f->finishes++;
	f->last = z->start;
	return 0;
}

static struct blkzone zones[NZ];
static struct fake fake;

/* NZ empty zones of ZS bytes from 0, capacity cap */
static void table(uint64_t cap)
{
	memset(&fake, 0, sizeof(fake));
	for (unsigned i = 0; i < NZ; i++)
		zones[i] = (struct blkzone){ .start = (uint64_t)i * ZS, .len = ZS, .cap = cap,
					    .wp = (uint64_t)i * ZS, .cond = ZONE_COND_EMPTY };
}

static int setup(struct zbd *b, struct zbd_params p)
{
	struct zbd_ops ops = { fake_reset, fake_finish, &fake };

	return zbd_init(b, "j", zones, NZ, 0, (uint64_t)NZ * ZS, &p, &ops);
}

static unsigned nr_cond(unsigned cond)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NZ; i++)
		n += zones[i].cond == cond;
	return n;
}

static void test_sequential(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS);
	zones[0].wp = 4096;   /* partly written: the write starts at its pointer */
	zones[0].cond = ZONE_COND_CLOSED;
	assert_int_equal(setup(&b, (struct zbd_params){ .reset_threshold = 1 }), 0);
	assert_int_equal(zbd_write(&b, 0, 4096, false, &off), 0);
	assert_int_equal(off, 4096);
	assert_int_equal(zones[0].cond, ZONE_COND_IMP_OPEN);
	/* fill zone 0, then the next write opens zone 1 */
	for (uint64_t k = 2; k < ZS / 4096; k++)
		assert_int_equal(zbd_write(&b, 0, 4096, false, &off), 0);
	assert_int_equal(off, ZS - 4096);
	assert_int_equal(zones[0].cond, ZONE_COND_FULL);
	assert_int_equal(zbd_write(&b, 0, 4096, false, &off), 0);
	assert_int_equal(off, ZS);
	assert_int_equal(zones[1].wp, ZS + 4096);
	assert_int_equal(b.written, ZS + 4096);
	zbd_free(&b);
}

static void test_starts_after_full_zones(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS);
	zones[0].wp = ZS;
	zones[0].cond = ZONE_COND_FULL;
	assert_int_equal(setup(&b, (struct zbd_params){ .reset_threshold = 1 }), 0);
	assert_int_equal(zbd_write(&b, 0, 4096, false, &off), 0);
	assert_int_equal(off, ZS);
	zbd_free(&b);
}

static void test_full_zone_is_an_error(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS);
	zones[1].wp = zones[1].start + ZS;
	zones[1].cond = ZONE_COND_FULL;
	assert_int_equal(setup(&b, (struct zbd_params){ .reset_threshold = 1 }), 0);
	for (uint64_t k = 0; k < ZS / 65536; k++)
		assert_int_equal(zbd_write(&b, 0, 65536, false, &off), 0);
	assert_int_equal(zbd_write(&b, 0, 65536, false, &off), -1);
	assert_non_null(strstr(err_msg(), "zone 1 at offset 1048576 is full"));
	assert_non_null(strstr(err_msg(), "zone_reset_frequency"));
	assert_int_equal(fake.resets, 0);
	zbd_free(&b);
}

static void test_wrap_needs_reset(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS);
	/* one zone's range: written full, the sequential write wraps to it */
	struct zbd_ops ops = { fake_reset, fake_finish, &fake };
	struct zbd_params p = { .reset_threshold = 1 };

	assert_int_equal(zbd_init(&b, "j", zones, 1, 0, ZS, &p, &ops), 0);
	assert_int_equal(zbd_write(&b, 0, ZS, false, &off), 0);
	assert_int_equal(zbd_write(&b, 0, ZS, false, &off), -1);
	zbd_free(&b);
	/* with zone_reset_frequency the full zone is reset, after the I/O in
	 * flight is done */
	table(ZS);
	p.reset_frequency = 1;
	assert_int_equal(zbd_init(&b, "j", zones, 1, 0, ZS, &p, &ops), 0);
	assert_int_equal(zbd_write(&b, 0, ZS, false, &off), 0);
	assert_int_equal(zbd_write(&b, 0, ZS, true, &off), 1);
	assert_int_equal(fake.resets, 0);
	assert_int_equal(zbd_write(&b, 0, ZS, false, &off), 0);
	assert_int_equal(fake.resets, 1);
	assert_int_equal(off, 0);
	zbd_free(&b);
}

static void test_max_open_random(void **state)
{
	struct zbd b;
	uint64_t off, seed = 12345;

	(void)state;
	table(ZS);
	assert_int_equal(setup(&b, (struct zbd_params){ .random = true, .max_open = 2,
						     .reset_threshold = 1 }), 0);
	for (unsigned k = 0; k < 300; k++) {
		uint64_t pick;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		pick = (seed >> 20) % ((uint64_t)NZ * ZS) / 4096 * 4096;
		assert_int_equal(zbd_write(&b, pick, 4096, false, &off), 0);
		assert_true(nr_cond(ZONE_COND_IMP_OPEN) <= 2);
		/* every write lands at a pointer: inside a zone, below its wp */
		assert_true(off + 4096 == zones[off / ZS].wp);
	}
	assert_int_equal(nr_cond(ZONE_COND_IMP_OPEN), 2);
	assert_int_equal(b.nr_open, 2);
	zbd_free(&b);
}

static void test_finish_short_zone(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS - 4096);   /* capacity below the size: 3 writes of 320 KiB fit */
	assert_int_equal(setup(&b, (struct zbd_params){ .reset_threshold = 1 }), 0);
	for (int k = 0; k < 3; k++)
		assert_int_equal(zbd_write(&b, 0, 327680, false, &off), 0);
	assert_int_equal(zbd_write(&b, 0, 327680, true, &off), 1);   /* waits */
	assert_int_equal(zbd_write(&b, 0, 327680, false, &off), 0);
	assert_int_equal(fake.finishes, 1);
	assert_int_equal(fake.last, 0);
	assert_int_equal(zones[0].cond, ZONE_COND_FULL);
	assert_int_equal(off, ZS);
	zbd_free(&b);
}

static void test_reset_threshold(void **state)
{
	struct zbd b;
	uint64_t off;

	(void)state;
	table(ZS);
	/* half the range written (4 of 8 zones full), threshold 0.5, every
	 * second write resets the zone it goes to */
	for (unsigned i = 0; i < 4; i++) {
		zones[i].wp = zones[i].start + ZS;
		zones[i].cond = ZONE_COND_FULL;
	}
	zones[4].wp = zones[4].start + 8192;
	zones[4].cond = ZONE_COND_IMP_OPEN;
	assert_int_equal(setup(&b, (struct zbd_params){ .random = true, .reset_threshold = 0.5,
						     .reset_frequency = 0.5 }), 0);
	assert_int_equal(zbd_write(&b, 4 * ZS, 4096, false, &off), 0);
	assert_int_equal(fake.resets, 0);
	assert_int_equal(off, 4 * ZS + 8192);
	assert_int_equal(zbd_write(&b, 4 * ZS, 4096, false, &off), 0);
	assert_int_equal(fake.resets, 1);
	assert_int_equal(off, 4 * ZS);   /* reset, then written from its start */
	/* below the threshold now? 4 MiB + 4 KiB of 8 MiB: still above */
	assert_int_equal(zbd_write(&b, 2 * ZS, 4096, false, &off), 0);
	assert_int_equal(zbd_write(&b, 2 * ZS, 4096, false, &off), 0);
	assert_int_equal(fake.resets, 2);
	assert_int_equal(fake.last, 2 * ZS);
	zbd_free(&b);
	/* far below the threshold nothing is reset */
	table(ZS);
	assert_int_equal(setup(&b, (struct zbd_params){ .random = true, .reset_threshold = 0.5,
						     .reset_frequency = 1 }), 0);
	for (int k = 0; k < 50; k++)
		assert_int_equal(zbd_write(&b, 0, 4096, false, &off), 0);
	assert_int_equal(fake.resets, 0);
	zbd_free(&b);
}

static void test_bad_input(void **state)
{
	struct zbd b;
	struct zbd_ops ops = { fake_reset, fake_finish, &fake };
	struct zbd_params p = { .reset_threshold = 1 };
	uint64_t off;

	(void)state;
	table(ZS);
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS - 4096, &p, &ops), -1);
	assert_non_null(strstr(err_msg(), "zone boundaries"));
	p.max_open = 20;
	p.dev_max_open = 14;
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS, &p, &ops), -1);
	assert_non_null(strstr(err_msg(), "option 'max_open_zones': 20 is more than the device's limit of 14"));
	zbd_free(&b);
	p.max_open = 1;
	zones[2].cond = ZONE_COND_IMP_OPEN;
	zones[2].wp += 4096;
	zones[5].cond = ZONE_COND_EXP_OPEN;
	zones[5].wp += 4096;
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS, &p, &ops), -1);
	assert_non_null(strstr(err_msg(), "2 zones of the job's range are open already"));
	zbd_free(&b);
	/* a sequential write that needs a zone beyond the open limit */
	p.max_open = 2;
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS, &p, &ops), 0);
	assert_int_equal(zbd_write(&b, 0, 4096, false, &off), -1);
	assert_non_null(strstr(err_msg(), "2 zones are open and zone 0"));
	zbd_free(&b);
	table(ZS);
	zones[3].conventional = true;
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS, &p, &ops), -1);
	assert_non_null(strstr(err_msg(), "conventional"));
	zbd_free(&b);
	table(ZS);
	p.max_open = 0;
	assert_int_equal(zbd_init(&b, "j", zones, NZ, 0, NZ * (uint64_t)ZS, &p, &ops), 0);
	assert_int_equal(zbd_write(&b, 0, 2 * (uint64_t)ZS, false, &off), -1);
	assert_non_null(strstr(err_msg(), "larger than a zone's capacity"));
	zbd_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_starts_after_full_zones),
		cmocka_unit_test(test_full_zone_is_an_error),
		cmocka_unit_test(test_wrap_needs_reset),
		cmocka_unit_test(test_max_open_random),
		cmocka_unit_test(test_finish_short_zone),
		cmocka_unit_test(test_reset_threshold),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
