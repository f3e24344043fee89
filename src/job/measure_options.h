/* measure_options.h - the option table of struct job_measure
 * (job_measure.h), one of options.c's option groups. */
#ifndef DRIVEBENCH_MEASURE_OPTIONS_H
#define DRIVEBENCH_MEASURE_OPTIONS_H

#include "job/option_table.h"

#define MEASURE_OPTIONS_NR 3
extern const struct option_def measure_options[MEASURE_OPTIONS_NR];

#endif
