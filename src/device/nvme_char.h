/* nvme_char.h - an NVMe namespace's generic character device (/dev/ngXnY,
 * the kernel's nvme-generic class): what it is, its namespace id and LBA
 * format (Identify Namespace through the admin passthrough, nvme.h), and
 * the block device of the same namespace (/dev/nvmeXnY), which the write
 * gate examines for it: both are one drive, one device ID. */
#ifndef DRIVEBENCH_NVME_CHAR_H
#define DRIVEBENCH_NVME_CHAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* True when st (a stat of some path) is an nvme-generic character device. */
bool nvme_char_is(const struct stat *st);

/* The namespace of char device path: its id, its LBA size in use and its
 * size in bytes (NSZE blocks). 0, or -1 with err_msg naming path. */
int nvme_char_probe(const char *path, uint32_t *nsid, uint32_t *lba_size,
		    uint64_t *bytes);

/* The block device of the same namespace: /dev/nvmeXnY for /dev/ngXnY (the
 * kernel names both after the same controller or subsystem and namespace
 * instance), checked to be a block device answering the same namespace
 * id. 0 with out filled, or -1 with err_msg. */
int nvme_char_block_path(const char *path, const struct stat *st, char *out,
			 size_t len);

/* The largest transfer one command of the block device's queue carries
 * (sysfs queue/max_hw_sectors_kb, from the controller's MDTS), in bytes;
 * 0 when sysfs does not say. block is /dev/nvmeXnY. */
uint32_t nvme_char_max_transfer(const char *block);
/* The most segments (pages, for registered buffers) one command's data
 * may have (queue/max_segments); 0 when sysfs does not say. */
unsigned nvme_char_max_segments(const char *block);

#endif
