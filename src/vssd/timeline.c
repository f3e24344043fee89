/* timeline.c - a gap-filling resource (see the header). */
#include "vssd/timeline.h"

#include <stdlib.h>
#include <string.h>

#define TIMELINE_MAX (1u << 20)   /* pending intervals, at most */

static int make_room(struct timeline *tl)
{
	struct timeline_interval *grown;
	uint32_t cap;

	if (tl->head) {   /* slide the live part to the front first */
		memmove(tl->iv, tl->iv + tl->head, tl->nr * sizeof(*tl->iv));
		tl->head = 0;
		if (tl->nr < tl->cap)
			return 0;
	}
	cap = tl->cap ? tl->cap * 2 : 64;
	if (cap > TIMELINE_MAX || !(grown = realloc(tl->iv, cap * sizeof(*grown))))
		return -1;
	tl->iv = grown;
	tl->cap = cap;
	return 0;
}

void timeline_prune(struct timeline *tl, uint64_t now)
{
	while (tl->nr && tl->iv[tl->head].end <= now) {
		tl->head++;
		tl->nr--;
	}
	if (!tl->nr)
		tl->head = 0;
}

/* Shifts iv[from, nr) by one place, up (insert) or down (delete). A
 * loop, not memmove: the same at -O2 (the compiler emits memmove), and
 * under AddressSanitizer memmove is a byte loop that was most of the
 * sanitized tests' time (a channel holds hundreds of pending transfers). */
static void shift_up(struct timeline_interval *iv, uint32_t from, uint32_t nr)
{
	for (uint32_t k = nr; k > from; k--)
		iv[k] = iv[k - 1];
}

static void shift_down(struct timeline_interval *iv, uint32_t from, uint32_t nr)
{
	for (uint32_t k = from; k + 1 < nr; k++)
		iv[k] = iv[k + 1];
}

static uint32_t first_ending_after(const struct timeline_interval *iv, uint32_t nr, uint64_t t)
{
	/* branch-free halving: the comparisons are unpredictable */
	const struct timeline_interval *base = iv;
	uint32_t n = nr;

	if (!n)
		return 0;
	while (n > 1) {
		uint32_t half = n / 2;

		base = base[half - 1].end <= t ? base + half : base;
		n -= half;
	}
	return (uint32_t)(base - iv) + (base->end <= t);
}

uint64_t timeline_book(struct timeline *tl, uint64_t ready, uint64_t len)
{
	struct timeline_interval *iv;
	uint64_t at = ready;
	uint32_t i;

	tl->busy_ns += len;
	if (!len)
		return ready;
	if (tl->head + tl->nr == tl->cap && make_room(tl)) {
		/* no room to remember it: book after everything, which never
		 * overlaps, and forget the oldest so the list stays bounded */
		iv = tl->iv + tl->head;
		at = tl->nr && iv[tl->nr - 1].end > ready ? iv[tl->nr - 1].end : ready;
		if (tl->nr) {
			tl->head++;
			tl->nr--;
		}
		return at;
	}
	iv = tl->iv + tl->head;
	/* the intervals are sorted and disjoint, so their ends rise too: skip
	 * by bisection to the first that ends after ready (the list holds
	 * every pending transfer; a linear walk was most of the model's CPU) */
	i = tl->nr && iv[tl->nr - 1].end <= at ? tl->nr : first_ending_after(iv, tl->nr, at);
	for (; i < tl->nr; i++) {
		if (iv[i].end <= at)
			continue;
		if (at + len <= iv[i].start)
			break;                  /* it fits in the gap before i */
		at = iv[i].end;
	}
	/* merge with a neighbour it touches, else insert at i */
	if (i > 0 && iv[i - 1].end == at) {
		iv[i - 1].end = at + len;
		if (i < tl->nr && iv[i].start == at + len) {
			iv[i - 1].end = iv[i].end;
			shift_down(iv, i, tl->nr);
			tl->nr--;
		}
		return at;
	}
	if (i < tl->nr && iv[i].start == at + len) {
		iv[i].start = at;
		return at;
	}
	shift_up(iv, i, tl->nr);
	iv[i] = (struct timeline_interval){ at, at + len };
	tl->nr++;
	return at;
}

void timeline_free(struct timeline *tl)
{
	free(tl->iv);
	memset(tl, 0, sizeof(*tl));
}
