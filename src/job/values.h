/* values.h - private to src/job/: the bounds every option is checked
 * against (util/units.h's units_check_range says the range in the message:
 * "0 is too small, the range is 1..65536"), and the job layer's value
 * readers: numbers with fio's expressions, percentages, lists. Sizes, times
 * and CPU lists are public in options.h; booleans and decimals are
 * units_parse_bool and units_parse_double. */
#ifndef DRIVEBENCH_VALUES_H
#define DRIVEBENCH_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/units.h"

#define NS_PER_US UNITS_NS_PER_US
#define NS_PER_MS UNITS_NS_PER_MS
#define NS_PER_SEC UNITS_NS_PER_SEC
#define NS_PER_DAY UNITS_NS_PER_DAY

/* The ranges of docs/options.md. */
#define SIZE_LIMIT (1ull << 60)          /* sizes and offsets: 1 EiB */
#define BS_LIMIT (4ull << 30)            /* a block size: 4 GiB */
#define CHUNK_MIN 512ull
#define CHUNK_LIMIT (1ull << 30)         /* one transfer: 1 GiB fits int32 results */
#define TIME_LIMIT (365 * NS_PER_DAY)    /* runtime, latencies: a year */
#define RAMP_LIMIT (30 * NS_PER_DAY)
#define SERIES_INTERVAL_MIN NS_PER_MS    /* the database keeps ms */
#define SERIES_INTERVAL_LIMIT NS_PER_DAY
#define IODEPTH_LIMIT 65536u
#define NUMJOBS_LIMIT 4096u              /* fio's FIO_MAX_JOBS */
/* a job list: sections and clones (numjobs summed) as fio's FIO_MAX_JOBS,
 * checked as each section is read; include lines in all the files */
#define JOB_SECTIONS_LIMIT 4096u
#define JOB_CLONES_LIMIT 4096u
#define JOB_INCLUDES_LIMIT 1024u
#define VERIFY_UNIT_MIN 64ull
#define VERIFY_BACKLOG_LIMIT (1u << 24)
#define ZIPF_THETA_LIMIT 1000.0
#define NORMAL_SIGMA_LIMIT 1000.0        /* percent of the range */
#define PCT_TOLERANCE 0.001

/* Unsigned integer: decimal, hex with 0x, or fio's "(expression)". No
 * sign, no blanks, no junk ("bad number 'X'", or the expression's error). */
int parse_u64_plain(const char *text, uint64_t *out);
/* A whole percentage 0..100, as fio's percentage options take it (an
 * expression too): "bad number 'x'" or the range error. */
int parse_percent_uint(const char *text, unsigned *out);
/* Splits text at sep into at most max_parts pieces copied into parts[i]
 * (256 bytes each). Returns the count, or -1 when too many / too long. */
int split_text(const char *text, char sep, char parts[][256], int max_parts);

#endif
