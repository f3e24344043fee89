/* parse_options.h - a command's options as one table (after git's
 * parse-options): the same table parses argv and prints --help, so an
 * option and its help line can never disagree. Values land in the
 * command's own argument struct (offsets), or go to a callback that checks
 * them. "--name VALUE", "--name=VALUE", "-x VALUE" and "--" are understood;
 * an unknown option is an error naming it. */
#ifndef DRIVEBENCH_PARSE_OPTIONS_H
#define DRIVEBENCH_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cmdopt_kind {
	CMDOPT_FLAG,       /* bool at offset; no value */
	CMDOPT_STRING,     /* const char * at offset; a non-empty value */
	CMDOPT_APPEND,     /* const char ** array at offset, unsigned count at
			    * offset2: every use appends (repeatable) */
	CMDOPT_SIZE,       /* uint64_t bytes at offset, more than 0 (fio's units) */
	CMDOPT_UINT,       /* unsigned at offset, a decimal number in [min, max] */
	CMDOPT_U64,        /* uint64_t at offset, a decimal number in [min, max] */
	CMDOPT_CALLBACK,   /* fn(args, option, value); value NULL for a flag */
};

struct cmdopt;
typedef int (*cmdopt_fn)(void *args, const struct cmdopt *o, const char *value);

struct cmdopt {
	const char *name;       /* "--db", or "-x" for an option with no long
				 * name (gdsio's); NULL for a CMDOPT_GROUP */
	char short_name;        /* 'f' for -f, or 0 */
	enum cmdopt_kind kind;
	size_t offset, offset2;
	cmdopt_fn fn;
	bool takes_value;       /* CALLBACK: it needs a value */
	const char *arg;        /* the value's name in --help: "FILE" */
	const char *help;       /* its text; '\n' continues on the next line */
	uint64_t min, max;      /* CMDOPT_UINT and CMDOPT_U64 */
};

#define CMDOPT_FLAG(n, s, st, f, h) \
	{ n, s, CMDOPT_FLAG, offsetof(st, f), 0, NULL, false, NULL, h }
#define CMDOPT_STRING(n, s, st, f, a, h) \
	{ n, s, CMDOPT_STRING, offsetof(st, f), 0, NULL, true, a, h }
#define CMDOPT_APPEND(n, st, f, nf, a, h) \
	{ n, 0, CMDOPT_APPEND, offsetof(st, f), offsetof(st, nf), NULL, true, a, h }
#define CMDOPT_SIZE(n, st, f, h) \
	{ n, 0, CMDOPT_SIZE, offsetof(st, f), 0, NULL, true, "SIZE", h }
#define CMDOPT_UINT(n, st, f, lo, hi, h) \
	{ n, 0, CMDOPT_UINT, offsetof(st, f), 0, NULL, true, "N", h, lo, hi }
#define CMDOPT_U64(n, st, f, lo, hi, h) \
	{ n, 0, CMDOPT_U64, offsetof(st, f), 0, NULL, true, "N", h, lo, hi }
#define CMDOPT_VALUE_FN(n, s, fn, a, h) \
	{ n, s, CMDOPT_CALLBACK, 0, 0, fn, true, a, h }
#define CMDOPT_FLAG_FN(n, fn, h) \
	{ n, 0, CMDOPT_CALLBACK, 0, 0, fn, false, NULL, h }

struct cmdopt_spec {
	const char *command;    /* "report" */
	/* after "usage: drivebench ", '\n' between forms; a line that starts
	 * with a space continues the form above as written */
	const char *synopsis;
	const char *about;      /* paragraphs after the synopsis */
	const struct cmdopt *options;
	size_t nr_options;
	const char *footer;     /* after the options (exit codes, docs) */
	/* each argument that is not an option; NULL: none are taken */
	int (*positional)(void *args, const char *value);
	/* a "--x" the table does not know goes to positional as it is (run's
	 * fio options) instead of being an error */
	bool pass_unknown;
};

/* A heading in --help ("sweep:"); parsing skips it. */
#define CMDOPT_GROUP(h) { NULL, 0, CMDOPT_FLAG, 0, 0, NULL, false, NULL, h }

#define CMDOPT_COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* Parses argv[1..argc) into args. Arrays of CMDOPT_APPEND options that are
 * NULL are allocated (argc entries; the caller frees them). Returns 0, 1
 * when --help was printed (exit 0), or -1 with err_msg naming the option
 * ("--db needs a value", "unknown option '--x'"). */
int cmdopt_parse(const struct cmdopt_spec *spec, int argc, char **argv, void *args);

/* The --help text generated from the table. */
void cmdopt_help(FILE *out, const struct cmdopt_spec *spec);

#endif
