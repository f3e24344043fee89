/* text.c - small string helpers shared by the text parsers, and the reader
 * of small text files (sysfs attributes). */
#include "util/text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

char *text_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

void text_strip_comment(char *line)
{
	char *s = line;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == ';' || *s == '#') {
		*line = '\0';
		return;
	}
	for (; *s; s++)
		if ((*s == ';' || *s == '#') && s > line && isspace((unsigned char)s[-1])) {
			*s = '\0';
			return;
		}
}

char *text_split_option(char *line, char **value)
{
	char *equals = strchr(line, '=');

	*value = NULL;
	if (equals) {
		*equals = '\0';
		*value = text_trim(equals + 1);
	}
	return text_trim(line);
}

int text_read_small_file(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t got;
	char *start;

	out[0] = '\0';
	if (!f)
		return -1;
	got = fread(out, 1, len - 1, f);
	fclose(f);
	out[got] = '\0';
	start = text_trim(out);
	memmove(out, start, strlen(start) + 1);
	return out[0] ? 0 : -1;
}

char *text_format_bytes(uint64_t bytes, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	uint64_t scale = 1024;

	if (bytes < 1024) {
		snprintf(out, len, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
		return out;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes / scale >= 1024) {
		scale *= 1024;
		u++;
	}
	snprintf(out, len, "%.2f %s", (double)bytes / (double)scale, units[u]);
	return out;
}
