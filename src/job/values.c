/* values.c - the job layer's side of the value parsers: fio's
 * parenthesised expressions (expr.c) around util/units.c's sizes, times,
 * counts and percentages; CPU lists; lists split at a separator. */
#include "job/values.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/units.h"
#include "job/expr.h"
#include "job/options.h"

/* fio evaluates a numeric value in parentheses: size=(4k*3) (expr.c).
 * Each number in it is read by the option's own parser. */
static int count_number(const char *text, void *ctx, uint64_t *out)
{
	(void)ctx;
	return parse_u64_plain(text, out) ? err_set("bad number '%s'", text) : 0;
}

static int size_number(const char *text, void *ctx, uint64_t *out)
{
	return parse_size(text, *(const unsigned *)ctx, out);
}

static int time_number(const char *text, void *ctx, uint64_t *out)
{
	return parse_time_ns(text, *(const uint64_t *)ctx, out);
}

int parse_u64_plain(const char *text, uint64_t *out)
{
	if (text && text[0] == '(')
		return expr_eval(text, count_number, NULL, out);
	return units_parse_u64(text, out);
}

int parse_size(const char *text, unsigned kb_base, uint64_t *out)
{
	if (kb_base != 1000 && kb_base != 1024)
		return err_set("bad kb_base %u", kb_base);
	if (text && text[0] == '(')
		return expr_eval(text, size_number, &kb_base, out);
	return units_parse_size(text, kb_base, out);
}

int parse_time_ns(const char *text, uint64_t default_unit_ns, uint64_t *out)
{
	if (text && text[0] == '(')
		return expr_eval(text, time_number, &default_unit_ns, out);
	return units_parse_duration(text, default_unit_ns, out);
}

static int parse_cpu_number(const char **p, const char *text, unsigned *cpu)
{
	unsigned long value;
	char *end;

	if (!isdigit((unsigned char)**p))
		return err_set("bad CPU list '%s'", text);
	errno = 0;
	value = strtoul(*p, &end, 10);
	if (errno == ERANGE || value >= CPU_SETSIZE)
		return err_set("bad CPU list '%s': CPU out of range (max %d)", text,
			       CPU_SETSIZE - 1);
	*cpu = (unsigned)value;
	*p = end;
	return 0;
}

int parse_cpu_list(const char *text, void *cpu_set)
{
	cpu_set_t seen;
	const char *p = text;

	if (!text || !*text)
		return err_set("bad CPU list '%s'", text ? text : "");
	CPU_ZERO(&seen);
	for (;;) {
		unsigned first, last;

		if (parse_cpu_number(&p, text, &first))
			return -1;
		last = first;
		if (*p == '-') {
			p++;
			if (parse_cpu_number(&p, text, &last))
				return -1;
			if (last < first)
				return err_set("bad CPU list '%s': range %u-%u runs backwards",
					       text, first, last);
		}
		for (unsigned cpu = first; cpu <= last; cpu++)
			CPU_SET(cpu, &seen);
		if (*p == '\0')
			break;
		if (*p != ',')
			return err_set("bad CPU list '%s'", text);
		p++;
	}
	if (cpu_set)
		memcpy(cpu_set, &seen, sizeof(seen));
	return CPU_COUNT(&seen);
}

int split_text(const char *text, char sep, char parts[][256], int max_parts)
{
	int count = 0;
	const char *start = text;

	for (;;) {
		const char *end = strchr(start, sep);
		size_t len = end ? (size_t)(end - start) : strlen(start);

		if (count == max_parts || len >= 256)
			return -1;
		memcpy(parts[count], start, len);
		parts[count][len] = '\0';
		count++;
		if (!end)
			return count;
		start = end + 1;
	}
}

char *format_time_ns(uint64_t ns, char *out, size_t len)
{
	return units_format_duration(ns, out, len);
}

int parse_percent_uint(const char *text, unsigned *out)
{
	uint64_t pct;

	if (!text || text[0] != '(')
		return units_parse_percent(text, out);
	/* "(50+25)": the expression's value, checked as any percentage */
	if (parse_u64_plain(text, &pct))
		return err_set("bad number '%s'", text);
	if (units_check_range(pct, 0, 100, UNITS_COUNT, text))
		return -1;
	*out = (unsigned)pct;
	return 0;
}
