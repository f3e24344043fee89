/* values.h - private to src/workload/: the value parsers the option
 * handlers share (integers, decimals, booleans, lists) and the bounds every
 * option is checked against, with the range in the message:
 * "0 is too small, the range is 1..65536". Sizes, times and CPU lists are
 * public in options.h. */
#ifndef DRIVEBENCH_VALUES_H
#define DRIVEBENCH_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_SEC 1000000000ull
#define NS_PER_DAY (86400ull * NS_PER_SEC)

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
#define VERIFY_UNIT_MIN 64ull
#define VERIFY_BACKLOG_LIMIT (1u << 24)
#define ZIPF_THETA_LIMIT 1000.0
#define NORMAL_SIGMA_LIMIT 1000.0        /* percent of the range */
#define PCT_TOLERANCE 0.001

/* How a bound is written in a message. */
enum value_kind {
	VALUE_COUNT,   /* 65536 */
	VALUE_BYTES,   /* 512 bytes, 4 GiB */
	VALUE_NS,      /* 1ms, 365d */
};

/* Unsigned integer: decimal, or hex with 0x. No sign, no blanks, no junk. */
int parse_u64_plain(const char *text, uint64_t *out);
/* Finite decimal number; rejects blanks, junk, nan and inf. */
int parse_double_plain(const char *text, double *out);
/* 1/0, true/false, yes/no, on/off (any case); NULL (a bare flag) is true. */
bool parse_bool_text(const char *text, bool *out);
/* A whole percentage 0..100, as fio's percentage options take it:
 * "bad number 'x'" or the range error. */
int parse_percent_uint(const char *text, unsigned *out);
/* Splits text at sep into at most max_parts pieces copied into parts[i]
 * (256 bytes each). Returns the count, or -1 when too many / too long. */
int split_text(const char *text, char sep, char parts[][256], int max_parts);

/* lo <= v <= hi, or -1 with "TEXT is too small, the range is LO..HI" (or
 * too large); text is the value as written. */
int value_in_range(uint64_t v, uint64_t lo, uint64_t hi, enum value_kind kind,
		   const char *text);
/* A bound as people write it: "65536", "512 bytes", "4 GiB", "1ms", "365d". */
char *value_format(uint64_t v, enum value_kind kind, char *out, size_t len);

#endif
