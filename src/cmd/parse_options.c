/* parse_options.c - parses a command's argv from its option table and
 * prints the --help the same table describes (parse_options.h). */
#include "cmd/parse_options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/units.h"
#include "job/options.h"

#define HELP_COLUMN 27   /* where the help text of an option starts */

static const struct cmdopt *find_long(const struct cmdopt_spec *spec, const char *arg,
				      size_t len)
{
	for (size_t i = 0; i < spec->nr_options; i++) {
		const struct cmdopt *o = &spec->options[i];

		if (o->name && strlen(o->name) == len && !strncmp(o->name, arg, len))
			return o;
	}
	return NULL;
}

static const struct cmdopt *find_short(const struct cmdopt_spec *spec, char c)
{
	for (size_t i = 0; i < spec->nr_options; i++)
		if (spec->options[i].short_name == c)
			return &spec->options[i];
	return NULL;
}

static bool needs_value(const struct cmdopt *o)
{
	return o->kind == CMDOPT_STRING || o->kind == CMDOPT_APPEND || o->kind == CMDOPT_SIZE ||
	       o->kind == CMDOPT_UINT || o->kind == CMDOPT_U64 ||
	       (o->kind == CMDOPT_CALLBACK && o->takes_value);
}

/* A decimal number in the option's range, said with the range. */
static int parse_number(const struct cmdopt *o, const char *value, uint64_t *out)
{
	if (units_parse_count(value, o->min, o->max, out))
		return err_prefix("%s", o->name);
	return 0;
}

static int apply(const struct cmdopt *o, void *args, const char *value, int argc)
{
	char *base = args;

	switch (o->kind) {
	case CMDOPT_FLAG:
		*(bool *)(base + o->offset) = true;
		return 0;
	case CMDOPT_STRING:
		if (!value[0])
			return err_set("%s needs a value", o->name);
		*(const char **)(base + o->offset) = value;
		return 0;
	case CMDOPT_APPEND: {
		const char ***list = (const char ***)(base + o->offset);
		unsigned *nr = (unsigned *)(base + o->offset2);

		if (!value[0])
			return err_set("%s needs a value", o->name);
		if (!*list && !(*list = calloc((size_t)argc + 1, sizeof(**list))))
			return err_set("out of memory");
		(*list)[(*nr)++] = value;
		return 0;
	}
	case CMDOPT_SIZE: {
		uint64_t bytes;

		if (parse_size(value, 1024, &bytes) || bytes == 0)
			return err_set("%s: bad size '%s'", o->name, value);
		*(uint64_t *)(base + o->offset) = bytes;
		return 0;
	}
	case CMDOPT_UINT:
	case CMDOPT_U64: {
		uint64_t n = 0;

		if (parse_number(o, value, &n))
			return -1;
		if (o->kind == CMDOPT_UINT)
			*(unsigned *)(base + o->offset) = (unsigned)n;
		else
			*(uint64_t *)(base + o->offset) = n;
		return 0;
	}
	case CMDOPT_CALLBACK:
		return o->fn(args, o, value);
	}
	return err_set("%s: bad option kind", o->name);
}

/* One option at argv[*i]: its value is after '=' or the next argument. */
static int parse_one(const struct cmdopt_spec *spec, const struct cmdopt *o,
		     const char *inline_value, int argc, char **argv, int *i, void *args)
{
	const char *value = inline_value;

	if (!needs_value(o)) {
		if (inline_value)
			return err_set("%s takes no value (got '%s')", o->name, inline_value);
		return apply(o, args, NULL, argc);
	}
	if (!value) {
		if (*i + 1 >= argc)
			return err_set("%s needs a value (%s)", o->name, o->arg ? o->arg : "VALUE");
		value = argv[++*i];
	}
	(void)spec;
	return apply(o, args, value, argc);
}

static int unknown(const struct cmdopt_spec *spec, const char *arg)
{
	return err_set("unknown option '%s' (see 'drivebench %s --help')", arg, spec->command);
}

int cmdopt_parse(const struct cmdopt_spec *spec, int argc, char **argv, void *args)
{
	bool options_done = false;

	err_clear();
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			break;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmdopt_help(stdout, spec);
			return 1;
		}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const struct cmdopt *o = NULL;
		const char *eq = NULL;

		if (!options_done && !strcmp(arg, "--")) {
			options_done = true;
			continue;
		}
		if (options_done || arg[0] != '-' || !arg[1]) {
			if (!spec->positional)
				return err_set("unexpected argument '%s' (see 'drivebench %s --help')",
					       arg, spec->command);
			if (spec->positional(args, arg))
				return -1;
			continue;
		}
		if (arg[1] == '-') {
			eq = strchr(arg, '=');
			o = find_long(spec, arg, eq ? (size_t)(eq - arg) : strlen(arg));
			if (!o && spec->pass_unknown && spec->positional) {
				if (spec->positional(args, arg))
					return -1;
				continue;
			}
		} else {
			/* gdsio-style options are named "-x" in the table */
			o = find_long(spec, arg, strlen(arg));
			if (!o && !arg[2])
				o = find_short(spec, arg[1]);
		}
		if (!o)
			return unknown(spec, arg);
		if (parse_one(spec, o, eq ? eq + 1 : NULL, argc, argv, &i, args))
			return -1;
	}
	return 0;
}

/* "  -f, --name ARG" padded to HELP_COLUMN, then the help's lines. */
static void help_line(FILE *out, const struct cmdopt *o)
{
	char left[128];
	const char *text = o->help ? o->help : "";
	int n;

	if (o->short_name)
		n = snprintf(left, sizeof(left), "  -%c, %s", o->short_name, o->name);
	else
		n = snprintf(left, sizeof(left), "  %s", o->name);
	if (o->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->arg);
	fputs(left, out);
	n = (int)strlen(left);
	if (n >= HELP_COLUMN - 1) {
		fputc('\n', out);
		n = 0;
	}
	for (;;) {
		const char *nl = strchr(text, '\n');
		int len = nl ? (int)(nl - text) : (int)strlen(text);

		fprintf(out, "%*s%.*s\n", HELP_COLUMN - n, "", len, text);
		if (!nl)
			break;
		text = nl + 1;
		n = 0;
	}
}

void cmdopt_help(FILE *out, const struct cmdopt_spec *spec)
{
	const char *s = spec->synopsis;

	for (bool first = true; s && *s; first = false) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		if (!first && s[0] == ' ')   /* a form's continuation, as written */
			fprintf(out, "%.*s\n", len, s);
		else
			fprintf(out, "%s drivebench %.*s\n", first ? "usage:" : "      ", len, s);
		s = nl ? nl + 1 : s + len;
	}
	if (spec->about)
		fprintf(out, "\n%s", spec->about);
	if (!spec->nr_options || spec->options[0].name)
		fputs("\noptions:\n", out);
	else
		fputc('\n', out);
	for (size_t i = 0; i < spec->nr_options; i++)
		if (spec->options[i].name)
			help_line(out, &spec->options[i]);
		else   /* a group's heading */
			fprintf(out, "%s\n", spec->options[i].help);
	help_line(out, &(struct cmdopt){ .name = "--help", .short_name = 'h',
					  .help = "this text" });
	if (spec->footer)
		fprintf(out, "\n%s", spec->footer);
}
