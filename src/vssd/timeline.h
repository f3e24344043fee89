/* timeline.h - a resource that serves work when it is ready, filling the
 * gaps between what is already booked: a NAND channel or the host link,
 * which several dies and commands share and which requests reach out of
 * time order (a die done early must not wait behind a transfer booked
 * for later). Booked intervals are kept sorted; those that end before the
 * caller's "now" are dropped, so the list holds only pending work. */
#ifndef DRIVEBENCH_VSSD_TIMELINE_H
#define DRIVEBENCH_VSSD_TIMELINE_H

#include <stdint.h>

struct timeline_interval {
	uint64_t start, end;
};

struct timeline {
	struct timeline_interval *iv;
	uint32_t head, nr, cap;      /* live intervals: iv[head .. head + nr) */
	uint64_t busy_ns;            /* summed over everything booked */
};

/* Books len ns at the first gap at or after ready; returns its start.
 * -1 (as UINT64_MAX) never: on no memory it books after the last
 * interval, which is always possible. */
uint64_t timeline_book(struct timeline *tl, uint64_t ready, uint64_t len);
/* Forgets intervals that end at or before now. */
void timeline_prune(struct timeline *tl, uint64_t now);
void timeline_free(struct timeline *tl);

#endif
