/* crc32c.c - CRC-32C: slicing-by-8 tables built once, and on x86-64 the
 * SSE4.2 crc32 instruction (8 bytes per step) chosen at run time with
 * __builtin_cpu_supports, so one binary runs on any x86-64. */
#include "verify/crc32c.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY 0x82F63B78u   /* reflected Castagnoli polynomial */

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

uint32_t crc32c_soft(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	pthread_once(&table_once, build_tables);
	crc = ~crc;
	while (len >= 8) {
		uint64_t word;
		uint32_t lo, hi;

		memcpy(&word, p, 8);   /* little-endian: x86, arm64 as used */
		lo = (uint32_t)word ^ crc;
		hi = (uint32_t)(word >> 32);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t c = ~crc;

	while (len >= 8) {
		uint64_t word;

		memcpy(&word, p, 8);
		c = __builtin_ia32_crc32di(c, word);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

static int has_sse42;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void probe_cpu(void)
{
	__builtin_cpu_init();
	has_sse42 = __builtin_cpu_supports("sse4.2") ? 1 : 0;
}

int crc32c_hardware(void)
{
	pthread_once(&cpu_once, probe_cpu);
	return has_sse42;
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	if (crc32c_hardware())
		return crc32c_sse42(crc, data, len);
	return crc32c_soft(crc, data, len);
}
#else
int crc32c_hardware(void)
{
	return 0;
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	return crc32c_soft(crc, data, len);
}
#endif
