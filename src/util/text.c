/* text.c - small string helpers shared by the text parsers, and the reader
 * of small text files (sysfs attributes, /proc tables). */
#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

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

int text_read_file(const char *path, size_t max_bytes, char **text)
{
	size_t size = 4096, used = 0;
	char *buf = malloc(size);
	int fd;

	*text = NULL;
	if (!buf)
		return err_set("out of memory reading %s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return err_set("cannot open %s: %s", path, strerror(errno));
	}
	for (;;) {
		ssize_t got;

		if (used + 1 >= size) {
			char *bigger = size > max_bytes ? NULL : realloc(buf, size * 2);

			if (!bigger) {
				free(buf);
				close(fd);
				if (size > max_bytes)
					return err_set("%s is larger than %zu bytes", path, max_bytes);
				return err_set("out of memory reading %s", path);
			}
			buf = bigger;
			size *= 2;
		}
		got = read(fd, buf + used, size - used - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int saved = errno;

			free(buf);
			close(fd);
			return err_set("cannot read %s: %s", path, strerror(saved));
		}
		if (got == 0)
			break;
		used += (size_t)got;
		if (used > max_bytes) {
			free(buf);
			close(fd);
			return err_set("%s is larger than %zu bytes", path, max_bytes);
		}
	}
	close(fd);
	buf[used] = '\0';
	*text = buf;
	return 0;
}
