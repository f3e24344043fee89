/* check_option_table.h - the table of check_options.c, declared with its
 * length so that options.c can list it (OPTION_GROUP takes its sizeof).
 * Only options.c includes this; check_options.c asserts the length. */
#ifndef DRIVEBENCH_CHECK_OPTION_TABLE_H
#define DRIVEBENCH_CHECK_OPTION_TABLE_H

#include "job/check_options.h"

extern const struct option_def check_options[CHECK_OPTIONS_NR];

#endif
