/* pattern.h - fio's pattern syntax for verify_pattern (lib/pattern.c's
 * grammar): hex bytes in the order written (0xaa555aa5 = aa 55 5a a5),
 * decimals in [INT_MIN, INT_MAX] as their little-endian bytes (66 = 42,
 * -12 = f4 ff ff ff), "quoted strings" and %o (the block's offset, 8
 * bytes little-endian), concatenated: 0xff%o"abcd"-12. */
#ifndef DRIVEBENCH_PATTERN_H
#define DRIVEBENCH_PATTERN_H

#include <stddef.h>

/* Parses text into out (at most cap bytes), the %o places zeroed, their
 * positions in fmt[] (at most fmt_cap). Returns the pattern's length, or
 * -1 with err_msg naming what is wrong and where. */
int pattern_parse(const char *text, unsigned char *out, size_t cap,
		  unsigned *fmt, unsigned fmt_cap, unsigned *nr_fmt);

#endif
