/* digest.h - the checksums and hashes of fio's verify methods, each over a
 * unit's payload: crc7, crc16, crc32, crc64 and xxhash as fio defines them
 * (the polynomials, start values and byte order of fio's crc/ code, written
 * here from those definitions), crc32c (crc32c.h), and md5, sha1, sha256,
 * sha512 and sha3-* from OpenSSL's libcrypto. */
#ifndef DRIVEBENCH_DIGEST_H
#define DRIVEBENCH_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "job/job_spec.h"

#define DIGEST_MAX 64   /* sha512, sha3-512 */

/* Bytes of the method's digest: 0 for meta, pattern and pattern_hdr (and
 * none), 4 for crc32c. */
unsigned digest_len(enum verify_kind method);

/* The digest of data into out (digest_len bytes; integers little-endian).
 * Returns 0, or -1 with err_msg when the method has no digest or libcrypto
 * fails. */
int digest_compute(enum verify_kind method, const void *data, size_t len,
		   unsigned char *out);

/* fio's crc variants, for the tests' known vectors: crc32 is MSB-first
 * 0x04C11DB7 from 0 with no final inversion, crc16 CRC-16/ARC, crc7
 * CRC-7/MMC (7 bits), crc64 the Jones polynomial reflected from 0, xxhash
 * XXH32 with seed 1. */
uint32_t digest_crc32_fio(const void *data, size_t len);
uint16_t digest_crc16(const void *data, size_t len);
uint8_t digest_crc7(const void *data, size_t len);
uint64_t digest_crc64(const void *data, size_t len);
uint32_t digest_xxh32(const void *data, size_t len, uint32_t seed);

#endif
