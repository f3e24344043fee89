/* digest.c - every verify method's digest of a payload: table-driven CRCs
 * (tables built once from the polynomials), XXH32 from its specification,
 * crc32c from crc32c.c and the cryptographic hashes through OpenSSL's EVP
 * interface. Known vectors are in tests/unit/test_digest.c. */
#include "verify/digest.h"

#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>

#include "util/error.h"
#include "verify/crc32c.h"

#define CRC32_POLY 0x04C11DB7u            /* MSB first, as fio's crc32 */
#define CRC16_POLY 0xA001u                /* 0x8005 reflected */
#define CRC7_POLY 0x09u                   /* x^7 + x^3 + 1 */
#define CRC64_POLY 0x95AC9329AC4BC9B5ull  /* Jones, reflected */

static uint32_t crc32_table[256];
static uint16_t crc16_table[256];
static uint8_t crc7_table[256];
static uint64_t crc64_table[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c32 = i << 24, c16 = i;
		uint64_t c64 = i;
		unsigned c7 = 0;

		for (int k = 0; k < 8; k++) {
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ CRC32_POLY : c32 << 1;
			c16 = c16 & 1 ? (c16 >> 1) ^ CRC16_POLY : c16 >> 1;
			c64 = c64 & 1 ? (c64 >> 1) ^ CRC64_POLY : c64 >> 1;
		}
		/* crc7: the byte's 8 bits through the 7-bit register, from 0;
		 * the update is table[(crc << 1) ^ byte] */
		for (int b = 7; b >= 0; b--) {
			unsigned top = (c7 >> 6) & 1, bit = (i >> b) & 1;

			c7 = (c7 << 1) & 0x7f;
			if (top ^ bit)
				c7 ^= CRC7_POLY;
		}
		crc32_table[i] = c32;
		crc16_table[i] = (uint16_t)c16;
		crc64_table[i] = c64;
		crc7_table[i] = (uint8_t)c7;
	}
}

uint32_t digest_crc32_fio(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = 0;

	pthread_once(&tables_once, build_tables);
	while (len--)
		crc = (crc << 8) ^ crc32_table[((crc >> 24) ^ *p++) & 0xff];
	return crc;
}

uint16_t digest_crc16(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint16_t crc = 0;

	pthread_once(&tables_once, build_tables);
	while (len--)
		crc = (uint16_t)((crc >> 8) ^ crc16_table[(crc ^ *p++) & 0xff]);
	return crc;
}

uint8_t digest_crc7(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint8_t crc = 0;

	pthread_once(&tables_once, build_tables);
	while (len--)
		crc = crc7_table[((unsigned)crc << 1 ^ *p++) & 0xff];
	return crc;
}

uint64_t digest_crc64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t crc = 0;

	pthread_once(&tables_once, build_tables);
	while (len--)
		crc = crc64_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* ---- XXH32 ---------------------------------------------------------------- */

#define P32_1 0x9E3779B1u
#define P32_2 0x85EBCA77u
#define P32_3 0xC2B2AE3Du
#define P32_4 0x27D4EB2Fu
#define P32_5 0x165667B1u

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
	return x << r | x >> (32 - r);
}

static inline uint32_t read32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);   /* little-endian hosts, as the headers */
	return v;
}

static inline uint32_t xxh_round(uint32_t acc, uint32_t in)
{
	return rotl32(acc + in * P32_2, 13) * P32_1;
}

uint32_t digest_xxh32(const void *data, size_t len, uint32_t seed)
{
	const unsigned char *p = data, *end = p + len;
	uint32_t h;

	if (len >= 16) {
		uint32_t v1 = seed + P32_1 + P32_2, v2 = seed + P32_2;
		uint32_t v3 = seed, v4 = seed - P32_1;

		for (; p + 16 <= end; p += 16) {
			v1 = xxh_round(v1, read32(p));
			v2 = xxh_round(v2, read32(p + 4));
			v3 = xxh_round(v3, read32(p + 8));
			v4 = xxh_round(v4, read32(p + 12));
		}
		h = rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18);
	} else {
		h = seed + P32_5;
	}
	h += (uint32_t)len;
	for (; p + 4 <= end; p += 4)
		h = rotl32(h + read32(p) * P32_3, 17) * P32_4;
	for (; p < end; p++)
		h = rotl32(h + *p * P32_5, 11) * P32_1;
	h ^= h >> 15;
	h *= P32_2;
	h ^= h >> 13;
	h *= P32_3;
	h ^= h >> 16;
	return h;
}

/* ---- the methods ---------------------------------------------------------- */

static const EVP_MD *evp_of(enum verify_kind method)
{
	switch (method) {
	case VERIFY_MD5: return EVP_md5();
	case VERIFY_SHA1: return EVP_sha1();
	case VERIFY_SHA256: return EVP_sha256();
	case VERIFY_SHA512: return EVP_sha512();
	case VERIFY_SHA3_224: return EVP_sha3_224();
	case VERIFY_SHA3_256: return EVP_sha3_256();
	case VERIFY_SHA3_384: return EVP_sha3_384();
	case VERIFY_SHA3_512: return EVP_sha3_512();
	default: return NULL;
	}
}

unsigned digest_len(enum verify_kind method)
{
	switch (method) {
	case VERIFY_CRC32C: case VERIFY_CRC32: case VERIFY_XXHASH: return 4;
	case VERIFY_CRC16: return 2;
	case VERIFY_CRC7: return 1;
	case VERIFY_CRC64: return 8;
	case VERIFY_MD5: return 16;
	case VERIFY_SHA1: return 20;
	case VERIFY_SHA256: case VERIFY_SHA3_256: return 32;
	case VERIFY_SHA3_224: return 28;
	case VERIFY_SHA3_384: return 48;
	case VERIFY_SHA512: case VERIFY_SHA3_512: return 64;
	default: return 0;
	}
}

int digest_compute(enum verify_kind method, const void *data, size_t len,
		   unsigned char *out)
{
	uint32_t v32;
	uint64_t v64;
	uint16_t v16;
	const EVP_MD *md;

	switch (method) {
	case VERIFY_CRC32C: v32 = crc32c(0, data, len); memcpy(out, &v32, 4); return 0;
	case VERIFY_CRC32: v32 = digest_crc32_fio(data, len); memcpy(out, &v32, 4); return 0;
	case VERIFY_XXHASH: v32 = digest_xxh32(data, len, 1); memcpy(out, &v32, 4); return 0;
	case VERIFY_CRC16: v16 = digest_crc16(data, len); memcpy(out, &v16, 2); return 0;
	case VERIFY_CRC7: out[0] = digest_crc7(data, len); return 0;
	case VERIFY_CRC64: v64 = digest_crc64(data, len); memcpy(out, &v64, 8); return 0;
	default:
		break;
	}
	md = evp_of(method);
	if (!md)
		return err_set("verify method %d has no digest", (int)method);
	if (!EVP_Digest(data, len, out, NULL, md, NULL))
		return err_set("libcrypto: %s digest failed", EVP_MD_get0_name(md));
	return 0;
}
