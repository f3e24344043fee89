/* drive.h - one modelled drive (issue 15): the FTL, the clock, the op
 * list between them, the write buffer's bookkeeping and idle-time GC,
 * put together. The engine (io/vssd.c) and the virtual-time simulator
 * (sim.c) both drive it, so they share one implementation. Times are
 * nanoseconds on the caller's clock; the drive keeps no other time. Not
 * thread-safe: the caller serializes (the engine holds a lock). */
#ifndef DRIVEBENCH_VSSD_DRIVE_H
#define DRIVEBENCH_VSSD_DRIVE_H

#include <stdint.h>

#include "vssd/ftl.h"
#include "vssd/model.h"

enum vdrive_dir { VDRIVE_READ, VDRIVE_WRITE, VDRIVE_TRIM };

struct vdrive;

/* A fresh drive (every IU unmapped, every resource idle) of model m (the
 * model is copied). NULL with err_msg. */
struct vdrive *vdrive_create(const struct vssd_model *m);
/* The same, NULL once *stop is set while the drive is made (ftl.h). */
struct vdrive *vdrive_create_until(const struct vssd_model *m, const volatile sig_atomic_t *stop);
void vdrive_destroy(struct vdrive *d);
const struct vssd_model *vdrive_model(const struct vdrive *d);

/* One command of len bytes at offset, submitted at submit_ns on
 * submission queue queue (a job's: timing.h's queue_ns): *done_ns is when
 * it completes (a trim: when the controller took it). Commands are booked
 * in submission order. 0, or -1 with err_msg (a range past the drive). */
int vdrive_io(struct vdrive *d, uint32_t queue, enum vdrive_dir dir, uint64_t offset,
	      uint32_t len, uint64_t submit_ns, uint64_t *done_ns);

/* Writes len bytes at offset through the FTL alone: its NAND operations
 * (GC's too) are counted but not timed and nothing is booked on the
 * clock. A warm-up that brings the FTL to steady state at a fraction of
 * a timed write's cost (the clock's queues refill in the timed run that
 * follows). 0, or -1 with err_msg (a range past the drive). */
int vdrive_write_untimed(struct vdrive *d, uint64_t offset, uint32_t len);

/* When the latest command booked so far completes (0 before any). */
uint64_t vdrive_last_done(const struct vdrive *d);

/* Unmaps everything and erases the used blocks (NVMe Format). */
void vdrive_format(struct vdrive *d);
void vdrive_stats(const struct vdrive *d, struct ftl_stats *s);
/* Restarts the FTL's write counters: WAF over a window from here. */
void vdrive_reset_waf(struct vdrive *d);
/* The FTL's state as segments (ftl_state_segments): what lasts of a
 * drive between processes. The clock's does not: a loaded drive is idle. */
unsigned vdrive_state_segments(struct vdrive *d, struct ftl_segment *seg, unsigned max);
/* A second drive with d's FTL state and an idle clock (as a drive loaded
 * from d's state file): to measure from d's state without aging d. NULL
 * with err_msg. */
struct vdrive *vdrive_clone(const struct vdrive *d);

#endif
