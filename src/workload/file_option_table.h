/* file_option_table.h - private to src/workload/: the table of the file
 * set's options (file_options.c), which options.c lists with OPTION_GROUP. */
#ifndef DRIVEBENCH_FILE_OPTION_TABLE_H
#define DRIVEBENCH_FILE_OPTION_TABLE_H

#include "workload/option_table.h"

#define FILE_OPTIONS_NR 11
extern const struct option_def file_options[FILE_OPTIONS_NR];

#endif
