/* crc32c.h - CRC-32C (Castagnoli, the iSCSI / ext4 / NVMe checksum): the
 * SSE4.2 instruction where the CPU has it, a table-driven software version
 * everywhere else; both give the same value. */
#ifndef DRIVEBENCH_CRC32C_H
#define DRIVEBENCH_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continues a CRC-32C over data: start with crc = 0; feeding the data in
 * pieces gives the same result as one call. crc32c(0, "123456789", 9) is
 * 0xE3069283. */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

/* The software version alone (tests compare both paths). */
uint32_t crc32c_soft(uint32_t crc, const void *data, size_t len);

/* True when crc32c() uses the CPU instruction. */
int crc32c_hardware(void);

#endif
