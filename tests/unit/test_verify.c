/* test_verify.c - data verification: CRC-32C against known vectors (both
 * the instruction and the table path), unit building, every verdict of a
 * unit read back, slices of units for short transfers, the written map
 * (sequence recovery across 2^32), the checks of a completed read (every
 * bad unit, or the first with verify_fatal; units due and planned reads),
 * the missing range of a short file, the failures kept in a result (bounded,
 * counts exact) and merged, and the verify option checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/stats.h"
#include "util/error.h"
#include "verify/crc32c.h"
#include "verify/verify.h"
#include "job/options.h"

#define UNIT 4096u
#define SEED 0x1234567890abcdefull

/* ---- crc32c ---------------------------------------------------------------- */

static void test_crc32c_vectors(void **state)
{
	unsigned char zeros[32] = { 0 }, ones[32], inc[32];
	const char *check = "123456789";

	(void)state;
	memset(ones, 0xff, sizeof(ones));
	for (int i = 0; i < 32; i++)
		inc[i] = (unsigned char)i;
	/* RFC 3720 B.4 and the classic check value */
	assert_int_equal(crc32c(0, check, 9), 0xE3069283u);
	assert_int_equal(crc32c_soft(0, check, 9), 0xE3069283u);
	assert_int_equal(crc32c(0, zeros, 32), 0x8A9136AAu);
	assert_int_equal(crc32c_soft(0, zeros, 32), 0x8A9136AAu);
	assert_int_equal(crc32c(0, ones, 32), 0x62A8AB43u);
	assert_int_equal(crc32c_soft(0, ones, 32), 0x62A8AB43u);
	assert_int_equal(crc32c(0, inc, 32), 0x46DD794Eu);
	assert_int_equal(crc32c(0, "", 0), 0);
}

static void test_crc32c_pieces_and_paths_agree(void **state)
{
	unsigned char data[1000];
	uint32_t whole;

	(void)state;
	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 37 + 11);
	whole = crc32c(0, data, sizeof(data));
	assert_int_equal(crc32c_soft(0, data, sizeof(data)), whole);
	/* any split, odd lengths and unaligned starts included */
	for (unsigned cut = 0; cut <= sizeof(data); cut += 77)
		assert_int_equal(crc32c(crc32c(0, data, cut), data + cut, sizeof(data) - cut), whole);
	assert_int_equal(crc32c_soft(crc32c_soft(0, data + 1, 13), data + 14, 3),
			 crc32c(0, data + 1, 16));
}

/* ---- units and verdicts ---------------------------------------------------- */

static unsigned char *unit_buf(uint64_t offset, uint64_t seed, uint64_t seq)
{
	unsigned char *b = malloc(UNIT);

	assert_non_null(b);
	verify_fill_unit(b, UNIT, offset, seed, seq);
	return b;
}

static enum verify_verdict check(const unsigned char *b, uint64_t offset,
				 uint64_t expected_seq, struct verify_failure *f)
{
	return verify_check_unit(b, UNIT, offset, SEED, expected_seq, f);
}

static void test_fill_then_check_ok(void **state)
{
	unsigned char *b = unit_buf(8192, SEED, 7);
	struct verify_header h;
	struct verify_failure f;

	(void)state;
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.magic, VERIFY_MAGIC);
	assert_int_equal(h.unit_len, UNIT);
	assert_int_equal(h.offset, 8192);
	assert_true(h.seed == SEED);
	assert_int_equal(h.seq, 7);
	assert_int_equal(h.header_crc, crc32c(0, b, 44));
	assert_int_equal(h.payload_crc, crc32c(0, b + 48, UNIT - 48));
	assert_int_equal(check(b, 8192, 7, &f), VERIFY_OK);
	assert_int_equal(check(b, 8192, 0, &f), VERIFY_OK);
	/* a newer write than the map knows of is still good data */
	assert_int_equal(check(b, 8192, 5, &f), VERIFY_OK);
	assert_int_equal(f.verdict, VERIFY_OK);
	free(b);
}

static void test_payload_depends_on_seed_offset_seq(void **state)
{
	unsigned char *a = unit_buf(0, SEED, 1), *b = unit_buf(0, SEED, 2);
	unsigned char *c = unit_buf(UNIT, SEED, 1), *d = unit_buf(0, SEED + 1, 1);

	(void)state;
	assert_memory_not_equal(a + 48, b + 48, 64);
	assert_memory_not_equal(a + 48, c + 48, 64);
	assert_memory_not_equal(a + 48, d + 48, 64);
	free(a);
	free(b);
	free(c);
	free(d);
}

static void test_never_written(void **state)
{
	unsigned char *b = calloc(1, UNIT);
	struct verify_failure f;

	(void)state;
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_NEVER_WRITTEN);
	assert_int_equal(f.offset, 4096);
	assert_int_equal(f.len, UNIT);
	assert_int_equal(f.expected_seq, 3);
	assert_int_equal(f.found_seq, 0);
	assert_int_equal(f.found_byte, -1);
	free(b);
}

static void test_header_corrupt(void **state)
{
	unsigned char *b = unit_buf(4096, SEED, 3);
	struct verify_failure f;

	(void)state;
	b[offsetof(struct verify_header, seq)] ^= 0x01;   /* magic intact */
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_HEADER_CORRUPT);
	assert_int_equal(f.found_seed, 0);   /* nothing trusted from a bad header */
	free(b);
}

static void test_stale(void **state)
{
	unsigned char *b = unit_buf(4096, SEED ^ 0xff, 3);
	struct verify_failure f;

	(void)state;
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_STALE);
	assert_true(f.found_seed == (SEED ^ 0xff));
	assert_int_equal(f.found_offset, 4096);
	free(b);
}

static void test_misdirected(void **state)
{
	unsigned char *b = unit_buf(12288, SEED, 3);
	unsigned char *other = malloc(2 * UNIT);
	struct verify_failure f;

	(void)state;
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_MISDIRECTED);
	assert_int_equal(f.found_offset, 12288);
	assert_int_equal(f.offset, 4096);
	assert_int_equal(f.found_seq, 3);
	/* a unit laid out with another length at the same offset */
	assert_non_null(other);
	verify_fill_unit(other, 2 * UNIT, 4096, SEED, 3);
	assert_int_equal(check(other, 4096, 3, &f), VERIFY_MISDIRECTED);
	free(other);
	free(b);
}

static void test_lost_write(void **state)
{
	unsigned char *b = unit_buf(4096, SEED, 3);
	struct verify_failure f;

	(void)state;
	assert_int_equal(check(b, 4096, 9, &f), VERIFY_LOST_WRITE);
	assert_int_equal(f.expected_seq, 9);
	assert_int_equal(f.found_seq, 3);
	free(b);
}

static void test_torn(void **state)
{
	unsigned char *b = unit_buf(4096, SEED, 3), *old = unit_buf(4096, SEED + 5, 1);
	struct verify_failure f;

	(void)state;
	/* the last three sectors still hold another run's data */
	memcpy(b + 1024 + 512, old + 1024 + 512, UNIT - 1536);
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_TORN);
	assert_int_equal(f.bad_offset, 4096 + 1536);
	assert_int_equal(f.found_seq, 3);
	/* a tail of zeros is torn too */
	memset(b + 2048, 0, UNIT - 2048);
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_TORN);
	assert_int_equal(f.bad_offset, 4096 + 1536);
	free(b);
	free(old);
}

static void test_corrupt(void **state)
{
	unsigned char *b = unit_buf(4096, SEED, 3), *old = unit_buf(4096, SEED + 5, 1);
	struct verify_failure f;
	unsigned char was;

	(void)state;
	was = b[2000];
	b[2000] ^= 0x40;
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, 4096 + 2000);
	assert_int_equal(f.expected_byte, was);
	assert_int_equal(f.found_byte, was ^ 0x40);
	b[2000] = was;
	/* a flip on a sector boundary of the last sector is not a torn write */
	b[3584] ^= 1;
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, 4096 + 3584);
	b[3584] ^= 1;
	/* other data in the middle but good data after it: not torn */
	memcpy(b + 1024, old + 1024, 512);
	assert_int_equal(check(b, 4096, 3, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, 4096 + 1024);
	free(b);
	free(old);
}

static void test_verdict_names(void **state)
{
	(void)state;
	for (int v = 0; v < VERIFY_VERDICTS; v++)
		assert_int_equal(verify_verdict_parse(verify_verdict_name(v)), v);
	assert_string_equal(verify_verdict_name(VERIFY_LOST_WRITE), "lost write");
	assert_string_equal(verify_verdict_name(VERIFY_NEVER_WRITTEN), "never written");
	assert_string_equal(verify_verdict_name(VERIFY_MISSING), "missing");
	assert_string_equal(verify_verdict_name(VERIFY_VERDICTS), "unknown");
	assert_int_equal(verify_verdict_parse("bogus"), -1);
	assert_int_equal(verify_verdict_parse(NULL), -1);
}

/* A short transfer's two parts give exactly the bytes of whole units. */
static void test_fill_range_slices(void **state)
{
	unsigned char *whole = malloc(3 * UNIT), *parts = malloc(3 * UNIT);
	uint64_t base = 1000000, cut = 4096 + 1234;

	(void)state;
	assert_non_null(whole);
	assert_non_null(parts);
	verify_fill_range(whole, base, 3 * UNIT, base, UNIT, SEED, 9);
	verify_fill_range(parts, base, cut, base, UNIT, SEED, 9);
	verify_fill_range(parts + cut, base + cut, 3 * UNIT - cut, base, UNIT, SEED, 9);
	assert_memory_equal(whole, parts, 3 * UNIT);
	/* a slice inside the header */
	verify_fill_range(parts + 10, base + 10, 20, base, UNIT, SEED, 9);
	assert_memory_equal(whole, parts, 3 * UNIT);
	for (int u = 0; u < 3; u++) {
		struct verify_failure f;

		assert_int_equal(verify_check_unit(whole + u * UNIT, UNIT, base + u * UNIT,
						   SEED, 9, &f), VERIFY_OK);
	}
	free(whole);
	free(parts);
}

/* ---- map, reads, results ---------------------------------------------------- */

static struct job_spec write_spec(void)
{
	struct job_spec s;

	job_spec_defaults(&s);
	s.rw = RW_RANDWRITE;
	s.verify = VERIFY_CRC32C;
	return s;
}

static void test_map_and_sequence_wrap(void **state)
{
	struct job_spec s = write_spec();
	struct verify_ctx v;

	(void)state;
	assert_int_equal(verify_ctx_init(&v, &s, SEED, 4096, 10 * UNIT + 100), 0);
	assert_non_null(v.map);
	assert_int_equal(v.nr_units, 10);
	assert_int_equal(verify_next_seq(&v), 1);
	assert_int_equal(verify_expected_seq(&v, 0), 0);
	verify_mark_written(&v, 4096 + UNIT, 2 * UNIT, 1);
	assert_int_equal(verify_expected_seq(&v, 0), 0);
	assert_int_equal(verify_expected_seq(&v, 1), 1);
	assert_int_equal(verify_expected_seq(&v, 2), 1);
	assert_int_equal(verify_expected_seq(&v, 3), 0);
	assert_int_equal(verify_expected_seq(&v, 99), 0);
	/* a partial write marks every unit it touches; nothing past the end */
	verify_mark_written(&v, 4096 + 9 * UNIT + 10, 2 * UNIT, 1);
	assert_int_equal(verify_expected_seq(&v, 9), 1);
	/* sequence numbers past 2^32: never 0 in the map, recovered whole */
	v.seq = 0xFFFFFFFFull;
	assert_true(verify_next_seq(&v) == 0x100000001ull);
	verify_mark_written(&v, 4096, UNIT, v.seq);
	assert_true(verify_expected_seq(&v, 0) == 0x100000001ull);
	v.seq += 5;
	assert_true(verify_expected_seq(&v, 0) == 0x100000001ull);
	/* unit 1, last written 2^32 writes ago, reads as the newest number
	 * with its low bits; verify_check_read accepts a header whose low
	 * 32 bits match the map */
	assert_true(verify_expected_seq(&v, 1) == 0x100000001ull);
	verify_ctx_free(&v);
	assert_null(v.map);
}

static void test_memory_bytes(void **state)
{
	struct job_spec s = write_spec();

	(void)state;
	assert_int_equal(verify_memory_bytes(&s, 1ull << 30), (1ull << 30) / 4096 * 4);
	s.verify_backlog = 100;
	assert_int_equal(verify_memory_bytes(&s, 1ull << 30), (1ull << 30) / 4096 * 4 + 1600);
	s.rw = RW_READ;
	s.verify_backlog = 0;
	assert_int_equal(verify_memory_bytes(&s, 1ull << 30), 0);
	s.verify = VERIFY_NONE;
	s.rw = RW_WRITE;
	assert_int_equal(verify_memory_bytes(&s, 1ull << 30), 0);
}

static void test_check_read_uses_map(void **state)
{
	struct job_spec s = write_spec();
	struct job_result r;
	struct verify_ctx v;
	unsigned char *buf = calloc(4, UNIT);
	uint64_t base = 1 << 20;

	(void)state;
	assert_non_null(buf);
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 8 * UNIT), 0);
	/* units 0 and 2 written by this run; 1 and 3 not (zeros: skipped) */
	verify_next_seq(&v);
	verify_fill_unit(buf, UNIT, base, SEED, 1);
	verify_mark_written(&v, base, UNIT, 1);
	verify_next_seq(&v);
	verify_fill_unit(buf + 2 * UNIT, UNIT, base + 2 * UNIT, SEED, 2);
	verify_mark_written(&v, base + 2 * UNIT, UNIT, 2);
	assert_int_equal(verify_check_read(&v, buf, base, 4 * UNIT, false, &r), 0);
	assert_int_equal(r.verify_checked, 2);
	assert_int_equal(r.verify_failed, 0);
	/* unit 2 written again with 3, but the drive kept 2 */
	verify_next_seq(&v);
	verify_mark_written(&v, base + 2 * UNIT, UNIT, 3);
	assert_int_equal(verify_check_read(&v, buf, base, 4 * UNIT, false, &r), 1);
	assert_int_equal(r.verify_failed, 1);
	assert_int_equal(r.nr_verify_failures, 1);
	assert_int_equal(r.verify_failures[0].verdict, VERIFY_LOST_WRITE);
	assert_int_equal(r.verify_failures[0].offset, base + 2 * UNIT);
	assert_int_equal(r.verify_failures[0].expected_seq, 3);
	assert_int_equal(r.verify_failures[0].found_seq, 2);
	assert_int_equal(r.verify_failures[0].units, 1);
	/* reported once: the failed unit is out of the map, a second read
	 * of it checks nothing */
	assert_int_equal(verify_expected_seq(&v, 2), 0);
	assert_int_equal(verify_check_read(&v, buf, base, 4 * UNIT, false, &r), 0);
	assert_int_equal(r.verify_failed, 1);
	/* 2^32 writes later the map's low bits still match unit 0's header */
	v.seq += 1ull << 32;
	r.verify_checked = 0;
	assert_int_equal(verify_check_read(&v, buf, base, UNIT, false, &r), 0);
	assert_int_equal(r.verify_checked, 1);
	/* a read that starts and ends mid-unit checks only whole units */
	r.verify_checked = 0;
	assert_int_equal(verify_check_read(&v, buf + 100, base + 100, 2 * UNIT, false, &r), 0);
	assert_int_equal(r.verify_checked, 0);
	verify_ctx_free(&v);

	/* without a map (a job that only reads) every unit is checked */
	s.rw = RW_READ;
	s.verify_seed_set = true;
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 8 * UNIT), 0);
	assert_null(v.map);
	r.verify_checked = 0;
	assert_int_equal(verify_check_read(&v, buf, base, 4 * UNIT, false, &r), 2);
	assert_int_equal(r.verify_checked, 4);
	assert_int_equal(r.verify_failures[1].verdict, VERIFY_NEVER_WRITTEN);
	assert_int_equal(r.verify_failures[1].offset, base + UNIT);
	assert_int_equal(r.verify_failures[2].verdict, VERIFY_NEVER_WRITTEN);
	assert_int_equal(r.verify_failures[2].offset, base + 3 * UNIT);
	verify_ctx_free(&v);
	job_result_free(&r);
	assert_null(r.verify_failures);
	free(buf);
}

static void test_failures_kept_and_merged(void **state)
{
	struct job_result a, b;
	struct verify_failure f = { .verdict = VERIFY_CORRUPT, .len = UNIT };

	(void)state;
	job_result_init(&a, NULL);
	job_result_init(&b, NULL);
	for (unsigned i = 0; i < VERIFY_FAILURES_KEPT + 5; i++) {
		f.offset = i;
		assert_int_equal(verify_result_add(&a, &f), 0);
	}
	assert_int_equal(a.verify_failed, VERIFY_FAILURES_KEPT + 5);
	assert_int_equal(a.nr_verify_failures, VERIFY_FAILURES_KEPT);
	assert_int_equal(a.verify_failures[999].offset, 999);
	f.offset = 77777;
	f.verdict = VERIFY_TORN;
	assert_int_equal(verify_result_add(&b, &f), 0);
	b.verify_checked = 10;
	a.verify_checked = 20;
	b.verify_units = 12;
	a.verify_units = 20;
	a.verify_stopped = true;
	/* merging: counts add, kept failures append up to the limit, a
	 * verify_fatal stop of one clone is the group's */
	assert_int_equal(job_result_merge(&b, &a), 0);
	assert_int_equal(b.verify_checked, 30);
	assert_int_equal(b.verify_units, 32);
	assert_true(b.verify_stopped);
	assert_int_equal(verify_unlisted(b.verify_failed, b.verify_failures,
					 b.nr_verify_failures), 6);
	assert_int_equal(b.verify_failed, VERIFY_FAILURES_KEPT + 6);
	assert_int_equal(b.nr_verify_failures, VERIFY_FAILURES_KEPT);
	assert_int_equal(b.verify_failures[0].offset, 77777);
	assert_int_equal(b.verify_failures[1].offset, 0);
	job_result_free(&a);
	job_result_free(&b);
	assert_null(a.verify_failures);
	assert_int_equal(a.nr_verify_failures, 0);
}


/* Four units of a read-only job's region (no map), the ones in bad[]
 * zeroed: never written. */
static unsigned char *region(uint64_t base, unsigned nr, const unsigned *bad, unsigned nr_bad)
{
	unsigned char *buf = malloc((size_t)nr * UNIT);

	assert_non_null(buf);
	for (unsigned u = 0; u < nr; u++)
		verify_fill_unit(buf + (size_t)u * UNIT, UNIT, base + u * UNIT, SEED, 1);
	for (unsigned i = 0; i < nr_bad; i++)
		memset(buf + (size_t)bad[i] * UNIT, 0, UNIT);
	return buf;
}

static struct job_spec read_spec(void)
{
	struct job_spec s;

	job_spec_defaults(&s);
	s.rw = RW_READ;
	s.verify = VERIFY_CRC32C;
	s.verify_seed_set = true;
	return s;
}

/* Every bad unit of a read is reported by default; verify_fatal stops at
 * the first and leaves the rest unchecked. */
static void test_check_read_all_or_fatal(void **state)
{
	const unsigned bad[] = { 1, 4, 6 };
	uint64_t base = 1 << 20;
	unsigned char *buf = region(base, 8, bad, 3);
	struct job_spec s = read_spec();
	struct job_result r;
	struct verify_ctx v;

	(void)state;
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 8 * UNIT), 0);
	assert_false(v.fatal);
	assert_int_equal(verify_check_read(&v, buf, base, 8 * UNIT, false, &r), 3);
	assert_int_equal(r.verify_checked, 8);
	assert_int_equal(r.verify_units, 8);   /* a workload read: counted as checked */
	assert_int_equal(r.verify_failed, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(r.verify_failures[i].offset, base + bad[i] * UNIT);
	verify_ctx_free(&v);
	job_result_free(&r);

	s.verify_fatal = true;
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 8 * UNIT), 0);
	assert_true(v.fatal);
	r.verify_units = 8;   /* a verify pass planned the whole region */
	assert_int_equal(verify_check_read(&v, buf, base, 8 * UNIT, true, &r), 1);
	assert_int_equal(r.verify_checked, 2);
	assert_int_equal(r.verify_units, 8);
	assert_int_equal(r.verify_failed, 1);
	assert_int_equal(r.nr_verify_failures, 1);
	assert_int_equal(r.verify_failures[0].offset, base + UNIT);
	verify_ctx_free(&v);
	job_result_free(&r);
	free(buf);
}

/* Units due: those this run wrote (all without a map); a planned read
 * takes off units whose failure was reported since it was planned. */
static void test_due_units_and_planned_reads(void **state)
{
	struct job_spec s = write_spec();
	struct job_result r;
	struct verify_ctx v;
	uint64_t base = 8 * UNIT;
	unsigned char *buf = region(base, 4, NULL, 0);

	(void)state;
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 4 * UNIT), 0);
	assert_int_equal(verify_due_units(&v, base, 4 * UNIT), 0);
	verify_next_seq(&v);
	verify_mark_written(&v, base, UNIT, 1);
	verify_mark_written(&v, base + 2 * UNIT, 2 * UNIT, 1);
	assert_int_equal(verify_due_units(&v, base, 4 * UNIT), 3);
	assert_int_equal(verify_due_units(&v, base + 2 * UNIT - 100, 2 * UNIT), 1);   /* whole units only */
	assert_int_equal(verify_due_units(&v, 0, base), 0);
	assert_int_equal(verify_due_units(&v, base + 3 * UNIT, 8 * UNIT), 1);
	memset(buf + 2 * UNIT, 0, UNIT);
	/* one read of the backlog planned unit 2 twice (written twice): its
	 * second check is taken off once the first reported it */
	r.verify_units = 4;
	assert_int_equal(verify_check_read(&v, buf + 2 * UNIT, base + 2 * UNIT, UNIT, true, &r), 1);
	assert_int_equal(verify_check_read(&v, buf + 2 * UNIT, base + 2 * UNIT, UNIT, true, &r), 0);
	assert_int_equal(r.verify_checked, 1);
	assert_int_equal(r.verify_units, 3);
	assert_int_equal(verify_due_units(&v, base, 4 * UNIT), 2);
	verify_ctx_free(&v);

	s = read_spec();
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 4 * UNIT + 100), 0);
	assert_int_equal(verify_due_units(&v, base, 8 * UNIT), 4);
	verify_ctx_free(&v);
	job_result_free(&r);
	free(buf);
}

/* A short file: the units wholly there are read, the rest is one failure
 * naming the byte range [end of file, end of region). */
static void test_missing_range(void **state)
{
	struct job_spec s = read_spec();
	struct job_result r;
	struct verify_ctx v;
	struct verify_failure f;
	uint64_t base = 1 << 20;

	(void)state;
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, base, 64 * UNIT), 0);
	assert_int_equal(verify_present_units(&v), 64);
	assert_false(verify_missing(&v, &f));
	verify_ctx_set_data_end(&v, base + 40 * UNIT + 100);   /* mid-unit */
	assert_int_equal(verify_present_units(&v), 40);
	assert_true(verify_missing(&v, &f));
	assert_int_equal(f.verdict, VERIFY_MISSING);
	assert_int_equal(f.offset, base + 40 * UNIT + 100);
	assert_int_equal(f.offset + f.len, base + 64 * UNIT);
	assert_int_equal(f.units, 24);
	assert_int_equal(f.expected_byte, -1);
	assert_int_equal(verify_result_add(&r, &f), 0);
	assert_int_equal(r.verify_failed, 24);
	assert_int_equal(verify_unlisted(r.verify_failed, r.verify_failures,
					 r.nr_verify_failures), 0);
	/* a file that ends before the region starts: all of it is missing;
	 * one longer than the region: nothing is */
	verify_ctx_set_data_end(&v, 1000);
	assert_int_equal(verify_present_units(&v), 0);
	assert_true(verify_missing(&v, &f));
	assert_int_equal(f.offset, base);
	assert_int_equal(f.len, 64 * UNIT);
	assert_int_equal(f.units, 64);
	verify_ctx_set_data_end(&v, UINT64_MAX);
	assert_false(verify_missing(&v, &f));
	verify_ctx_free(&v);
	job_result_free(&r);
}

/* A region where every unit is bad: the counts stay exact, the kept list
 * and its memory stop at VERIFY_FAILURES_KEPT. */
static void test_failures_bounded(void **state)
{
	struct job_spec s = read_spec();
	struct job_result r;
	struct verify_ctx v;
	unsigned char *zeros = calloc(64, UNIT);
	uint64_t units = 0;

	(void)state;
	assert_non_null(zeros);
	job_result_init(&r, &s);
	assert_int_equal(verify_ctx_init(&v, &s, SEED, 0, 1ull << 40), 0);
	for (uint64_t at = 0; at < 3 * VERIFY_FAILURES_KEPT * (uint64_t)UNIT; at += 64 * UNIT) {
		assert_int_equal(verify_check_read(&v, zeros, at, 64 * UNIT, false, &r), 64);
		units += 64;
	}
	assert_int_equal(r.verify_checked, units);
	assert_int_equal(r.verify_failed, units);
	assert_int_equal(r.nr_verify_failures, VERIFY_FAILURES_KEPT);
	assert_int_equal(r.verify_failures[VERIFY_FAILURES_KEPT - 1].offset,
			 (uint64_t)(VERIFY_FAILURES_KEPT - 1) * UNIT);
	assert_int_equal(verify_unlisted(r.verify_failed, r.verify_failures,
					 r.nr_verify_failures), units - VERIFY_FAILURES_KEPT);
	verify_ctx_free(&v);
	job_result_free(&r);
	free(zeros);
}

/* ---- options ---------------------------------------------------------------- */

static int spec_with(struct job_spec *s, const char *const *opts, unsigned n)
{
	job_spec_defaults(s);
	for (unsigned i = 0; i < n; i++) {
		char key[64];
		const char *eq = strchr(opts[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - opts[i]), opts[i]);
		if (job_option_set(s, key, eq + 1))
			return -1;
	}
	return job_spec_validate(s);
}

static void test_options(void **state)
{
	struct job_spec s;
	const char *good[] = { "rw=randwrite", "bssplit=4k/50:16k/50", "verify=crc32c",
			       "do_verify=0", "verify_backlog=16", "verify_seed=42" };
	const char *none[] = { "verify=none" }, *zero[] = { "verify=0" };
	const char *md5[] = { "verify=md4" };
	const char *odd[] = { "rw=write", "bssplit=4k/50:6k/50", "verify=crc32c" };
	const char *small[] = { "rw=write", "bs=32", "verify=crc32c" };
	const char *align[] = { "rw=randwrite", "bs=8k", "blockalign=4k", "verify=crc32c" };
	const char *null[] = { "rw=write", "ioengine=null", "verify=crc32c" };
	const char *reads[] = { "rw=randread", "verify=crc32c" };
	const char *reads_seed[] = { "rw=randread", "verify=crc32c", "verify_seed=0x10" };
	const char *interval[] = { "rw=write", "bs=16k", "verify=crc32c", "verify_interval=4k" };
	const char *bad_interval[] = { "rw=write", "bs=16k", "verify=crc32c", "verify_interval=3k" };
	const char *fatal[] = { "rw=write", "verify=crc32c", "verify_fatal=1" };
	const char *bad_fatal[] = { "rw=write", "verify=crc32c", "verify_fatal=maybe" };

	(void)state;
	assert_int_equal(spec_with(&s, good, 6), 0);
	assert_int_equal(s.verify, VERIFY_CRC32C);
	assert_false(s.do_verify);
	assert_int_equal(s.verify_backlog, 16);
	assert_true(s.verify_seed_set);
	assert_int_equal(s.verify_seed, 42);
	assert_int_equal(verify_unit(&s), 4096);
	assert_int_equal(spec_with(&s, none, 1), 0);
	assert_int_equal(s.verify, VERIFY_NONE);
	assert_int_equal(spec_with(&s, zero, 1), 0);
	assert_int_equal(s.verify, VERIFY_NONE);
	assert_int_equal(spec_with(&s, md5, 1), -1);
	assert_non_null(strstr(err_msg(), "option 'verify': verify=md4: unknown method (md5, crc64"));
	assert_int_equal(spec_with(&s, odd, 3), -1);
	assert_non_null(strstr(err_msg(), "'bssplit'"));
	assert_non_null(strstr(err_msg(), "6144"));
	assert_int_equal(spec_with(&s, small, 3), -1);
	assert_non_null(strstr(err_msg(), "minimum of 64"));
	assert_int_equal(spec_with(&s, align, 4), -1);
	assert_non_null(strstr(err_msg(), "'blockalign'"));
	assert_int_equal(spec_with(&s, null, 3), -1);
	assert_non_null(strstr(err_msg(), "null engine"));
	/* a seed for a job that only reads is the runner's check (an earlier
	 * job of the run may have written the data) */
	assert_int_equal(spec_with(&s, reads, 2), 0);
	assert_int_equal(spec_with(&s, reads_seed, 3), 0);
	assert_int_equal(spec_with(&s, interval, 4), 0);
	assert_int_equal(verify_unit(&s), 4096);
	assert_int_equal(spec_with(&s, bad_interval, 4), -1);
	assert_non_null(strstr(err_msg(), "not a multiple of the verify unit 3072"));
	/* verify_fatal: off by default (fio's), a bool */
	assert_int_equal(spec_with(&s, good, 6), 0);
	assert_false(s.verify_fatal);
	assert_int_equal(spec_with(&s, fatal, 3), 0);
	assert_true(s.verify_fatal);
	assert_int_equal(spec_with(&s, bad_fatal, 3), -1);
	assert_string_equal(err_msg(), "option 'verify_fatal': bad boolean 'maybe'");
}

static void test_verify_only_convert(void **state)
{
	struct job_spec s;
	const char *opts[] = { "rw=randwrite", "bssplit=16k/50:8k/50", "verify=crc32c",
			       "time_based=1", "runtime=5", "io_size=1g", "verify_backlog=4",
			       "verify_fatal=1" };

	(void)state;
	assert_int_equal(spec_with(&s, opts, 8), 0);
	assert_int_equal(verify_only_convert(&s), -1);
	assert_non_null(strstr(err_msg(), "--seed"));
	s.verify_seed = 5;
	s.verify_seed_set = true;
	assert_int_equal(verify_only_convert(&s), 0);
	assert_true(s.verify_only);
	assert_int_equal(s.rw, RW_READ);
	assert_int_equal(s.verify_interval, 8192);
	assert_int_equal(s.bs[DIR_READ], 8192);
	assert_int_equal(s.bssplit_nr[DIR_WRITE], 0);
	assert_false(s.time_based);
	assert_int_equal(s.io_size, 0);
	assert_int_equal(s.verify_backlog, 0);
	assert_true(s.verify_fatal);
	assert_false(job_spec_writes(&s));
	assert_int_equal(job_spec_validate(&s), 0);
}

/* The one-line failure of a result, as a suite step reports it. */
static void test_result_failure(void **state)
{
	struct job_spec spec;
	struct job_result r;
	struct verify_failure f = { .offset = 8192, .len = 4096, .verdict = VERIFY_TORN };

	(void)state;
	job_spec_defaults(&spec);
	job_result_init(&r, &spec);
	err_set("untouched");
	assert_int_equal(verify_result_failure(&r), 0);
	assert_string_equal(err_msg(), "untouched");

	r.error = -5;
	r.dir[DIR_WRITE].errors = 2;
	r.dir[DIR_WRITE].first_error = -5;
	r.dir[DIR_WRITE].first_error_offset = 40960;
	assert_int_equal(verify_result_failure(&r), -1);
	assert_string_equal(err_msg(), "I/O error: Input/output error (write at offset 40960)");

	r.verify_checked = 256;
	r.verify_units = 256;
	assert_int_equal(verify_result_add(&r, &f), 0);
	assert_int_equal(verify_result_failure(&r), -1);
	assert_string_equal(err_msg(), "verify failed: 1 bad, checked 256 of 256 units; the first torn at offset 8192");
	r.verify_checked = 3;
	r.verify_stopped = true;
	assert_int_equal(verify_result_failure(&r), -1);
	assert_string_equal(err_msg(), "verify failed: 1 bad, checked 3 of 256 units (verify_fatal=1 stopped at the first); the first torn at offset 8192");
	job_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_vectors),
		cmocka_unit_test(test_crc32c_pieces_and_paths_agree),
		cmocka_unit_test(test_fill_then_check_ok),
		cmocka_unit_test(test_payload_depends_on_seed_offset_seq),
		cmocka_unit_test(test_never_written),
		cmocka_unit_test(test_header_corrupt),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_misdirected),
		cmocka_unit_test(test_lost_write),
		cmocka_unit_test(test_torn),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_fill_range_slices),
		cmocka_unit_test(test_map_and_sequence_wrap),
		cmocka_unit_test(test_memory_bytes),
		cmocka_unit_test(test_check_read_uses_map),
		cmocka_unit_test(test_failures_kept_and_merged),
		cmocka_unit_test(test_check_read_all_or_fatal),
		cmocka_unit_test(test_due_units_and_planned_reads),
		cmocka_unit_test(test_missing_range),
		cmocka_unit_test(test_failures_bounded),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_verify_only_convert),
		cmocka_unit_test(test_result_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
