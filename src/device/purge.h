/* purge.h - a target made as if new, behind the safety gate: a block
 * device's every block discarded (BLKDISCARD), a file's blocks punched out
 * (its size kept), a modelled drive formatted (every block erased). */
#ifndef DRIVEBENCH_TARGET_PURGE_H
#define DRIVEBENCH_TARGET_PURGE_H

#include <stdint.h>

struct purge_result {
	const char *method;      /* "BLKDISCARD", "punch-hole", "format", "none" */
	uint64_t bytes;
};

/* Purges path when the safety gate lets it (it holds no data, or one of
 * destroy_ids names it); a path that does not exist is left alone (method
 * "none"). 0, or -1 with err_msg and *exit_code (3 refused, 2 cannot
 * open, 1 the discard failed). */
int target_purge(const char *path, const char *const *destroy_ids, unsigned nr_destroy_ids,
		 struct purge_result *out, int *exit_code);

/* The gate alone: 0 when path holds no data or one of destroy_ids names
 * it; -1 with err_msg and *exit_code (3 refused, 2 it cannot be checked).
 * An MPI run checks every rank's target so before any rank purges. */
int target_purge_consent(const char *path, const char *const *destroy_ids,
			 unsigned nr_destroy_ids, int *exit_code);

/* The same with NVMe Format NVM, user data erase (SES 1), in the LBA format
 * in use, instead of a discard (method "nvme-format"): path must be an NVMe
 * namespace whose controller offers Format NVM (exit code 2 otherwise). */
int target_purge_nvme_format(const char *path, const char *const *destroy_ids,
			     unsigned nr_destroy_ids, struct purge_result *out, int *exit_code);

#endif
