/* test_digest.c - every verify method's digest against known values: the
 * CRCs' check values for "123456789" (CRC-16/ARC, CRC-7/MMC, fio's crc32
 * and crc64), XXH32's published vectors and one from libxxhash, and md5,
 * sha1, sha256, sha512 and sha3-* of a known 4 KiB block as Python's
 * hashlib computes them (values printed by hashlib.new(name, block)). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "verify/digest.h"

#define BLOCK 4096

static void known_block(unsigned char *b)
{
	for (unsigned i = 0; i < BLOCK; i++)
		b[i] = (unsigned char)((i * 31 + 7) & 0xff);
}

static void hex_of(const unsigned char *d, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void test_crc_check_values(void **state)
{
	const char *check = "123456789";

	(void)state;
	assert_int_equal(digest_crc16(check, 9), 0xBB3D);          /* CRC-16/ARC */
	assert_int_equal(digest_crc7(check, 9), 0x75);             /* CRC-7/MMC */
	/* CRC-32/POSIX before its final inversion (0x765E7680 ^ ~0) */
	assert_int_equal(digest_crc32_fio(check, 9), 0x89A1897Fu);
	/* Jones' CRC-64, reflected, from 0 (Redis's check value) */
	assert_true(digest_crc64(check, 9) == 0xE9C6D914C4B8D9CAull);
	assert_int_equal(digest_crc16("", 0), 0);
	assert_true(digest_crc64("", 0) == 0);
}

static void test_xxh32_vectors(void **state)
{
	unsigned char block[BLOCK];

	(void)state;
	known_block(block);
	assert_int_equal(digest_xxh32("", 0, 0), 0x02CC5D05u);
	assert_int_equal(digest_xxh32("abc", 3, 0), 0x32D153FFu);
	/* from libxxhash's XXH32 (ctypes), seed 1 as fio uses it */
	assert_int_equal(digest_xxh32("123456789", 9, 1), 0xF261918Cu);
	assert_int_equal(digest_xxh32(block, BLOCK, 1), 0xD0BBC462u);
}

static void test_hashes_match_hashlib(void **state)
{
	static const struct { enum verify_kind m; const char *hex; } known[] = {
		{ VERIFY_MD5, "88c3b31b216d705c77b752990f1b55f5" },
		{ VERIFY_SHA1, "2c177f7cc0e199dab44868ac2d42a03814e38e75" },
		{ VERIFY_SHA256, "d41d438c379110c7f7b2c561b1f04f26c1b4549110791f8e022f48974280c13e" },
		{ VERIFY_SHA512, "83d4a8da077efa9a0ce3c713c4e5703ddf29472d246ebb845dd003d03caf8aab"
				 "db1e8702dfcef6a7e5134fefd104bcf61dbdcd3db385ae48343367200a65b368" },
		{ VERIFY_SHA3_224, "0827e127f3ab3d695286a777d462a51800bffc152cb15d412517dd2f" },
		{ VERIFY_SHA3_256, "36b10ea74c2d902eadf8d91eef3f3640e2e362ec5ecaf77eb47a758bc4f632a5" },
		{ VERIFY_SHA3_384, "2c7fc264963d4911922d91f6ee874dca82bb427154a2a675"
				   "106ed4ee2e146ba7d621c14c0b7e230063c0896fea6e9895" },
		{ VERIFY_SHA3_512, "2a9bb1f20a724c516dfe5bdb1d8ba0d308f5975e668dd7feeaa34b8e1780f070"
				   "88a14b2ec39967ce4e77165a4dd9c4539429b2187be21f03c4a257333f4acd9e" },
	};
	unsigned char block[BLOCK], d[DIGEST_MAX];
	char hex[2 * DIGEST_MAX + 1];

	(void)state;
	known_block(block);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		unsigned n = digest_len(known[i].m);

		assert_int_equal(n * 2, strlen(known[i].hex));
		assert_int_equal(digest_compute(known[i].m, block, BLOCK, d), 0);
		hex_of(d, n, hex);
		assert_string_equal(hex, known[i].hex);
	}
	/* RFC 1321 / FIPS 180-2 "abc" */
	assert_int_equal(digest_compute(VERIFY_MD5, "abc", 3, d), 0);
	hex_of(d, 16, hex);
	assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
	assert_int_equal(digest_compute(VERIFY_SHA256, "abc", 3, d), 0);
	hex_of(d, 32, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* The integer digests are stored little-endian, as computed. */
static void test_integer_digests_stored_little_endian(void **state)
{
	unsigned char d[DIGEST_MAX];
	const char *check = "123456789";

	(void)state;
	assert_int_equal(digest_compute(VERIFY_CRC16, check, 9, d), 0);
	assert_int_equal(d[0] | d[1] << 8, 0xBB3D);
	assert_int_equal(digest_compute(VERIFY_CRC7, check, 9, d), 0);
	assert_int_equal(d[0], 0x75);
	assert_int_equal(digest_compute(VERIFY_CRC32C, check, 9, d), 0);
	assert_int_equal((uint32_t)(d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24),
			 0xE3069283u);
	assert_int_equal(digest_compute(VERIFY_CRC64, check, 9, d), 0);
	assert_int_equal(d[0], 0xCA);
	assert_int_equal(d[7], 0xE9);
}

static void test_lengths_and_no_digest(void **state)
{
	unsigned char d[DIGEST_MAX];

	(void)state;
	assert_int_equal(digest_len(VERIFY_CRC32C), 4);
	assert_int_equal(digest_len(VERIFY_CRC7), 1);
	assert_int_equal(digest_len(VERIFY_MD5), 16);
	assert_int_equal(digest_len(VERIFY_SHA3_384), 48);
	assert_int_equal(digest_len(VERIFY_SHA512), 64);
	assert_int_equal(digest_len(VERIFY_META), 0);
	assert_int_equal(digest_len(VERIFY_PATTERN), 0);
	assert_int_equal(digest_compute(VERIFY_META, "x", 1, d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_values),
		cmocka_unit_test(test_xxh32_vectors),
		cmocka_unit_test(test_hashes_match_hashlib),
		cmocka_unit_test(test_integer_digests_stored_little_endian),
		cmocka_unit_test(test_lengths_and_no_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
