/* distribution.h - private to src/job/: the random_distribution and
 * percentile_list options (distribution.c), set through the option table
 * in options.c. */
#ifndef DRIVEBENCH_DISTRIBUTION_H
#define DRIVEBENCH_DISTRIBUTION_H

#include "job/job_spec.h"

/* random_distribution=random|zipf:T|pareto:H|normal:S|zoned:...|zoned_abs:... */
int distribution_option_set(struct job_spec *spec, const char *value);
/* percentile_list=P1:P2:...; each 0 < p <= 100, at most 64. */
int percentile_option_set(struct job_spec *spec, const char *value);

#endif
