/* text.h - small string helpers shared by the text parsers (job files,
 * spec sheets). */
#ifndef DRIVEBENCH_TEXT_H
#define DRIVEBENCH_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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

/* Opens a file drivebench reads (a job, suite, model, spec, bssplit,
 * pattern or rank-map file, fio JSON) only when it is a regular file: the
 * open never waits (O_NONBLOCK, cleared once checked), so a FIFO or a
 * device cannot hold the program. Returns the descriptor, or -1 with
 * err_msg "cannot read WHAT 'PATH': reason" ("... it is a FIFO, not a
 * regular file"; "PATH: reason" when what is NULL). text_open_input_stream: the same as a stdio stream. */
int text_open_input(const char *path, const char *what);
/* What a file of mode is, for messages: "a FIFO", "a character device",
 * "a block device", "a directory", "a socket"; otherwise for the rest. */
const char *text_file_kind(mode_t mode, const char *otherwise);
FILE *text_open_input_stream(const char *path, const char *what);

/* Lines of a text file (job, suite, bssplit files), bounded: no line
 * longer than TEXT_LINE_MAX, no more than limit bytes in all, no NUL byte,
 * and a failure to read (or to allocate) is an error, never the end of the
 * file. A UTF-8 byte-order mark at the start is skipped. */
#define TEXT_LINE_MAX 65536u
#define TEXT_FILE_MAX (4u << 20)

struct text_reader {
	FILE *f;
	const char *path;
	const char *what;      /* "job file": named in the messages */
	unsigned line;         /* number of the line last returned */
	uint64_t bytes;        /* read so far */
	uint64_t limit;        /* most bytes to read; TEXT_FILE_MAX by default */
	char *buf;             /* TEXT_LINE_MAX + 1 bytes */
};

/* Opens path for reading. Returns 0, or -1 with err_msg "cannot read WHAT
 * 'PATH': reason". */
int text_reader_open(struct text_reader *r, const char *path, const char *what);
/* The next line, without its newline, in *line (valid until the next
 * call). Returns 1 for a line, 0 at the end of the file, -1 with err_msg
 * naming the file and line ("a.fio:3: line longer than 65536 bytes",
 * "a.fio:1: binary data in job file (a NUL byte)", "a.fio: larger than 4
 * MiB, not a job file", "cannot read job file 'a.fio': reason"). */
int text_reader_next(struct text_reader *r, char **line);
void text_reader_close(struct text_reader *r);

/* units_format_bytes(bytes, UNITS_IEC, ...): "512 bytes", "4.00 KiB". Kept
 * for run/runner.c until it calls util/units.h itself; new code calls
 * units_format_bytes. */
char *text_format_bytes(uint64_t bytes, char *out, size_t len);

#endif
