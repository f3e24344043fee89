/* check_options.h - the options of job/checks.h: their table (one of
 * options.c's groups), the verify method names and the cross-checks
 * job_spec_validate makes of them. */
#ifndef DRIVEBENCH_CHECK_OPTIONS_H
#define DRIVEBENCH_CHECK_OPTIONS_H

#include <stdbool.h>

#include "job/job_spec.h"
#include "job/option_table.h"

#define SPR_REGIONS_LIMIT 1000000u    /* spr_num_regions */
#define SS_INTERVALS_LIMIT 1000000u   /* ss_dur / ss_interval */

/* The table's length, for options.c's OPTION_GROUP(check_options) (the
 * definition asserts it; check_option_table.h declares the table). */
#define CHECK_OPTIONS_NR 20

/* fio's name of a method: "crc32c", "md5", "sha3-256", "pattern" ... */
const char *verify_method_name(enum verify_kind kind);

/* The cross-checks of these options (steady-state window, sprandom's
 * requirements, verify=pattern needing a pattern). 0, or -1 with err_msg
 * naming the option. */
int job_checks_validate(const struct job_spec *spec);

/* Whether the job's options (as written, global ones included) set key. */
bool job_checks_option_given(const struct job_spec *spec, const char *key);

#endif
