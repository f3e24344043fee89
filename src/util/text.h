/* text.h - small string helpers shared by the text parsers (job files,
 * spec sheets). */
#ifndef DRIVEBENCH_TEXT_H
#define DRIVEBENCH_TEXT_H

#include <stddef.h>
#include <stdint.h>

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

/* bytes in binary units for people: "512 bytes", "4.00 KiB", "1.50 MiB",
 * "2.00 GiB", so that even a small figure says something. Returns out. */
char *text_format_bytes(uint64_t bytes, char *out, size_t len);

#endif
