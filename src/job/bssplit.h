/* bssplit.h - private to src/job/: the bssplit and bssplit_file
 * options (bssplit.c), set through the option table in options.c. */
#ifndef DRIVEBENCH_BSSPLIT_H
#define DRIVEBENCH_BSSPLIT_H

#include "job/job_spec.h"

/* bssplit=4k/10:64k/50:32k/40[,W-SPLIT]; 0 or -1 with err_msg. */
int bssplit_option_set(struct job_spec *spec, const char *value);
/* bssplit_file=PATH: both directions' split from the file; errors name
 * "file:line". */
int bssplit_file_option_set(struct job_spec *spec, const char *value);

#endif
