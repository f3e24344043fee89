/* testfile.h - test helper: files of a given content or size, and a whole
 * file read back into a string. Every function asserts (cmocka) that it
 * worked. */
#ifndef DRIVEBENCH_TEST_TESTFILE_H
#define DRIVEBENCH_TEST_TESTFILE_H

#include <stddef.h>
#include <stdint.h>

/* path holds exactly len bytes of data (made, or truncated, mode 0644). */
void file_write(const char *path, const void *data, size_t len);
/* path holds text (without its NUL). */
void file_write_text(const char *path, const char *text);
/* path is size bytes long and sparse (ftruncate): a scratch target. */
void file_make_sized(const char *path, uint64_t size);
/* The size of path (stat). */
uint64_t file_size_of(const char *path);
/* The whole of path, NUL-terminated, in memory from malloc (free it); its
 * length in *len when len is not NULL. Fails the test when path cannot be
 * read. */
char *file_read_all(const char *path, size_t *len);

#endif
