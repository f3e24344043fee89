/* pacing.h - private to src/run/: the paced submit/reap loop's hooks
 * (pacing.c), for clones whose job sets an option that delays, limits or
 * stops the issue of I/Os: rate, rate_iops (linear or poisson, inline or
 * offload), rate_min, thinktime, latency_target, flow, number_ios, loops,
 * iodepth_low. loop.c calls them only on its paced specialisation, so a
 * job without any of them runs the plain loop untouched. */
#ifndef DRIVEBENCH_RUN_PACING_H
#define DRIVEBENCH_RUN_PACING_H

#include <stdbool.h>
#include <stdint.h>

#include "io/engine.h"

struct loop;

/* Sets l->pace for a job that needs pacing (NULL otherwise); 0 or -1. */
int pacing_begin(struct loop *l);
void pacing_end(struct loop *l);
/* The measured part (re)starts at now: after the ramp, or for the
 * latency target's final run. Rate schedules and counts start again. */
void pacing_restart(struct loop *l, uint64_t now);
/* At the start of each round: the next loop pass, a think time due, a
 * latency-target ramp down. Returns 0 or -1 (error set). */
int pacing_round(struct loop *l);
/* How many of up to max new I/Os may go out now; 0 = none now (a wait is
 * due, see pacing_waits, or a limit ended the issue). */
unsigned pacing_allow(struct loop *l, unsigned max);
/* The nb I/Os just submitted. */
void pacing_issued(struct loop *l, struct io *const *batch, unsigned nb);
/* True when pacing_allow asked for a wait; also notes whether the queue
 * is full for iodepth_low. */
bool pacing_waits(struct loop *l);
/* The wait: drains (inline) or keeps reaping (offload) and sleeps until
 * the next I/O is due, the think time is over, or the flow lets it go. */
int pacing_wait(struct loop *l);
/* One measured completion of dir with total latency lat_ns. */
void pacing_completed(struct loop *l, int dir, uint64_t lat_ns);
/* After a reap: iodepth_low, the latency window and rate_min. 0 or -1. */
int pacing_reaped(struct loop *l);

#endif
