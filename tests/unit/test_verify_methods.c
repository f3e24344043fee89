/* test_verify_methods.c - verify units in every method's format: each
 * method's unit checks clean and names a flipped payload byte (corrupt, at
 * its offset) and a flipped header byte; the header names its method (a
 * crc32c job reads an md5 unit); the verdicts with a header (stale,
 * misdirected, lost write, torn) for another method than crc32c, and what
 * verify_header_seed=0 and verify_write_sequence=0 turn off; verify_pattern
 * payloads (with %o the unit's offset) with and without a header, and what
 * a headerless pattern can tell (corrupt, misdirected); verify_offset's
 * swapped header; the two dump images; fio's pattern syntax. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"
#include "verify/digest.h"
#include "verify/verify.h"
#include "job/options.h"
#include "job/pattern.h"

#define UNIT 4096u
#define SEED 0x5eedull

/* A spec with these options, and its format. */
static void format_with(struct job_spec *s, struct verify_format *f, const char *const *opts,
			unsigned n)
{
	job_spec_defaults(s);
	for (unsigned i = 0; i < n; i++) {
		char key[64], *eq;

		snprintf(key, sizeof(key), "%s", opts[i]);
		eq = strchr(key, '=');
		*eq = '\0';
		if (job_option_set(s, key, eq + 1))
			fail_msg("%s: %s", opts[i], err_msg());
	}
	verify_format_of(s, f);
}

static enum verify_verdict check(const struct verify_format *f, unsigned char *b,
				 uint64_t offset, uint64_t seed, uint64_t expected,
				 struct verify_failure *out)
{
	return verify_check_unit_fmt(f, b, UNIT, offset, seed, expected, out);
}

static void test_every_method_checks_and_finds_a_flip(void **state)
{
	static const char *const methods[] = {
		"crc32c", "md5", "crc64", "crc32", "crc16", "crc7", "sha1", "sha256",
		"sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash", "meta",
	};
	unsigned char *b = malloc(UNIT);
	struct verify_failure f;

	(void)state;
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		char opt[32];
		const char *opts[] = { opt };
		struct job_spec s;
		struct verify_format fmt;

		snprintf(opt, sizeof(opt), "verify=%s", methods[i]);
		format_with(&s, &fmt, opts, 1);
		verify_fill_unit_fmt(&fmt, b, UNIT, 8192, SEED, 3);
		if (check(&fmt, b, 8192, SEED, 3, &f) != VERIFY_OK)
			fail_msg("%s: a clean unit fails: %s", methods[i],
				 verify_verdict_name(f.verdict));
		b[1000] ^= 0x20;
		assert_int_equal(check(&fmt, b, 8192, SEED, 3, &f), VERIFY_CORRUPT);
		assert_int_equal(f.bad_offset, 8192 + 1000);
		assert_int_equal(f.found_byte ^ f.expected_byte, 0x20);
		b[1000] ^= 0x20;
		b[20] ^= 1;    /* the offset field: the header's crc catches it */
		assert_int_equal(check(&fmt, b, 8192, SEED, 3, &f), VERIFY_HEADER_CORRUPT);
		b[20] ^= 1;
		if (fmt.digest_len && strcmp(methods[i], "crc32c")) {
			b[VERIFY_HEADER_BYTES] ^= 1;   /* the digest itself */
			assert_int_equal(check(&fmt, b, 8192, SEED, 3, &f), VERIFY_CORRUPT);
			assert_int_equal(f.found_byte, -1);
			b[VERIFY_HEADER_BYTES] ^= 1;
		}
	}
	free(b);
}

static void test_header_layout_names_the_method(void **state)
{
	const char *opts[] = { "verify=sha256" };
	unsigned char b[UNIT];
	struct verify_header h;
	struct verify_format fmt;
	struct verify_failure f;
	struct job_spec s;
	unsigned char d[DIGEST_MAX];

	(void)state;
	format_with(&s, &fmt, opts, 1);
	assert_int_equal(fmt.header_len, 48 + 32);
	verify_fill_unit_fmt(&fmt, b, UNIT, 0, SEED, 1);
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.magic, VERIFY_MAGIC);
	assert_int_equal(h.version, VERIFY_HEADER_VERSION_METHOD);
	assert_int_equal(h.reserved, VERIFY_SHA256);
	assert_int_equal(h.header_len, 80);
	/* the digest after the 48 bytes is the payload's sha256 */
	assert_int_equal(digest_compute(VERIFY_SHA256, b + 80, UNIT - 80, d), 0);
	assert_memory_equal(d, b + 48, 32);
	/* a crc32c job reads it with the method its header names */
	assert_int_equal(verify_check_unit(b, UNIT, 0, SEED, 1, &f), VERIFY_OK);
	assert_int_equal(check(&verify_format_default, b, 0, SEED, 1, &f), VERIFY_OK);
	b[UNIT - 1] ^= 4;
	assert_int_equal(verify_check_unit(b, UNIT, 0, SEED, 1, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, UNIT - 1);
	/* crc32c keeps the first version of the header */
	verify_fill_unit(b, UNIT, 0, SEED, 1);
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.version, VERIFY_HEADER_VERSION);
	assert_int_equal(h.reserved, 0);
	assert_int_equal(verify_header_len(VERIFY_CRC7), 56);
	assert_int_equal(verify_header_len(VERIFY_SHA512), 112);
	assert_int_equal(verify_header_len(VERIFY_META), 48);
	assert_int_equal(verify_header_len(VERIFY_PATTERN), 0);
}

static void test_header_verdicts_and_their_switches(void **state)
{
	const char *md5[] = { "verify=md5" };
	const char *loose[] = { "verify=md5", "verify_header_seed=0", "verify_write_sequence=0" };
	unsigned char *b = malloc(2 * UNIT), other[UNIT];
	struct verify_format fmt, lax;
	struct verify_failure f;
	struct job_spec s;

	(void)state;
	format_with(&s, &fmt, md5, 1);
	format_with(&s, &lax, loose, 3);
	verify_fill_unit_fmt(&fmt, b, UNIT, 4096, SEED + 1, 5);
	assert_int_equal(check(&fmt, b, 4096, SEED, 5, &f), VERIFY_STALE);
	assert_int_equal(f.found_seed, SEED + 1);
	assert_int_equal(check(&lax, b, 4096, SEED, 5, &f), VERIFY_OK);   /* another seed is fine */
	verify_fill_unit_fmt(&fmt, b, UNIT, 4096, SEED, 5);
	assert_int_equal(check(&fmt, b, 4096, SEED, 9, &f), VERIFY_LOST_WRITE);
	assert_int_equal(check(&lax, b, 4096, SEED, 9, &f), VERIFY_OK);   /* no sequence check */
	assert_int_equal(check(&fmt, b, 8192, SEED, 5, &f), VERIFY_MISDIRECTED);
	assert_int_equal(f.found_offset, 4096);
	/* the old data from the second sector on: torn */
	verify_fill_unit_fmt(&fmt, other, UNIT, 4096, SEED, 4);
	memcpy(b + 1024, other + 1024, UNIT - 1024);
	assert_int_equal(check(&fmt, b, 4096, SEED, 5, &f), VERIFY_TORN);
	assert_int_equal(f.bad_offset, 4096 + 1024);
	memset(b, 0, UNIT);
	assert_int_equal(check(&fmt, b, 4096, SEED, 5, &f), VERIFY_NEVER_WRITTEN);
	free(b);
}

static void test_pattern_payloads(void **state)
{
	const char *hdr[] = { "verify=crc32c", "verify_pattern=0xaa555aa5" };
	const char *bare[] = { "verify=pattern", "verify_pattern=%o\"dbv\"" };
	const char *implied[] = { "verify_pattern=0x12" };
	static const unsigned char pattern4[] = { 0xaa, 0x55, 0x5a, 0xa5 };
	unsigned char b[UNIT];
	struct verify_format fmt;
	struct verify_failure f;
	struct job_spec s;
	uint64_t named;

	(void)state;
	format_with(&s, &fmt, hdr, 2);
	verify_fill_unit_fmt(&fmt, b, UNIT, 0, SEED, 1);
	/* the pattern from the unit's start; the header covers its first bytes */
	for (unsigned i = VERIFY_HEADER_BYTES; i < UNIT; i++)
		assert_int_equal(b[i], pattern4[i % 4]);
	assert_int_equal(check(&fmt, b, 0, SEED, 1, &f), VERIFY_OK);
	b[3000] = 0;
	assert_int_equal(check(&fmt, b, 0, SEED, 1, &f), VERIFY_CORRUPT);
	assert_int_equal(f.expected_byte, 0xaa);   /* 3000 % 4 == 0 */

	/* fio: a pattern alone verifies it with a header */
	format_with(&s, &fmt, implied, 1);
	assert_int_equal(s.verify, VERIFY_PATTERN_HDR);

	format_with(&s, &fmt, bare, 2);
	assert_int_equal(fmt.header_len, 0);
	verify_fill_unit_fmt(&fmt, b, UNIT, 12288, SEED, 1);
	memcpy(&named, b, 8);
	assert_int_equal(named, 12288);           /* %o: the unit's offset */
	assert_memory_equal(b + 8, "dbv", 3);
	memcpy(&named, b + 11, 8);
	assert_int_equal(named, 12288);           /* period 11 */
	assert_int_equal(check(&fmt, b, 12288, 0, 0, &f), VERIFY_OK);
	/* the unit of another offset: misdirected, it names that offset */
	assert_int_equal(check(&fmt, b, 16384, 0, 0, &f), VERIFY_MISDIRECTED);
	assert_int_equal(f.found_offset, 12288);
	b[100] ^= 1;
	assert_int_equal(check(&fmt, b, 12288, 0, 0, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, 12288 + 100);
	memset(b, 0, UNIT);   /* no header: zeros are just wrong data */
	assert_int_equal(check(&fmt, b, 12288, 0, 0, &f), VERIFY_CORRUPT);
}

static void test_verify_offset_swaps_the_header(void **state)
{
	const char *opts[] = { "verify=md5", "verify_offset=1024" };
	unsigned char *b = malloc(UNIT), *logical = malloc(UNIT), *expected = malloc(UNIT);
	struct verify_format fmt;
	struct verify_failure f;
	struct verify_header h;
	struct job_spec s;

	(void)state;
	format_with(&s, &fmt, opts, 2);
	verify_fill_unit_fmt(&fmt, b, UNIT, 4096, SEED, 2);
	memcpy(&h, b + 1024, sizeof(h));
	assert_int_equal(h.magic, VERIFY_MAGIC);   /* stored at verify_offset */
	assert_true(memcmp(b, &h, 4) != 0);
	assert_int_equal(check(&fmt, b, 4096, SEED, 2, &f), VERIFY_OK);
	/* the check swaps and swaps back: the buffer is as read */
	memcpy(&h, b + 1024, sizeof(h));
	assert_int_equal(h.magic, VERIFY_MAGIC);
	/* a byte stored at 10 belongs to the header's old place */
	b[10] ^= 8;
	assert_int_equal(check(&fmt, b, 4096, SEED, 2, &f), VERIFY_CORRUPT);
	assert_int_equal(f.bad_offset, 4096 + 10);
	/* the dump images are header first and differ only there */
	verify_logical_copy(&fmt, logical, b, UNIT);
	verify_expected_unit(&fmt, expected, UNIT, 4096, SEED, 2);
	assert_int_equal(memcmp(logical, expected, 1024 + 10), 0);
	assert_int_not_equal(logical[1024 + 10], expected[1024 + 10]);
	assert_int_equal(memcmp(logical + 1035, expected + 1035, UNIT - 1035), 0);
	free(b);
	free(logical);
	free(expected);
}

static void test_range_slices_in_other_formats(void **state)
{
	const char *opts[] = { "verify=sha1", "verify_pattern=\"ab\"%o" };
	unsigned char *whole = malloc(3 * UNIT), *parts = malloc(3 * UNIT);
	struct verify_format fmt;
	struct job_spec s;

	(void)state;
	format_with(&s, &fmt, opts, 2);
	verify_fill_range_fmt(&fmt, whole, 0, 3 * UNIT, 0, UNIT, SEED, 7);
	verify_fill_range_fmt(&fmt, parts, 0, 5000, 0, UNIT, SEED, 7);
	verify_fill_range_fmt(&fmt, parts + 5000, 5000, 3 * UNIT - 5000, 0, UNIT, SEED, 7);
	assert_memory_equal(whole, parts, 3 * UNIT);
	free(whole);
	free(parts);
}

static void test_fio_pattern_syntax(void **state)
{
	static const struct { const char *in; const char *out; unsigned len; } ok[] = {
		{ "\"abcd\"", "\x61\x62\x63\x64", 4 },
		{ "-1024", "\x00\xfc\xff\xff", 4 },
		{ "66", "\x42", 1 },
		{ "0", "\x00", 1 },
		{ "0xFF0X1", "\xff\x01", 2 },
		{ "\"123\"0xFFeeCC", "\x31\x32\x33\xff\xee\xcc", 6 },
		{ "0xabc", "\x0a\xbc", 2 },
		{ "0xff0x14", "\xff\x14", 2 },
		{ "0xaa555aa5", "\xaa\x55\x5a\xa5", 4 },
	};
	unsigned char out[64];
	unsigned fmt[8], nr;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int n = pattern_parse_fmt(ok[i].in, out, sizeof(out), fmt, 8, &nr);

		if (n != (int)ok[i].len)
			fail_msg("'%s': %d bytes (%s)", ok[i].in, n, err_msg());
		assert_memory_equal(out, ok[i].out, ok[i].len);
		assert_int_equal(nr, 0);
	}
	/* fio's example #7: -100xab"1"%o"2" */
	assert_int_equal(pattern_parse_fmt("-100xab\"1\"%o\"2\"", out, sizeof(out), fmt, 8, &nr), 15);
	assert_memory_equal(out, "\xf6\xff\xff\xff\xab\x31", 6);
	assert_int_equal(nr, 1);
	assert_int_equal(fmt[0], 6);
	assert_int_equal(out[14], '2');
	/* and #9 */
	assert_int_equal(pattern_parse_fmt("%o0xdeadbeef%o", out, sizeof(out), fmt, 8, &nr), 20);
	assert_int_equal(nr, 2);
	assert_int_equal(fmt[1], 12);
	/* errors */
	assert_int_equal(pattern_parse_fmt("\"abc", out, sizeof(out), fmt, 8, &nr), -1);
	assert_non_null(strstr(err_msg(), "string without its closing"));
	assert_int_equal(pattern_parse_fmt("%x", out, sizeof(out), fmt, 8, &nr), -1);
	assert_non_null(strstr(err_msg(), "only %o"));
	assert_int_equal(pattern_parse_fmt("abc", out, sizeof(out), fmt, 8, &nr), -1);
	assert_non_null(strstr(err_msg(), "unexpected 'a'"));
	assert_int_equal(pattern_parse_fmt("4294967296", out, sizeof(out), fmt, 8, &nr), -1);
	assert_int_equal(pattern_parse_fmt("'file'", out, sizeof(out), fmt, 8, &nr), -1);
	assert_non_null(strstr(err_msg(), "cannot read pattern file 'file'"));   /* fio reads the file's bytes */
	assert_int_equal(pattern_parse_fmt("0x", out, sizeof(out), fmt, 8, &nr), -1);
	assert_int_equal(pattern_parse_fmt("0x0102030405", out, 4, fmt, 8, &nr), -1);
	assert_non_null(strstr(err_msg(), "longer than 4 bytes"));
	assert_int_equal(pattern_parse_fmt("%o%o", out, sizeof(out), fmt, 1, &nr), -1);
	assert_int_equal(pattern_parse_fmt("", out, sizeof(out), fmt, 8, &nr), -1);
}

static void test_layout_option_errors(void **state)
{
	static const struct { const char *opts[4]; unsigned n; const char *msg; } bad[] = {
		{ { "verify=pattern" }, 1, "verify=pattern needs verify_pattern" },
		{ { "verify=pattern_hdr" }, 1, "verify=pattern_hdr needs verify_pattern" },
		{ { "verify=pattern", "verify_pattern=1", "verify_offset=512" }, 3,
		  "verify=pattern has no header to move" },
		{ { "rw=write", "verify=md5", "verify_offset=32" }, 3,
		  "option 'verify_offset': 32 does not hold the 64-byte header" },
		{ { "rw=write", "verify=md5", "verify_offset=4060" }, 3,
		  "option 'verify_offset': 4060 does not hold" },
		{ { "rw=write", "bs=64", "verify=sha512" }, 3,
		  "verify=sha512 needs a unit above its 112-byte header, not 64" },
	};
	struct job_spec s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		job_spec_defaults(&s);
		for (unsigned k = 0; k < bad[i].n; k++) {
			char key[64], *eq;

			snprintf(key, sizeof(key), "%s", bad[i].opts[k]);
			eq = strchr(key, '=');
			*eq = '\0';
			assert_int_equal(job_option_set(&s, key, eq + 1), 0);
		}
		if (s.verify != VERIFY_NONE && !job_spec_writes(&s))
			s.rw = RW_WRITE;
		assert_int_equal(job_spec_validate(&s), -1);
		if (!strstr(err_msg(), bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err_msg(), bad[i].msg);
	}
	job_spec_defaults(&s);
	assert_int_equal(job_option_set(&s, "verify", "null"), -1);
	assert_non_null(strstr(err_msg(), "verify=null (pretend to verify) is not supported"));
	assert_int_equal(job_option_set(&s, "verify_state_save", "1"), -1);
	assert_non_null(strstr(err_msg(), "drivebench writes no verify state file"));
	assert_int_equal(job_option_set(&s, "verify_state_save", "0"), 0);
	assert_int_equal(job_option_set(&s, "verify_pattern", "\"x"), -1);
	assert_non_null(strstr(err_msg(), "option 'verify_pattern': bad pattern"));
	/* verify= given first keeps its method when a pattern follows */
	assert_int_equal(job_option_set(&s, "verify", "sha1"), 0);
	assert_int_equal(job_option_set(&s, "verify_pattern", "0x01"), 0);
	assert_int_equal(s.verify, VERIFY_SHA1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_method_checks_and_finds_a_flip),
		cmocka_unit_test(test_header_layout_names_the_method),
		cmocka_unit_test(test_header_verdicts_and_their_switches),
		cmocka_unit_test(test_pattern_payloads),
		cmocka_unit_test(test_verify_offset_swaps_the_header),
		cmocka_unit_test(test_range_slices_in_other_formats),
		cmocka_unit_test(test_fio_pattern_syntax),
		cmocka_unit_test(test_layout_option_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
