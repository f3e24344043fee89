/* phase_plan.h - counts and time bounds of a job list's stonewall phases
 * (a phase: a job and the ones after it up to the next stonewall). */
#ifndef DRIVEBENCH_RUN_PHASE_PLAN_H
#define DRIVEBENCH_RUN_PHASE_PLAN_H

#include <stdint.h>

#include "job/job_list.h"

/* numjobs summed over the jobs */
unsigned count_clones(const struct job_list *jobs);
/* the phases: job 0 and each stonewall job start one */
unsigned count_phases(const struct job_list *jobs);
/* The longest the phase of jobs [first, last) runs when every job has a
 * runtime: startdelay + ramp + runtime; 0 = not bounded (a size alone). */
uint64_t phase_bound_ns(const struct job_list *jobs, unsigned first, unsigned last);
/* The time the phases from job first on take; UINT64_MAX when one of
 * them has no time bound. */
uint64_t later_phases_ns(const struct job_list *jobs, unsigned first);

#endif
