/* text.c - small string helpers shared by the text parsers, the bounded
 * line reader of job, suite and bssplit files, and the readers of small
 * text files (sysfs attributes, /proc tables). */
#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/units.h"

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

char *text_format_bytes(uint64_t bytes, char *out, size_t len)
{
	return units_format_bytes(bytes, UNITS_IEC, 0, out, len);
}

const char *text_file_kind(mode_t mode, const char *otherwise)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return otherwise;
}

/* "cannot read WHAT 'PATH': why", or "PATH: why" without a what. */
static int input_failed(const char *path, const char *what, const char *why)
{
	if (!what)
		return err_set("%s: %s", path, why);
	return err_set("cannot read %s '%s': %s", what, path, why);
}

int text_open_input(const char *path, const char *what)
{
	struct stat st;
	char why[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return input_failed(path, what, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int saved = errno;

		close(fd);
		return input_failed(path, what, strerror(saved));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return input_failed(path, what, strerror(EISDIR));
		}
		errno = EINVAL;
		snprintf(why, sizeof(why), "it is %s, not a regular file", text_file_kind(st.st_mode, "not a plain file"));
		return input_failed(path, what, why);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *text_open_input_stream(const char *path, const char *what)
{
	int fd = text_open_input(path, what);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		input_failed(path, what, strerror(errno));
		close(fd);
	}
	return f;
}

int text_reader_open(struct text_reader *r, const char *path, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->what = what;
	r->limit = TEXT_FILE_MAX;
	r->f = text_open_input_stream(path, what);
	if (!r->f)
		return -1;
	r->buf = malloc(TEXT_LINE_MAX + 1);
	if (!r->buf) {
		fclose(r->f);
		r->f = NULL;
		return err_set("cannot read %s '%s': out of memory", what, path);
	}
	return 0;
}

/* The reader's failure: a read error (EISDIR, EIO) or the limits. */
static int reader_failed(struct text_reader *r)
{
	return err_set("cannot read %s '%s': %s", r->what, r->path,
		       strerror(errno ? errno : EIO));
}

int text_reader_next(struct text_reader *r, char **line)
{
	size_t len = 0;
	int c;

	errno = 0;
	while ((c = getc_unlocked(r->f)) != EOF) {
		if (++r->bytes > r->limit)
			return err_set("%s: larger than %llu MiB, not a %s", r->path,
				       (unsigned long long)(r->limit >> 20), r->what);
		if (c == '\n')
			break;
		if (c == '\0')
			return err_set("%s:%u: binary data in %s (a NUL byte)", r->path,
				       r->line + 1, r->what);
		if (len == TEXT_LINE_MAX)
			return err_set("%s:%u: line longer than %u bytes", r->path,
				       r->line + 1, TEXT_LINE_MAX);
		r->buf[len++] = (char)c;
	}
	if (c == EOF && ferror(r->f))
		return reader_failed(r);
	if (c == EOF && len == 0)
		return 0;
	r->buf[len] = '\0';
	*line = r->buf;
	/* a byte-order mark some editors write: not part of the text */
	if (r->line++ == 0 && !memcmp(*line, "\xEF\xBB\xBF", 3))
		*line += 3;
	return 1;
}

void text_reader_close(struct text_reader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->buf);
	r->f = NULL;
	r->buf = NULL;
}
