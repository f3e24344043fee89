/* cache.h - the page cache of a job's target, as fio handles it before a
 * job: dropping a range (fio's invalidate: posix_fadvise DONTNEED for a
 * file, the BLKFLSBUF ioctl for a block device) and advising the access
 * pattern (fio's fadvise_hint). */
#ifndef DRIVEBENCH_TARGET_CACHE_H
#define DRIVEBENCH_TARGET_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/buffering.h"

/* Drops [off, off + len) of fd from the page cache: a file's range
 * (dirty pages are only queued for writeback, as the kernel does), or a
 * block device's whole buffer cache (needs CAP_SYS_ADMIN). Returns 0 or
 * -1 with err_msg naming path and cause. */
int target_cache_drop(int fd, bool is_block, const char *path, uint64_t off, uint64_t len);

/* posix_fadvise(advice) over [off, off + len): random picks FADV_RANDOM or
 * FADV_SEQUENTIAL for FADVISE_TYPE. FADVISE_NONE does nothing. Returns 0
 * or -1 with err_msg. */
int target_cache_advise(int fd, enum fadvise_hint hint, bool random, const char *path,
			uint64_t off, uint64_t len);

/* Writes dirty pages back and drops the whole page cache (drop_caches =
 * 3, needs root). 0, or -1 with err_msg. */
int target_drop_page_cache(void);

#endif
