/* depths.h - fio's queue-depth distributions (its io_u_map, io_u_submit
 * and io_u_complete; JSON iodepth_level, iodepth_submit, iodepth_complete):
 * the I/Os issued by the depth they were issued at, the submit calls by
 * how many I/Os each carried, the reap calls by how many completions each
 * returned. Counted per submit and per reap call, never per I/O; seven
 * buckets each, with fio's limits. */
#ifndef DRIVEBENCH_DEPTHS_H
#define DRIVEBENCH_DEPTHS_H

#include <stdint.h>

#define IO_DEPTH_BUCKETS 7
#define IO_DEPTH_EXACT 64   /* counts kept exactly up to here */
#define IO_DEPTH_SLOTS (IO_DEPTH_EXACT + 2)

/* What the loop counts: calls (or I/Os) by the exact number up to 64, and
 * everything above in one more slot; fio's buckets are made from these
 * when reported (io_depths_buckets), so counting is an index and an add. */
struct io_depths {
	uint64_t level[IO_DEPTH_SLOTS];     /* I/Os, by the depth they went out at */
	uint64_t submit[IO_DEPTH_SLOTS];    /* submit calls, by the I/Os they carried */
	uint64_t complete[IO_DEPTH_SLOTS];  /* reap calls, by the completions returned */
};

static inline unsigned io_depth_slot(unsigned n)
{
	return n <= IO_DEPTH_EXACT ? n : IO_DEPTH_EXACT + 1;
}

/* nr I/Os went out in one submit call, leaving depth in flight. */
static inline void io_depths_submitted(struct io_depths *s, unsigned nr, unsigned depth)
{
	s->level[io_depth_slot(depth)] += nr;
	s->submit[io_depth_slot(nr)]++;
}

/* One reap call returned nr completions. */
static inline void io_depths_reaped(struct io_depths *s, unsigned nr)
{
	s->complete[io_depth_slot(nr)]++;
}

void io_depths_merge(struct io_depths *dst, const struct io_depths *src);

/* fio's buckets (JSON iodepth_level, iodepth_submit, iodepth_complete)
 * from the exact counts: level 1 | 2-3 | 4-7 | 8-15 | 16-31 | 32-63 |
 * >=64 (io_u_mark_depth); submit and complete 0 | 1-4 | 5-8 | 9-16 |
 * 17-32 | 33-64 | >64 (__io_u_mark_map). */
void io_depths_buckets(const struct io_depths *s, uint64_t level[IO_DEPTH_BUCKETS],
		       uint64_t submit[IO_DEPTH_BUCKETS], uint64_t complete[IO_DEPTH_BUCKETS]);

/* fio's stat_calc_dist: percent of the total per bucket, a bucket with
 * any count at least 0.1. */
void io_depths_percent(const uint64_t counts[IO_DEPTH_BUCKETS],
		       double pct[IO_DEPTH_BUCKETS]);

#endif
