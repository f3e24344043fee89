/* memory_check.h - the runner's memory checks (--max-buffer-mem), made
 * before anything is allocated. */
#ifndef DRIVEBENCH_RUN_MEMORY_CHECK_H
#define DRIVEBENCH_RUN_MEMORY_CHECK_H

#include <stdint.h>

#include "job/job_list.h"

/* What the run keeps until its end: every clone's result (counters, six
 * latency histograms) and series, summed over the whole run. */
uint64_t run_results_bytes(const struct job_list *jobs);

/* The run's results against limit; 0, or -1 with err_msg giving the
 * arithmetic of the job that needs most. */
int run_check_result_memory(const struct job_list *jobs, uint64_t limit);

/* The phase jobs[first..last) (jobs that run together): buffers, file
 * sets and verify maps (verify_bytes per job) plus results, against
 * limit; 0, or -1 with err_msg. */
int run_check_buffer_memory(const struct job_list *jobs, unsigned first, unsigned last,
			    uint64_t limit, const uint64_t *verify_bytes, uint64_t results);

#endif
