/* nvme_cmd.c - NVMe Read, Write and Dataset Management commands for the
 * passthrough (nvme_cmd.h). Offsets follow the NVMe NVM Command Set
 * specification: SLBA in CDW10-11, NLB (0's based) in CDW12 bits 15:0. */
#include "io/nvme_cmd.h"

#include <errno.h>
#include <string.h>

#include "job/io_dir.h"

int nvme_cmd_encode(const struct nvme_cmd_target *t, unsigned dir, uint64_t offset,
		    uint32_t len, void *buf, struct nvme_uring_cmd *cmd,
		    struct nvme_dsm_range *range, struct iovec *iov)
{
	uint64_t slba;
	uint32_t blocks;

	memset(cmd, 0, sizeof(*cmd));
	if (t->lba_size == 0 || len == 0 || offset % t->lba_size || len % t->lba_size)
		return -EINVAL;
	slba = offset / t->lba_size;
	blocks = len / t->lba_size;
	cmd->nsid = t->nsid;
	if (dir == DIR_TRIM) {
		range->attributes = 0;
		range->nlb = blocks;
		range->slba = slba;
		cmd->opcode = NVME_CMD_DSM;
		cmd->addr = (uint64_t)(uintptr_t)range;
		cmd->data_len = sizeof(*range);
		cmd->cdw10 = 0;              /* NR: one range, 0's based */
		cmd->cdw11 = NVME_DSM_AD;
		return 0;
	}
	if (blocks > NVME_RW_MAX_BLOCKS)
		return -EINVAL;
	cmd->opcode = dir == DIR_READ ? NVME_CMD_READ : NVME_CMD_WRITE;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = blocks - 1;
	if (dir == DIR_READ ? t->read_fua : t->write_fua)
		cmd->cdw12 |= NVME_RW_FUA;
	if (t->vectored) {
		iov->iov_base = buf;
		iov->iov_len = len;
		cmd->addr = (uint64_t)(uintptr_t)iov;
		cmd->data_len = 1;           /* iovec count */
	} else {
		cmd->addr = (uint64_t)(uintptr_t)buf;
		cmd->data_len = len;
	}
	return 0;
}
