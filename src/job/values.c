/* values.c - the value parsers every job option shares: integers, decimal
 * numbers, booleans, sizes with fio's kb_base rules, times with units, CPU
 * lists, lists split at a separator; and the bounds check whose message
 * gives the range ("1ns is too small, the range is 1ms..1d"). */
#include "job/values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
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
	char *end;
	int base = 10;
	unsigned long long value;

	if (text && text[0] == '(')
		return expr_eval(text, count_number, NULL, out);
	if (!text || !isdigit((unsigned char)text[0]))
		return -1;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		if (!isxdigit((unsigned char)text[2]))
			return -1;
		base = 16;
	}
	errno = 0;
	value = strtoull(text, &end, base);
	if (errno == ERANGE || *end != '\0')
		return -1;
	*out = value;
	return 0;
}

int parse_double_plain(const char *text, double *out)
{
	char *end;
	double value;

	if (!text || !(isdigit((unsigned char)text[0]) || text[0] == '.' ||
		       text[0] == '-' || text[0] == '+'))
		return -1;
	errno = 0;
	value = strtod(text, &end);
	if (errno == ERANGE || *end != '\0' || end == text || !isfinite(value))
		return -1;
	*out = value;
	return 0;
}

bool parse_bool_text(const char *text, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	if (!text) {
		*out = true;
		return true;
	}
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(text, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcasecmp(text, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

static int mul_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return 1;
	*out = a * b;
	return 0;
}

/* Multiplier of a size suffix (already lower case), or 0 when unknown.
 * fio's "compatibility mode": with kb_base=1024, k/kb are 1024 and kib is
 * 1000; kb_base=1000 flips both. */
static uint64_t size_multiplier(const char *suffix, unsigned kb_base)
{
	static const char letters[] = "kmgtp";
	unsigned alternate = kb_base == 1024 ? 1000 : 1024;
	const char *pos;
	uint64_t mult = 1, base;
	int power;

	if (suffix[0] == '\0' || !strcmp(suffix, "b"))
		return 1;
	pos = strchr(letters, suffix[0]);
	if (!pos)
		return 0;
	power = (int)(pos - letters) + 1;
	if (suffix[1] == '\0' || !strcmp(suffix + 1, "b"))
		base = kb_base;
	else if (!strcmp(suffix + 1, "ib"))
		base = alternate;
	else
		return 0;
	while (power--)
		mult *= base;   /* at most 1024^5: cannot overflow */
	return mult;
}

int parse_size(const char *text, unsigned kb_base, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, frac_scale = 1, mult, result;
	char suffix[8];
	const char *p = text;
	size_t len;

	if (kb_base != 1000 && kb_base != 1024)
		return err_set("bad kb_base %u", kb_base);
	if (text && text[0] == '(')
		return expr_eval(text, size_number, &kb_base, out);
	if (!text || (!isdigit((unsigned char)text[0]) &&
		      !(text[0] == '.' && isdigit((unsigned char)text[1]))))
		return err_set("bad size '%s'", text ? text : "");
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return parse_u64_plain(text, out) ?
			err_set("bad size '%s'", text) : 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (mul_overflows(whole, 10, &whole) || whole > UINT64_MAX - (uint64_t)(*p - '0'))
			return err_set("bad size '%s': too large", text);
		whole += (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return err_set("bad size '%s'", text);
		/* keep 18 digits: enough for any byte count, fits in 64 bits */
		for (; isdigit((unsigned char)*p); p++) {
			if (frac_scale >= 1000000000000000000ull)
				continue;
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_scale *= 10;
		}
	}
	len = strlen(p);
	if (len >= sizeof(suffix))
		return err_set("bad size '%s'", text);
	for (size_t i = 0; i <= len; i++)
		suffix[i] = (char)tolower((unsigned char)p[i]);
	mult = size_multiplier(suffix, kb_base);
	if (mult == 0)
		return err_set("bad size '%s'", text);
	if (mul_overflows(whole, mult, &result))
		return err_set("bad size '%s': too large", text);
	if (frac) {
		/* fraction of the unit, truncated to whole bytes */
		unsigned __int128 part = (unsigned __int128)frac * mult / frac_scale;

		if (part > UINT64_MAX - result)
			return err_set("bad size '%s': too large", text);
		result += (uint64_t)part;
	}
	*out = result;
	return 0;
}

int parse_time_ns(const char *text, uint64_t default_unit_ns, uint64_t *out)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", NS_PER_US }, { "usec", NS_PER_US },
		{ "ms", NS_PER_MS }, { "msec", NS_PER_MS },
		{ "s", NS_PER_SEC }, { "sec", NS_PER_SEC },
		{ "m", 60 * NS_PER_SEC }, { "min", 60 * NS_PER_SEC },
		{ "h", 3600 * NS_PER_SEC }, { "hour", 3600 * NS_PER_SEC },
		{ "d", 86400 * NS_PER_SEC }, { "day", 86400 * NS_PER_SEC },
	};
	uint64_t value = 0, unit = 0;
	const char *p = text;

	if (text && text[0] == '(')
		return expr_eval(text, time_number, &default_unit_ns, out);
	if (!text || !isdigit((unsigned char)text[0]))
		return err_set("bad time '%s'", text ? text : "");
	for (; isdigit((unsigned char)*p); p++) {
		if (mul_overflows(value, 10, &value) || value > UINT64_MAX - (uint64_t)(*p - '0'))
			return err_set("bad time '%s': too large", text);
		value += (uint64_t)(*p - '0');
	}
	if (*p == '\0') {
		unit = default_unit_ns;
	} else {
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(p, units[i].name))
				unit = units[i].ns;
	}
	if (unit == 0)
		return err_set("bad time '%s'", text);
	if (mul_overflows(value, unit, out))
		return err_set("bad time '%s': too large", text);
	return 0;
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

char *value_format(uint64_t v, enum value_kind kind, char *out, size_t len)
{
	static const struct { const char *name; uint64_t ns; } times[] = {
		{ "d", NS_PER_DAY }, { "h", 3600 * NS_PER_SEC }, { "m", 60 * NS_PER_SEC },
		{ "s", NS_PER_SEC }, { "ms", NS_PER_MS }, { "us", NS_PER_US },
	};
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

	if (kind == VALUE_NS) {
		for (size_t i = 0; v && i < sizeof(times) / sizeof(times[0]); i++)
			if (v % times[i].ns == 0) {
				snprintf(out, len, "%llu%s", (unsigned long long)(v / times[i].ns),
					 times[i].name);
				return out;
			}
		snprintf(out, len, v ? "%lluns" : "%llu", (unsigned long long)v);
		return out;
	}
	if (kind == VALUE_BYTES) {
		uint64_t scale = 1ull << 60;

		for (int u = 5; u >= 0; u--, scale >>= 10)
			if (v >= scale && v % scale == 0) {
				snprintf(out, len, "%llu %s", (unsigned long long)(v / scale), units[u]);
				return out;
			}
		snprintf(out, len, "%llu byte%s", (unsigned long long)v, v == 1 ? "" : "s");
		return out;
	}
	snprintf(out, len, "%llu", (unsigned long long)v);
	return out;
}

int value_in_range(uint64_t v, uint64_t lo, uint64_t hi, enum value_kind kind,
		   const char *text)
{
	char low[32], high[32];

	if (v >= lo && v <= hi)
		return 0;
	value_format(lo, kind, low, sizeof(low));
	value_format(hi, kind, high, sizeof(high));
	return err_set("%s is too %s, the range is %s..%s", text ? text : "",
		       v < lo ? "small" : "large", low, high);
}

char *format_time_ns(uint64_t ns, char *out, size_t len)
{
	return value_format(ns, VALUE_NS, out, len);
}

int parse_percent_uint(const char *text, unsigned *out)
{
	uint64_t pct;

	if (parse_u64_plain(text, &pct))
		return err_set("bad number '%s'", text);
	if (value_in_range(pct, 0, 100, VALUE_COUNT, text))
		return -1;
	*out = (unsigned)pct;
	return 0;
}
