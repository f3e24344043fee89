/* pattern.c - parses fio's byte-pattern syntax (pattern.h) into bytes:
 * hex, decimal, "string", 'file' and (verify patterns) %o pieces, one
 * after the other. */
#include "job/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"

struct pattern_out {
	unsigned char *buf;
	size_t cap, len;
};

static int put_byte(struct pattern_out *o, unsigned char b)
{
	if (o->len == o->cap)
		return err_set("pattern longer than %zu bytes", o->cap);
	o->buf[o->len++] = b;
	return 0;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 0x then hex digits: two digits a byte, in the order written; an odd
 * count makes the first digit a byte of its own (0xabc = 0a bc), as fio.
 * A following "0x" starts the next number (0xff0x14). */
static const char *parse_hex(const char *p, struct pattern_out *o)
{
	const char *start = p + 2, *end = start;
	size_t digits;

	while (hex_value(*end) >= 0 && !(end[0] == '0' && (end[1] == 'x' || end[1] == 'X') &&
					  end > start))
		end++;
	digits = (size_t)(end - start);
	if (!digits) {
		err_set("'0x' without hex digits");
		return NULL;
	}
	if (digits & 1) {
		if (put_byte(o, (unsigned char)hex_value(*start++)))
			return NULL;
		digits--;
	}
	for (; digits; digits -= 2, start += 2)
		if (put_byte(o, (unsigned char)(hex_value(start[0]) << 4 | hex_value(start[1]))))
			return NULL;
	return end;
}

/* A decimal integer in int range: its bytes as an unsigned int, least
 * significant first, as many as it needs (0 is one zero byte). */
static const char *parse_decimal(const char *p, struct pattern_out *o)
{
	const char *q = p, *digits;
	long long v = 0;
	bool negative = false;
	unsigned int u;

	if (*q == '-' || *q == '+')
		negative = *q++ == '-';
	digits = q;
	/* a "0x" right after the digits starts a hex number (120x14) */
	while (isdigit((unsigned char)*q) && !(q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))) {
		v = v * 10 + (*q++ - '0');
		if (v > (long long)INT_MAX + 1) {
			err_set("number out of range (%d..%d)", INT_MIN, INT_MAX);
			return NULL;
		}
	}
	if (q == digits) {
		err_set("unexpected '%c'", *p);
		return NULL;
	}
	if (negative)
		v = -v;
	if (v > INT_MAX || v < INT_MIN) {
		err_set("number out of range (%d..%d)", INT_MIN, INT_MAX);
		return NULL;
	}
	u = (unsigned int)(int)v;
	if (!u)
		return put_byte(o, 0) ? NULL : q;
	for (; u; u >>= 8)
		if (put_byte(o, (unsigned char)(u & 0xff)))
			return NULL;
	return q;
}

static const char *parse_string(const char *p, struct pattern_out *o)
{
	const char *end = strchr(p + 1, '"');

	if (!end) {
		err_set("string without its closing '\"'");
		return NULL;
	}
	for (const char *c = p + 1; c < end; c++)
		if (put_byte(o, (unsigned char)*c))
			return NULL;
	return end + 1;
}

/* 'name': the file's first bytes, as many as fit. */
static const char *parse_file(const char *p, struct pattern_out *o)
{
	const char *end = strchr(p + 1, '\'');
	char path[4096];
	size_t len;
	ssize_t n;
	int fd;

	if (!end) {
		err_set("file name without its closing \"'\"");
		return NULL;
	}
	len = (size_t)(end - p - 1);
	if (len == 0 || len >= sizeof(path)) {
		err_set("bad file name in pattern");
		return NULL;
	}
	memcpy(path, p + 1, len);
	path[len] = '\0';
	fd = text_open_input(path, "pattern file");
	if (fd < 0)
		return NULL;
	do {
		n = read(fd, o->buf + o->len, o->cap - o->len);
		if (n > 0)
			o->len += (size_t)n;
	} while ((n > 0 || (n < 0 && errno == EINTR)) && o->len < o->cap);
	if (n < 0) {
		err_set("reading pattern file '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	close(fd);
	return end + 1;
}

/* The %o field at p: 8 zero bytes now, filled per block by the verifier. */
static const char *parse_format(const char *p, struct pattern_out *o, unsigned *fmt,
				unsigned fmt_cap, unsigned *nr_fmt)
{
	if (p[1] != 'o') {
		err_set("unknown format '%.2s' (only %%o, the block offset)", p);
		return NULL;
	}
	if (*nr_fmt == fmt_cap) {
		err_set("more than %u %%o in the pattern", fmt_cap);
		return NULL;
	}
	fmt[(*nr_fmt)++] = (unsigned)o->len;
	for (int i = 0; i < PATTERN_OFFSET_BYTES; i++)
		if (put_byte(o, 0))
			return NULL;
	return p + 2;
}

int pattern_parse_fmt(const char *text, unsigned char *out, size_t cap,
		      unsigned *fmt, unsigned fmt_cap, unsigned *nr_fmt)
{
	struct pattern_out o = { out, cap, 0 };
	const char *p = text;

	*nr_fmt = 0;
	if (!text || !*text)
		return err_set("empty pattern");
	while (*p) {
		const char *next;

		if (*p == '"')
			next = parse_string(p, &o);
		else if (*p == '\'')
			next = parse_file(p, &o);
		else if (*p == '%' && !fmt_cap)
			return err_set("'%s': formats such as %%o are not supported in this pattern",
				       text);
		else if (*p == '%')
			next = parse_format(p, &o, fmt, fmt_cap, nr_fmt);
		else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			next = parse_hex(p, &o);
		else
			next = parse_decimal(p, &o);
		if (!next)   /* a long pattern is cut so the reason still fits */
			return err_prefix("bad pattern '%.48s%s'", text,
					  strlen(text) > 48 ? "..." : "");
		p = next;
	}
	if (!o.len)
		return err_set("bad pattern '%s': no bytes", text);
	return (int)o.len;
}

int pattern_parse(const char *text, unsigned char *out, size_t cap, size_t *len)
{
	unsigned none;
	int n = pattern_parse_fmt(text, out, cap, NULL, 0, &none);

	if (n < 0)
		return -1;
	*len = (size_t)n;
	return 0;
}
