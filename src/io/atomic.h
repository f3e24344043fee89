/* atomic.h - atomic=1 (RWF_ATOMIC writes): whether the target can write
 * every block size of the job untorn, as statx's STATX_WRITE_ATOMIC
 * reports it (Linux 6.11+), checked once when an engine starts. */
#ifndef DRIVEBENCH_ATOMIC_H
#define DRIVEBENCH_ATOMIC_H

#include "io/engine.h"

#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040
#endif

/* 0 when atomic=1 is off, the job does not write, or every write size is
 * a power of two within the target's atomic write unit range; otherwise
 * -1 with err_msg saying what the kernel and target allow. */
int atomic_writes_check(const struct engine *e, const struct job_spec *spec);

#endif
