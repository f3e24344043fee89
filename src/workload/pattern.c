/* pattern.c - reads fio's verify_pattern syntax: a run of hex numbers,
 * decimals, quoted strings and %o fields, each becoming bytes of the
 * pattern in the order written (the grammar of fio's lib/pattern.c, read
 * from its documentation and examples; the file form 'name' is refused). */
#include "workload/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

#define PATTERN_OFFSET_BYTES 8

struct pattern_out {
	unsigned char *buf;
	size_t cap, len;
};

static int put(struct pattern_out *o, const unsigned char *bytes, size_t n)
{
	if (o->len + n > o->cap)
		return err_set("pattern longer than %zu bytes", o->cap);
	memcpy(o->buf + o->len, bytes, n);
	o->len += n;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return tolower((unsigned char)c) - 'a' + 10;
}

/* 0x... at *p: the digits up to the next non-hex character; a trailing 0
 * that starts another 0x belongs to it (0xff0x14 = ff 14). An odd count
 * makes the first byte of one digit (0xabc = 0a bc). */
static int parse_hex(const char **p, struct pattern_out *o)
{
	const char *d = *p + 2, *end = d;
	size_t n;

	while (isxdigit((unsigned char)*end))
		end++;
	if (end > d && (end[0] == 'x' || end[0] == 'X') && end[-1] == '0')
		end--;
	n = (size_t)(end - d);
	if (n == 0)
		return err_set("'0x' without hex digits");
	while (d < end) {
		unsigned char b;

		if (n % 2) {
			b = (unsigned char)hex_digit(*d++);
			n--;
		} else {
			b = (unsigned char)(hex_digit(d[0]) << 4 | hex_digit(d[1]));
			d += 2;
			n -= 2;
		}
		if (put(o, &b, 1))
			return -1;
	}
	*p = end;
	return 0;
}

/* A decimal in [INT_MIN, INT_MAX], stopping before a following 0x; its
 * value as an unsigned 32-bit number in as few little-endian bytes as it
 * takes (0 is one byte). */
static int parse_decimal(const char **p, struct pattern_out *o)
{
	const char *start = *p, *stop = strstr(start, "0x");
	const char *stop_upper = strstr(start, "0X");
	char text[32], *end;
	size_t n;
	long long v;
	uint32_t u;

	if (!stop || (stop_upper && stop_upper < stop))
		stop = stop_upper;
	n = stop ? (size_t)(stop - start) : strlen(start);
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, start, n);
	text[n] = '\0';
	errno = 0;
	v = strtoll(text, &end, 10);
	if (end == text || errno || v > INT_MAX || v < INT_MIN)
		return err_set("bad number at '%.20s' (a decimal in [%d, %d], 0x..., \"text\" or %%o)",
			       start, INT_MIN, INT_MAX);
	u = (uint32_t)(int32_t)v;
	if (u == 0) {
		unsigned char zero = 0;

		if (put(o, &zero, 1))
			return -1;
	}
	for (; u; u >>= 8) {
		unsigned char b = (unsigned char)(u & 0xff);

		if (put(o, &b, 1))
			return -1;
	}
	*p = start + (end - text);
	return 0;
}

int pattern_parse(const char *text, unsigned char *out, size_t cap,
		  unsigned *fmt, unsigned fmt_cap, unsigned *nr_fmt)
{
	struct pattern_out o = { out, cap, 0 };
	const char *p = text;

	*nr_fmt = 0;
	if (!text || !*text)
		return err_set("empty pattern");
	while (*p) {
		if (*p == '"') {
			const char *close = strchr(p + 1, '"');

			if (!close)
				return err_set("unterminated string at '%.20s'", p);
			if (close == p + 1)
				return err_set("empty string \"\" in the pattern");
			if (put(&o, (const unsigned char *)p + 1, (size_t)(close - p - 1)))
				return -1;
			p = close + 1;
		} else if (*p == '%') {
			static const unsigned char zeros[PATTERN_OFFSET_BYTES];

			if (p[1] != 'o')
				return err_set("unknown format '%.2s' (only %%o, the block offset)", p);
			if (*nr_fmt == fmt_cap)
				return err_set("more than %u %%o in the pattern", fmt_cap);
			fmt[(*nr_fmt)++] = (unsigned)o.len;
			if (put(&o, zeros, sizeof(zeros)))
				return -1;
			p += 2;
		} else if (*p == '\'') {
			return err_set("file patterns ('name') are not supported");
		} else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			if (parse_hex(&p, &o))
				return -1;
		} else if (parse_decimal(&p, &o)) {
			return -1;
		}
	}
	return (int)o.len;
}
