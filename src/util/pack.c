/* pack.c - the byte packing of pack.h. */
#include "util/pack.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

void pack_bytes(struct pack *p, const void *src, size_t len)
{
	if (p->failed)
		return;
	if (p->len + len > p->cap) {
		size_t cap = p->cap ? p->cap : 4096;
		unsigned char *bigger;

		while (cap < p->len + len)
			cap *= 2;
		if (!(bigger = realloc(p->data, cap))) {
			p->failed = true;
			return;
		}
		p->data = bigger;
		p->cap = cap;
	}
	if (len)
		memcpy(p->data + p->len, src, len);
	p->len += len;
}

void pack_u64(struct pack *p, uint64_t v)
{
	pack_bytes(p, &v, sizeof(v));
}

void pack_str(struct pack *p, const char *s)
{
	pack_u64(p, s ? strlen(s) + 1 : 0);
	if (s)
		pack_bytes(p, s, strlen(s) + 1);
}

int pack_done(const struct pack *p)
{
	return p->failed ? err_set("out of memory packing a message") : 0;
}

void pack_free(struct pack *p)
{
	free(p->data);
	memset(p, 0, sizeof(*p));
}

void unpack_init(struct unpack *u, const void *data, size_t len)
{
	u->data = data;
	u->len = len;
	u->at = 0;
	u->failed = false;
}

void unpack_bytes(struct unpack *u, void *dst, size_t len)
{
	if (u->failed || len > u->len - u->at) {
		u->failed = true;
		memset(dst, 0, len);
		return;
	}
	memcpy(dst, u->data + u->at, len);
	u->at += len;
}

uint64_t unpack_u64(struct unpack *u)
{
	uint64_t v;

	unpack_bytes(u, &v, sizeof(v));
	return v;
}

char *unpack_str(struct unpack *u)
{
	uint64_t n = unpack_u64(u);
	char *s;

	if (u->failed || n == 0)
		return NULL;
	if (n > u->len - u->at || u->data[u->at + n - 1] != '\0') {
		u->failed = true;
		return NULL;
	}
	if (!(s = malloc(n))) {
		u->failed = true;
		return NULL;
	}
	memcpy(s, u->data + u->at, n);
	u->at += n;
	return s;
}

int unpack_done(const struct unpack *u, const char *what)
{
	if (u->failed)
		return err_set("%s: the message is short or malformed", what);
	return 0;
}
