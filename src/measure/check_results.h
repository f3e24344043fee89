/* check_results.h - what a job result keeps of fio's steady state
 * (measure/steadystate.h) and of its sprandom plan
 * (job/sprandom_job.h): job_result.checks, NULL when the job had
 * neither; copied with the result when clones are grouped. */
#ifndef DRIVEBENCH_CHECK_RESULTS_H
#define DRIVEBENCH_CHECK_RESULTS_H

#include "measure/steadystate.h"
#include "job/sprandom_job.h"

struct check_results {
	struct steady_report *steady;
	struct sprandom_report *sprandom;
};

/* The result's checks, allocated on first use; NULL when out of memory. */
struct check_results *check_results_of(struct check_results **slot);
void check_results_free(struct check_results *c);
/* A deep copy (NULL src: *dst = NULL). -1 with err_msg when out of memory. */
int check_results_dup(struct check_results **dst, const struct check_results *src);

#endif
