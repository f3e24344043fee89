/* testfile.c - test helper: file contents (see testfile.h). */
#include "testfile.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

void file_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

void file_write_text(const char *path, const char *text)
{
	file_write(path, text, strlen(text));
}

void file_make_sized(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(close(fd), 0);
}

uint64_t file_size_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

char *file_read_all(const char *path, size_t *len)
{
	size_t size = 0, cap = 4096;
	char *text = malloc(cap);
	ssize_t n;
	int fd;

	assert_non_null(text);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(text);
		fail_msg("cannot read %s: %s", path, strerror(errno));
	}
	/* read to the end: /proc and pipes give no size up front */
	while ((n = read(fd, text + size, cap - size - 1)) > 0) {
		size += (size_t)n;
		if (cap - size == 1) {
			char *bigger = realloc(text, cap * 2);

			if (!bigger) {
				free(text);
				close(fd);
			}
			assert_non_null(bigger);
			text = bigger;
			cap *= 2;
		}
	}
	close(fd);
	if (n < 0)
		free(text);
	assert_true(n == 0);
	text[size] = '\0';
	if (len)
		*len = size;
	return text;
}
