/* file_option_table.h - private to src/job/: the table of the file
 * set's options (file_options.c), which options.c lists with OPTION_GROUP. */
#ifndef DRIVEBENCH_FILE_OPTION_TABLE_H
#define DRIVEBENCH_FILE_OPTION_TABLE_H

#include "job/option_table.h"

#define FILE_OPTIONS_NR 12
extern const struct option_def file_options[FILE_OPTIONS_NR];

#endif
