/* live_status.h - the results so far while a run goes on (fio's
 * --status-interval and ETA line): a copy of every started clone's
 * counters, taken on the runner's thread without stopping the workers. */
#ifndef DRIVEBENCH_LIVE_STATUS_H
#define DRIVEBENCH_LIVE_STATUS_H

#include <stdint.h>

#include "run/runner.h"
#include "run/worker.h"

/* The handshake of one copy (worker.live_state). */
enum live_state { LIVE_IDLE, LIVE_ASKED, LIVE_COPYING, LIVE_COPIED };

/* Copies of workers[0, nr): counters and histograms as they stand, the
 * runtime so far for a clone still running, owned pointers (series,
 * snapshots, checks) left out. A running clone copies its own result
 * between two rounds of its loop, so its figures agree with each other
 * (ios, bytes, clat N); one that does not answer within
 * LIVE_ANSWER_WAIT_NS (blocked in a long I/O, not yet in its loop) is
 * read as it stands, where a figure may be an I/O behind another.
 * out->results is the caller's (run_output_free). */
int live_status_copy(struct worker *workers, unsigned nr, uint64_t now,
		     struct run_output *out);

/* The loop's side, on the worker's thread between rounds: answers a copy
 * asked for. One relaxed load when nothing is asked. */
void live_status_answer(struct worker *w);
static inline void live_status_poll(struct worker *w)
{
	if (__builtin_expect(__atomic_load_n(&w->live_state, __ATOMIC_RELAXED) == LIVE_ASKED, 0))
		live_status_answer(w);
}

/* The time left of the running clones workers[0, nr), whose phase
 * started at phase_start (0: not yet), plus later_ns for the phases
 * after; UINT64_MAX when neither a runtime nor a size bounds it yet.
 * *fraction: the part done of the phase, 0 to 1. */
uint64_t live_status_eta(const struct worker *workers, unsigned nr, uint64_t now,
			 uint64_t phase_start, double *fraction);

#endif
