/* pagecache.h - when a clone drops its range from the page cache and
 * advises the kernel of its access pattern, at the moments fio does. */
#ifndef DRIVEBENCH_RUN_PAGECACHE_H
#define DRIVEBENCH_RUN_PAGECACHE_H

#include "run/worker.h"

/* Right after the target is opened, before any I/O: invalidate=1 drops
 * the job's range (file) or the device's buffer cache (block device);
 * fadvise_hint advises the range. A failure is a warning on stderr, not
 * an error, as in fio. Arms the drop at each wrap of the offsets for a
 * buffered job (invalidate_on_wrap). */
void worker_cache_open(struct worker *w);

/* The offsets wrapped around the range (a time-based or looping job): a
 * buffered job with invalidate=1 drops its range again, as fio's
 * loop_cache_invalidate. */
void worker_cache_wrap(struct worker *w);

/* Drops the range before the verify phase reads it back (fio's
 * do_verify does, whatever invalidate says). */
void worker_cache_drop(struct worker *w);

#endif
