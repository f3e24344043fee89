/* job_output_table.h - the log options' table (job_output.c), for
 * options.c's option_groups[]. The count is part of the type, so the
 * definition must match it. */
#ifndef DRIVEBENCH_JOB_OUTPUT_TABLE_H
#define DRIVEBENCH_JOB_OUTPUT_TABLE_H

#include "job/option_table.h"

#define JOB_OUTPUT_OPTIONS 12
extern const struct option_def job_output_table[JOB_OUTPUT_OPTIONS];

#endif
