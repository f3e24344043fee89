/* pack.h - bytes in, bytes out: a growing buffer of little fields (as this
 * machine lays them out: every rank of a run is the same build) and a
 * bounds-checked reader, for what one process sends another. */
#ifndef DRIVEBENCH_PACK_H
#define DRIVEBENCH_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pack {
	unsigned char *data;
	size_t len, cap;
	bool failed;           /* out of memory: every later put is ignored */
};

void pack_bytes(struct pack *p, const void *src, size_t len);
void pack_u64(struct pack *p, uint64_t v);
/* A string or NULL (told apart on unpacking). */
void pack_str(struct pack *p, const char *s);
/* 0, or -1 with err_msg when a put ran out of memory. */
int pack_done(const struct pack *p);
void pack_free(struct pack *p);

struct unpack {
	const unsigned char *data;
	size_t len, at;
	bool failed;           /* read past the end: every later get is zero */
};

void unpack_init(struct unpack *u, const void *data, size_t len);
void unpack_bytes(struct unpack *u, void *dst, size_t len);
uint64_t unpack_u64(struct unpack *u);
/* A malloc'd copy, or NULL for a packed NULL (or a failed read). */
char *unpack_str(struct unpack *u);
/* 0, or -1 with err_msg when the bytes ran short or did not parse. */
int unpack_done(const struct unpack *u, const char *what);

#endif
