/* engine_opts_table.h - the table of engine_opts.c's general options
 * (threads, gtod_reduce, disable_*, nice, prio, NUMA, atomic ...), sized
 * so options.c can list it as one option_group. */
#ifndef DRIVEBENCH_ENGINE_OPTS_TABLE_H
#define DRIVEBENCH_ENGINE_OPTS_TABLE_H

#include "job/option_table.h"

#define ENGINE_OPTS_NR 15
extern const struct option_def engine_opts_table[ENGINE_OPTS_NR];

#endif
