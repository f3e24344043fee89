/* proc_tables.c - parsers over the text of /proc/self/mountinfo and
 * /proc/swaps (pure, for testing), with the kernel's octal escapes. */
#include "device/proc_tables.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Copies src[0..srclen) to dst, turning the kernel's octal escapes (\040
 * for a space, \011, \012, \134) back into bytes; always terminates. */
static void unescape_octal(const char *src, size_t srclen, char *dst,
			   size_t len)
{
	size_t out = 0;

	if (len == 0)
		return;
	for (size_t i = 0; i < srclen && out + 1 < len; i++) {
		if (src[i] == '\\' && i + 3 < srclen &&
		    src[i + 1] >= '0' && src[i + 1] <= '3' &&
		    src[i + 2] >= '0' && src[i + 2] <= '7' &&
		    src[i + 3] >= '0' && src[i + 3] <= '7') {
			dst[out++] = (char)(((src[i + 1] - '0') << 6) |
					    ((src[i + 2] - '0') << 3) |
					    (src[i + 3] - '0'));
			i += 3;
		} else {
			dst[out++] = src[i];
		}
	}
	dst[out] = '\0';
}

/* Splits line [start, end) into whitespace-separated fields; returns how
 * many were found (at most max). */
static unsigned split_fields(const char *start, const char *end,
			     const char **field, size_t *field_len,
			     unsigned max)
{
	unsigned n = 0;
	const char *p = start;

	while (p < end && n < max) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		field[n] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		field_len[n] = (size_t)(p - field[n]);
		n++;
	}
	return n;
}

static bool field_is(const char *field, size_t field_len, const char *word)
{
	return strlen(word) == field_len && memcmp(field, word, field_len) == 0;
}

int mountinfo_find(const char *text, unsigned major, unsigned minor,
		   const char *devnode, char *mountpoint, size_t len)
{
	char want[32];
	const char *line = text;

	snprintf(want, sizeof(want), "%u:%u", major, minor);
	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *field[64];
		size_t field_len[64];
		unsigned n;
		bool match;

		if (!end)
			end = line + strlen(line);
		/* id parent major:minor root mountpoint options [optional...]
		 * - fstype source superoptions */
		n = split_fields(line, end, field, field_len, 64);
		if (n >= 5) {
			match = field_is(field[2], field_len[2], want);
			for (unsigned i = 6; !match && devnode && i + 2 < n; i++) {
				char source[PATH_MAX];

				if (!field_is(field[i], field_len[i], "-"))
					continue;
				unescape_octal(field[i + 2], field_len[i + 2],
					       source, sizeof(source));
				match = strcmp(source, devnode) == 0;
				break;
			}
			if (match) {
				unescape_octal(field[4], field_len[4], mountpoint,
					       len);
				return 1;
			}
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

int swaps_entry(const char *text, unsigned index, char *path, size_t len)
{
	const char *line = strchr(text, '\n'); /* skip the header line */
	unsigned seen = 0;

	while (line && *line) {
		const char *field[1];
		size_t field_len[1];
		const char *end;

		line++;
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (split_fields(line, end, field, field_len, 1) == 1) {
			if (seen == index) {
				unescape_octal(field[0], field_len[0], path, len);
				return 1;
			}
			seen++;
		}
		line = *end ? end : NULL;
	}
	return 0;
}
