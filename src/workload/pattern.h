/* pattern.h - fio's byte-pattern syntax (buffer_pattern=): hex numbers
 * (0xdeadface, bytes in the order written), decimal integers (their bytes,
 * least significant first), "strings" and 'file names' (the file's first
 * bytes), in any combination: 0xdeadface"abcd"-12'file'. */
#ifndef DRIVEBENCH_PATTERN_H
#define DRIVEBENCH_PATTERN_H

#include <stddef.h>

/* Parses text into out (at most cap bytes), *len the bytes. Returns 0, or
 * -1 with err_msg saying what is wrong and where. */
int pattern_parse(const char *text, unsigned char *out, size_t cap, size_t *len);

#endif
