/* nvme_cmd.h - NVMe I/O commands as the kernel's passthrough takes them
 * (struct nvme_uring_cmd, linux/nvme_ioctl.h): Read, Write and Dataset
 * Management (deallocate) for the io_uring_cmd engine. Pure encoding, no
 * device: the unit tests check every field against the NVMe base spec. */
#ifndef DRIVEBENCH_NVME_CMD_H
#define DRIVEBENCH_NVME_CMD_H

#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#define NVME_CMD_WRITE 0x01
#define NVME_CMD_READ 0x02
#define NVME_CMD_DSM 0x09
/* Read/Write CDW12: Force Unit Access, bit 30 */
#define NVME_RW_FUA (1u << 30)
/* Dataset Management CDW11: Attribute - Deallocate, bit 2 */
#define NVME_DSM_AD (1u << 2)
/* Read/Write NLB is 16 bits, 0's based */
#define NVME_RW_MAX_BLOCKS 65536u

/* One Dataset Management range (16 bytes, NVMe base spec 3.3.3.2.1). */
struct nvme_dsm_range {
	uint32_t attributes;      /* context attributes, 0 */
	uint32_t nlb;             /* blocks, 1's based here */
	uint64_t slba;
};

/* The namespace a command goes to, and how its command is laid out. */
struct nvme_cmd_target {
	uint32_t nsid;
	uint32_t lba_size;        /* bytes, a power of two */
	bool read_fua, write_fua; /* readfua=, writefua= */
	bool vectored;            /* nonvectored=0: addr names one iovec */
};

/* Fills cmd for an I/O of len bytes at byte offset in direction dir
 * (enum io_dir: 0 read, 1 write, 2 trim) with buf as its data. A trim
 * fills *range and points cmd at it; a vectored read or write fills *iov
 * and points cmd at it (both must live until the command completes).
 * Returns 0, or -EINVAL when offset or len is not a whole number of
 * blocks, len is 0 or more blocks than one command carries. */
int nvme_cmd_encode(const struct nvme_cmd_target *t, unsigned dir, uint64_t offset,
		    uint32_t len, void *buf, struct nvme_uring_cmd *cmd,
		    struct nvme_dsm_range *range, struct iovec *iov);

#endif
