/* checks_out.h - private to src/output/: the outputs of job/checks.h's
 * options: fio's "steadystate" object and summary line, and the sprandom
 * plan ("drivebench"."sprandom" in the JSON, one summary line). */
#ifndef DRIVEBENCH_CHECKS_OUT_H
#define DRIVEBENCH_CHECKS_OUT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "measure/stats.h"

/* fio's "steadystate" object of r, or NULL when r has none; *failed set
 * when out of memory. */
cJSON *output_steadystate_json(const struct job_result *r, bool *failed);
/* The sprandom plan of r, or NULL when r has none (*failed as above). */
cJSON *output_sprandom_json(const struct job_result *r, bool *failed);
/* The summary's steadystate and sprandom lines, when r has them. */
void output_checks_summary(FILE *f, const struct job_result *r);

#endif
