/* job_env.h - what a job clone's thread is set to before its buffers and
 * engine exist (engine_opts.h): the CPUs it may run on (cpus_allowed,
 * cpumask, cpus_allowed_policy, numa_cpu_nodes), its NUMA memory policy,
 * nice value and I/O priority; and what the loop leaves for the result
 * once it ends (engine_results.c). */
#ifndef DRIVEBENCH_JOB_ENV_H
#define DRIVEBENCH_JOB_ENV_H

#include "run/worker.h"

/* Applies the job's thread settings to the calling thread (the clone's).
 * 0, or -1 with err_msg naming the job and option. */
int job_env_apply(const struct worker *w);

/* Around the clone's loop: counts a clone whose engine moves data in and
 * out (cpuio's exit_on_io_done), and after the loop applies what the
 * engine and options say about the result: no bytes for an engine that
 * moves none, the measurements gtod_reduce / disable_* turn off, the
 * engine's own figures (cmdprio's clat by priority). */
void engine_results_start(struct worker *w);
void engine_results_finish(struct worker *w);

#endif
