/* jobctl.h - private to src/run/: what the clones of one run share to
 * start and stop each other as fio's job control says: startdelay (from
 * the run's start, fio's genesis), wait_for (a job starts once every clone
 * of the job it names has finished), exitall / exitall_on_error with
 * exit_what (a finished job ends its group, the running jobs, or all),
 * and the flows of flow= / flow_id= (run/pacing.c reads them). */
#ifndef DRIVEBENCH_RUN_JOBCTL_H
#define DRIVEBENCH_RUN_JOBCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job_list.h"

struct worker;
struct jobctl;

/* One flow: fio's shared counter (starting at 1) and the summed weights
 * of the clones running in it. */
struct flow {
	unsigned id;
	uint64_t counter;           /* atomic */
	uint64_t total_weight;      /* atomic */
};

/* The run's shared state, or *out = NULL when no job uses any of it
 * (startdelay, wait_for, exitall, exitall_on_error, flow). workers[nr]
 * are the run's clones (runner.c), in job order. Returns 0 or -1 with
 * err_msg (a wait_for naming no earlier job). */
int jobctl_create(const struct job_list *jobs, struct worker *workers, unsigned nr,
		  struct jobctl **out);
void jobctl_free(struct jobctl *c);

/* Before the clone's loop: waits out its startdelay and its wait_for (a
 * stop or an exitall cuts the wait short; the loop then ends at once),
 * joins its flow. */
void jobctl_start(struct worker *w);

/* After the clone's loop (or instead of it): leaves the flow, counts the
 * clone done for wait_for, and applies exitall. */
void jobctl_finish(struct worker *w);

/* The clone's flow, or NULL. */
struct flow *jobctl_flow(const struct worker *w);

/* Sleeps until the monotonic time `until` in slices, so a stop or an
 * exitall is seen within 50 ms; false when stopped or terminated first. */
bool jobctl_sleep_until(struct worker *w, uint64_t until);

#endif
