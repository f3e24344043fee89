/* pattern.h - fio's byte-pattern syntax (lib/pattern.c's grammar), for
 * buffer_pattern= and verify_pattern=: hex numbers (0xdeadface, bytes in
 * the order written), decimal integers in [INT_MIN, INT_MAX] (their bytes,
 * least significant first: 66 = 42, -12 = f4 ff ff ff), "strings", 'file
 * names' (the file's first bytes) and, in a verify pattern only, %o (the
 * block's offset, 8 bytes little-endian), in any combination:
 * 0xdeadface"abcd"-12'file'%o. */
#ifndef DRIVEBENCH_PATTERN_H
#define DRIVEBENCH_PATTERN_H

#include <stddef.h>

#define PATTERN_OFFSET_BYTES 8   /* what one %o takes */

/* Parses text into out (at most cap bytes), *len the bytes; %o is refused
 * (buffer_pattern: fio refuses formats there too). Returns 0, or -1 with
 * err_msg saying what is wrong and where. */
int pattern_parse(const char *text, unsigned char *out, size_t cap, size_t *len);

/* As pattern_parse with %o allowed: each one's 8 bytes zeroed in out, its
 * position in fmt[] (at most fmt_cap, *nr_fmt of them). Returns the
 * pattern's length, or -1 with err_msg. */
int pattern_parse_fmt(const char *text, unsigned char *out, size_t cap,
		      unsigned *fmt, unsigned fmt_cap, unsigned *nr_fmt);

#endif
