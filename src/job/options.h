/* options.h - fio option names -> job_spec fields, and the value parsers
 * (sizes, times, percentages) every front end shares. */
#ifndef DRIVEBENCH_OPTIONS_H
#define DRIVEBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job_spec.h"

/* Sets one option from its fio name and text. value is NULL for a bare
 * flag ("direct" alone means direct=1). Returns 0, or -1 with err_msg such
 * as "unknown option 'foo'" or "option 'bs': bad size 'x'"; callers add the
 * file and line. An option drivebench does not support is always an error. */
int job_option_set(struct job_spec *spec, const char *key, const char *value);

/* The name of the i-th option of the table (NULL past the last), for
 * tests and help that walk every option. */
const char *job_option_name(unsigned i);

/* True when key names an option job_option_set accepts. */
bool job_option_known(const char *key);

/* Sizes as fio reads them, with its kb_base rules (in the default 1024
 * "compatibility mode" 4k = 4KB = 4096 and 4KiB = 4000; kb_base=1000 flips
 * that). Suffixes k m g t p, optional trailing "b"/"ib"; plain number = bytes.
 * Rejects empty, negative, overflow. */
int parse_size(const char *text, unsigned kb_base, uint64_t *out);

/* Time with a unit: "30" (in default_unit_ns), "30s", "500ms", "10us",
 * "2m", "1h", "1d". */
int parse_time_ns(const char *text, uint64_t default_unit_ns, uint64_t *out);

/* A time as the options write it: "1ms", "365d", "1500us". */
char *format_time_ns(uint64_t ns, char *out, size_t len);

/* "0-3,6" -> count of CPUs, and fills set (a cpu_set_t) when non-NULL. */
int parse_cpu_list(const char *text, void *cpu_set);

#endif
