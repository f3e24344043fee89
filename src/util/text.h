/* text.h - small string helpers shared by the text parsers (job files,
 * spec sheets). */
#ifndef DRIVEBENCH_TEXT_H
#define DRIVEBENCH_TEXT_H

#include <stddef.h>

/* Strips leading and trailing white space in place; returns the start. */
char *text_trim(char *s);

/* Drops a whole-line comment (';' or '#' first), or a trailing one that
 * starts after a blank ("bs=4k ; note"), so '#' inside a value such as a
 * path is kept. The rule of fio job files and suite files alike. */
void text_strip_comment(char *line);

/* Splits "key[=value]" in place: returns the trimmed key and sets *value
 * to the trimmed value, or NULL when there is no '=' (a bare flag). */
char *text_split_option(char *line, char **value);

/* Reads a small file (a sysfs attribute) into out[len], white space
 * trimmed. Returns 0, or -1 when it cannot be read or is empty (out is "").
 * A longer file is cut at len - 1 bytes. */
int text_read_small_file(const char *path, char *out, size_t len);

/* Reads a whole file (a /proc table, a small text file) into a new
 * NUL-terminated buffer. A file longer than max_bytes is an error naming
 * it, never a partial read taken for the whole (a /dev/zero named by
 * mistake). Returns 0, or -1 with err_msg (also on out of memory). */
int text_read_file(const char *path, size_t max_bytes, char **text);

#endif
