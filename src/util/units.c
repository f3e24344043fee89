/* units.c - the one parser and formatter of sizes, durations, rates,
 * percentages, counts and booleans (units.h). The size rule is fio's
 * (parse.c: __get_mult_bytes), kb_base included. */
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int mul_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return 1;
	*out = a * b;
	return 0;
}

/* Leading decimal digits of *p into *value, advancing *p; 1 on overflow. */
static int read_digits(const char **p, uint64_t *value)
{
	for (; isdigit((unsigned char)**p); (*p)++) {
		if (mul_overflows(*value, 10, value) ||
		    *value > UINT64_MAX - (uint64_t)(**p - '0'))
			return 1;
		*value += (uint64_t)(**p - '0');
	}
	return 0;
}

/* ---- parsers */

int units_parse_u64(const char *text, uint64_t *out)
{
	char *end;
	int base = 10;
	unsigned long long value;

	if (!text || !isdigit((unsigned char)text[0]))
		return err_set("bad number '%s'", text ? text : "");
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		if (!isxdigit((unsigned char)text[2]))
			return err_set("bad number '%s'", text);
		base = 16;
	}
	errno = 0;
	value = strtoull(text, &end, base);
	if (errno == ERANGE || *end != '\0')
		return err_set("bad number '%s'", text);
	*out = value;
	return 0;
}

int units_parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = text;
	uint64_t n = 0;

	if (!text || !isdigit((unsigned char)text[0]) || read_digits(&p, &n) || *p)
		return err_set("'%s' is not a whole number", text ? text : "");
	if (n < min || n > max) {
		err_set("%llu is out of range, the range is %llu..%llu", (unsigned long long)n,
			(unsigned long long)min, (unsigned long long)max);
		return -2;
	}
	*out = n;
	return 0;
}

int units_parse_double(const char *text, double *out)
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

int units_parse_percent(const char *text, unsigned *out)
{
	uint64_t pct;

	if (units_parse_u64(text, &pct))
		return -1;
	if (units_check_range(pct, 0, 100, UNITS_COUNT, text))
		return -1;
	*out = (unsigned)pct;
	return 0;
}

bool units_parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	if (!text) {
		*out = true;
		return true;
	}
	for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
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

int units_parse_size(const char *text, unsigned kb_base, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, frac_scale = 1, mult, result;
	char suffix[8];
	const char *p = text;
	size_t len;

	if (kb_base != 1000 && kb_base != 1024)
		return err_set("bad kb_base %u", kb_base);
	if (!text || (!isdigit((unsigned char)text[0]) &&
		      !(text[0] == '.' && isdigit((unsigned char)text[1]))))
		return err_set("bad size '%s'", text ? text : "");
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return units_parse_u64(text, out) ? err_set("bad size '%s'", text) : 0;
	if (read_digits(&p, &whole))
		return err_set("bad size '%s': too large", text);
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

int units_parse_duration(const char *text, uint64_t default_unit_ns, uint64_t *out)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", UNITS_NS_PER_US }, { "usec", UNITS_NS_PER_US },
		{ "ms", UNITS_NS_PER_MS }, { "msec", UNITS_NS_PER_MS },
		{ "s", UNITS_NS_PER_SEC }, { "sec", UNITS_NS_PER_SEC },
		{ "m", 60 * UNITS_NS_PER_SEC }, { "min", 60 * UNITS_NS_PER_SEC },
		{ "h", 3600 * UNITS_NS_PER_SEC }, { "hour", 3600 * UNITS_NS_PER_SEC },
		{ "d", UNITS_NS_PER_DAY }, { "day", UNITS_NS_PER_DAY },
	};
	uint64_t value = 0, unit = 0;
	const char *p = text;

	if (!text || !isdigit((unsigned char)text[0]))
		return err_set("bad time '%s'", text ? text : "");
	if (read_digits(&p, &value))
		return err_set("bad time '%s': too large", text);
	if (*p == '\0') {
		unit = default_unit_ns;
	} else {
		for (size_t i = 0; i < ARRAY_LEN(units); i++)
			if (!strcasecmp(p, units[i].name))
				unit = units[i].ns;
	}
	if (unit == 0)
		return err_set("bad time '%s'", text);
	if (mul_overflows(value, unit, out))
		return err_set("bad time '%s': too large", text);
	return 0;
}

int units_parse_rate_mbps(const char *what, const char *text, double min_mbps,
			  double max_mbps, double *out)
{
	char *end;
	double value;

	/* strtod's whole grammar: "inf" and "1e300" are numbers, out of range */
	value = strtod(text, &end);
	if (end == text || *end || isnan(value))
		return err_set("%s: bad throughput '%s' (a number of MB/s, the range is %g..%.0f)",
			       what, text, min_mbps, max_mbps);
	/* 0, negative, an underflow (1e-300), inf and 1e300 are out of range */
	if (!(value >= min_mbps && value <= max_mbps))
		return err_set("%s: %s MB/s is too %s, the range is %g..%.0f MB/s", what, text,
			       value < min_mbps ? "small" : "large", min_mbps, max_mbps);
	*out = value * 1e6;
	return 0;
}

/* ---- the range check */

int units_check_range(uint64_t v, uint64_t lo, uint64_t hi, enum units_kind kind,
		      const char *text)
{
	char low[32], high[32];

	if (v >= lo && v <= hi)
		return 0;
	if (kind == UNITS_NS) {
		units_format_duration(lo, low, sizeof(low));
		units_format_duration(hi, high, sizeof(high));
	} else if (kind == UNITS_BYTES) {
		units_format_bytes(lo, UNITS_IEC_EXACT, 0, low, sizeof(low));
		units_format_bytes(hi, UNITS_IEC_EXACT, 0, high, sizeof(high));
	} else {
		snprintf(low, sizeof(low), "%llu", (unsigned long long)lo);
		snprintf(high, sizeof(high), "%llu", (unsigned long long)hi);
	}
	return err_set("%s is too %s, the range is %s..%s", text ? text : "",
		       v < lo ? "small" : "large", low, high);
}

/* ---- formatters */

/* value scaled by step to the largest of units it reaches: with a fixed
 * number of decimals and a space before the unit ("2.05 MB/s"), or, when
 * decimals < 0, -decimals significant digits and no space ("1.953MiB/s"). */
static char *format_scaled(double value, double step, const char *const *units,
			   unsigned nr_units, int decimals, char *out, size_t len)
{
	unsigned u = 0;
	int digits;

	while (u + 1 < nr_units && value >= step) {
		value /= step;
		u++;
	}
	if (decimals >= 0) {
		snprintf(out, len, "%.*f %s", decimals, value, units[u]);
		return out;
	}
	digits = value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 4;
	decimals = -decimals > digits ? -decimals - digits : 0;
	snprintf(out, len, "%.*f%s", decimals, value, units[u]);
	return out;
}

static char *bytes_word(uint64_t bytes, char *out, size_t len)
{
	snprintf(out, len, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
	return out;
}

static char *format_iec(uint64_t bytes, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	uint64_t scale = 1024;

	if (bytes < 1024)
		return bytes_word(bytes, out, len);
	while (u + 1 < ARRAY_LEN(units) && bytes / scale >= 1024) {
		scale *= 1024;
		u++;
	}
	snprintf(out, len, "%.2f %s", (double)bytes / (double)scale, units[u]);
	return out;
}

static char *format_iec_exact(uint64_t bytes, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	uint64_t scale = 1ull << 60;

	for (int u = 5; u >= 0; u--, scale >>= 10)
		if (bytes >= scale && bytes % scale == 0) {
			snprintf(out, len, "%llu %s", (unsigned long long)(bytes / scale), units[u]);
			return out;
		}
	return bytes_word(bytes, out, len);
}

/* Whole MiB or KiB, else bytes; iec is "iB" or "". */
static char *format_block(uint64_t bytes, const char *iec, char *out, size_t len)
{
	if (bytes && bytes % (1024 * 1024) == 0)
		snprintf(out, len, "%lluM%s", (unsigned long long)(bytes >> 20), iec);
	else if (bytes && bytes % 1024 == 0)
		snprintf(out, len, "%lluK%s", (unsigned long long)(bytes >> 10), iec);
	else
		snprintf(out, len, "%lluB", (unsigned long long)bytes);
	return out;
}

static char *format_si(uint64_t bytes, char *out, size_t len)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	double value = (double)bytes;
	unsigned u = 0;

	while (value >= 1000 && u + 1 < ARRAY_LEN(units)) {
		value /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(out, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(out, len, "%.2f %s", value, units[u]);
	return out;
}

static char *format_si_coarse(uint64_t bytes, char *out, size_t len)
{
	double v = (double)bytes;

	if (v >= 1e12)
		snprintf(out, len, "%.2f TB", v / 1e12);
	else if (v >= 1e9)
		snprintf(out, len, "%.1f GB", v / 1e9);
	else if (v >= 1e6)
		snprintf(out, len, "%.1f MB", v / 1e6);
	else
		snprintf(out, len, "%llu B", (unsigned long long)bytes);
	return out;
}

char *units_format_bytes(uint64_t bytes, enum units_bytes_style style, int decimals,
			 char *out, size_t len)
{
	static const char *const fio_si[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	static const char *const fio_iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

	switch (style) {
	case UNITS_IEC:
		return format_iec(bytes, out, len);
	case UNITS_IEC_EXACT:
		return format_iec_exact(bytes, out, len);
	case UNITS_BLOCK:
	case UNITS_BLOCK_SHORT:
		return format_block(bytes, style == UNITS_BLOCK ? "iB" : "", out, len);
	case UNITS_SI:
		return format_si(bytes, out, len);
	case UNITS_SI_COARSE:
		return format_si_coarse(bytes, out, len);
	case UNITS_FIO_SI:
		return format_scaled((double)bytes, 1000.0, fio_si, 6, decimals, out, len);
	case UNITS_FIO_IEC:
		return format_scaled((double)bytes, 1024.0, fio_iec, 6, decimals, out, len);
	}
	return bytes_word(bytes, out, len);
}

char *units_fio_num2str(uint64_t num, int maxlen, bool pow2, const char *unit,
			char *out, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *prefix = pow2 ? iec : si;
	const uint64_t base = pow2 ? 1024 : 1000;
	uint64_t rest = 0;
	bool divided = false;
	unsigned step = 0;
	char digits[32], fraction[32];
	int width = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)num);

	while (width > maxlen && step < 6) {
		rest = num % base;
		num /= base;
		divided = true;
		step++;
		width = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)num);
	}
	if (divided && maxlen - width >= 2) {
		/* the rest as decimals, in the places left beside the point */
		snprintf(fraction, sizeof(fraction), "%.*f", maxlen - width - 1,
			 (double)rest / (double)base);
		if (fraction[0] == '1')   /* rounded up to a whole one */
			num++;
		snprintf(out, len, "%llu.%s%s%s", (unsigned long long)num, fraction + 2,
			 prefix[step], unit);
		return out;
	}
	if (divided && rest >= base / 2)
		num++;
	snprintf(out, len, "%llu%s%s", (unsigned long long)num, prefix[step], unit);
	return out;
}

char *units_format_rate(double bytes_per_s, enum units_rate_style style, int decimals,
			char *out, size_t len)
{
	static const char *const fio_si[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" };
	static const char *const fio_iec[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };

	switch (style) {
	case UNITS_RATE_FIO_SI:
		return format_scaled(bytes_per_s, 1000.0, fio_si, 5, decimals, out, len);
	case UNITS_RATE_FIO_IEC:
		return format_scaled(bytes_per_s, 1024.0, fio_iec, 5, decimals, out, len);
	case UNITS_RATE_MB_GB:
		break;
	}
	if (bytes_per_s >= 1e9)
		snprintf(out, len, "%.2f GB/s", bytes_per_s / 1e9);
	else
		snprintf(out, len, "%.1f MB/s", bytes_per_s / 1e6);
	return out;
}

char *units_format_duration(uint64_t ns, char *out, size_t len)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "d", UNITS_NS_PER_DAY }, { "h", 3600 * UNITS_NS_PER_SEC },
		{ "m", 60 * UNITS_NS_PER_SEC }, { "s", UNITS_NS_PER_SEC },
		{ "ms", UNITS_NS_PER_MS }, { "us", UNITS_NS_PER_US },
	};

	for (size_t i = 0; ns && i < ARRAY_LEN(units); i++)
		if (ns % units[i].ns == 0) {
			snprintf(out, len, "%llu%s", (unsigned long long)(ns / units[i].ns),
				 units[i].name);
			return out;
		}
	snprintf(out, len, ns ? "%lluns" : "%llu", (unsigned long long)ns);
	return out;
}

char *units_format_clock(double seconds, char *out, size_t len)
{
	unsigned long long s = seconds > 0 ? (unsigned long long)(seconds + 0.5) : 0;

	snprintf(out, len, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
	return out;
}

char *units_format_count(double count, char *out, size_t len)
{
	if (count < 1000.0)
		snprintf(out, len, "%.1f", count);
	else if (count < 1e6)
		snprintf(out, len, "%.1fk", count / 1e3);
	else if (count < 1e9)
		snprintf(out, len, "%.2fM", count / 1e6);
	else
		snprintf(out, len, "%.2fG", count / 1e9);
	return out;
}

double units_pcie_lane_mbs(unsigned gen)
{
	static const double lane_mbs[] = { 0, 250, 500, 985, 1969, 3938, 7877 };

	return gen < sizeof(lane_mbs) / sizeof(lane_mbs[0]) ? lane_mbs[gen] : 0;
}
