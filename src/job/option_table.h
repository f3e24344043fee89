/* option_table.h - how a job option is declared: its fio name (and
 * alias), where it lands in struct job_spec and its range, or the function
 * that sets it. The core options live in options.c; an area with options of
 * its own (an engine, file sets, pacing, logs ...) declares them in a table
 * of its own (struct option_group) that options.c lists, so each area owns
 * its options (docs/options.md lists them all). */
#ifndef DRIVEBENCH_OPTION_TABLE_H
#define DRIVEBENCH_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job_spec.h"

/* Sets a job option from its text (NULL for a bare flag); 0 or -1 with
 * err_msg (the caller adds "option 'x'"). */
typedef int (*option_fn)(struct job_spec *spec, const char *value);

enum option_type {
	OPT_BOOL,          /* bool field; bare flag = 1 */
	OPT_BOOL_INVERSE,  /* bool field set to !value (buffered -> direct) */
	OPT_UINT,          /* unsigned field within [min, max] */
	OPT_SIZE,          /* uint64_t bytes within [min, max] */
	OPT_TIME,          /* uint64_t ns within [min, max]; bare number in unit_ns */
	OPT_STRING,        /* char array of size bytes */
	OPT_FUNC,          /* fn does it all; gets NULL for a bare flag */
};

struct option_def {
	const char *name;
	const char *alias;
	enum option_type type;
	size_t offset, size;
	uint64_t min, max;    /* the range of UINT, SIZE and TIME */
	uint64_t unit_ns;     /* OPT_TIME default unit */
	option_fn fn;
	bool bare_ok;         /* may appear without a value (a flag) */
};

#define FIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)
#define BOOL(n, f) { n, NULL, OPT_BOOL, FIELD(f), 0, 0, 0, NULL, true }
#define UINT(n, a, f, lo, hi) { n, a, OPT_UINT, FIELD(f), lo, hi, 0, NULL }
#define SIZE(n, a, f, lo, hi) { n, a, OPT_SIZE, FIELD(f), lo, hi, 0, NULL }
#define TIME(n, a, f, unit, lo, hi) { n, a, OPT_TIME, FIELD(f), lo, hi, unit, NULL }
#define STRING(n, f) { n, NULL, OPT_STRING, FIELD(f), 0, 0, 0, NULL }
#define FUNC(n, a, fn) { n, a, OPT_FUNC, 0, 0, 0, 0, 0, fn, false }
#define FLAG_FUNC(n, a, fn) { n, a, OPT_FUNC, 0, 0, 0, 0, 0, fn, true }

/* One area's table. */
struct option_group {
	const struct option_def *defs;
	size_t nr;
};

#define OPTION_GROUP(table) { table, sizeof(table) / sizeof(table[0]) }


#endif
