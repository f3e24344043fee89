/* live_status.h - the results so far while a run goes on (fio's
 * --status-interval and ETA line): a copy of every started clone's
 * counters, taken on the runner's thread without stopping the workers. */
#ifndef DRIVEBENCH_LIVE_STATUS_H
#define DRIVEBENCH_LIVE_STATUS_H

#include <stdint.h>

#include "run/runner.h"
#include "run/worker.h"

/* Copies of workers[0, nr): counters and histograms as they stand (a
 * relaxed read: a figure may be one I/O behind another), the runtime so
 * far for a clone still running, owned pointers (series, snapshots,
 * checks) left out. out->results is the caller's (run_output_free). */
int live_status_copy(const struct worker *workers, unsigned nr, uint64_t now,
		     struct run_output *out);

/* The time left of the running clones workers[0, nr), whose phase
 * started at phase_start (0: not yet), plus later_ns for the phases
 * after; UINT64_MAX when neither a runtime nor a size bounds it yet.
 * *fraction: the part done of the phase, 0 to 1. */
uint64_t live_status_eta(const struct worker *workers, unsigned nr, uint64_t now,
			 uint64_t phase_start, double *fraction);

#endif
