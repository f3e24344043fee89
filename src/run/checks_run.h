/* checks_run.h - private to src/run/: what the options of
 * job/checks.h do around a clone's loop: sprandom's offset sequence
 * and its planned size, and (ss_monitor.c) fio's steady state. */
#ifndef DRIVEBENCH_CHECKS_RUN_H
#define DRIVEBENCH_CHECKS_RUN_H

#include <stdint.h>

#include "run/runner.h"
#include "run/worker.h"

/* After the generators: sprandom's sequence in w->offsets and its plan in
 * the result. 0, or -1 with err_msg. */
int checks_worker_setup(struct worker *w);
void checks_worker_teardown(struct worker *w);

/* The bytes the measured part issues: sprandom's planned writes, else
 * fallback. */
uint64_t checks_bytes_target(const struct worker *w, uint64_t fallback);

/* fio's steady state for a phase's workers (ss_monitor.c). */
struct ss_monitor;

/* NULL *mon when no worker has steadystate; -1 with err_msg when a
 * reporting group's steady-state options differ (fio rejects that). The
 * workers in steady state get stop flags of the monitor's (it passes a
 * Ctrl-C on within 50 ms). */
int ss_monitor_create(struct worker *workers, unsigned nr,
		      const volatile sig_atomic_t *stop, struct ss_monitor **mon);
/* Starts its thread, which waits on barrier with the workers. */
int ss_monitor_start(struct ss_monitor *mon, pthread_barrier_t *barrier);
/* After the workers joined: stops the thread, keeps each report with its
 * workers' results (a stop by steady state is not partial), puts their
 * stop flags back and frees the monitor. -1 with err_msg (out of memory). */
int ss_monitor_finish(struct ss_monitor *mon);

#endif
