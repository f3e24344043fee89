/* buffering_options.h - the option table of job/buffering.h's options
 * (buffer contents, fdatasync, fsync_on_close, invalidate, fadvise_hint),
 * for options.c's list of groups. */
#ifndef DRIVEBENCH_BUFFERING_OPTIONS_H
#define DRIVEBENCH_BUFFERING_OPTIONS_H

#include "job/option_table.h"

#define BUFFERING_OPTIONS_NR 14
extern const struct option_def buffering_options[BUFFERING_OPTIONS_NR];

#endif
