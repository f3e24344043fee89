/* depths.c - fio's queue-depth buckets made from the exact counts the loop
 * keeps (depths.h), merging, and fio's stat_calc_dist percentages. */
#include "measure/depths.h"

#include <string.h>

void io_depths_merge(struct io_depths *dst, const struct io_depths *src)
{
	for (int i = 0; i < IO_DEPTH_SLOTS; i++) {
		dst->level[i] += src->level[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
}

/* fio's io_u_mark_depth: 1 | 2-3 | 4-7 | 8-15 | 16-31 | 32-63 | more */
static unsigned level_bucket(unsigned d)
{
	unsigned b = 0;

	while (b < IO_DEPTH_BUCKETS - 1 && d >= (2u << b))
		b++;
	return b;
}

/* fio's __io_u_mark_map: 0 | 1-4 | 5-8 | 9-16 | 17-32 | 33-64 | more */
static unsigned batch_bucket(unsigned n)
{
	unsigned b = 1;

	if (n == 0)
		return 0;
	while (b < IO_DEPTH_BUCKETS - 1 && n > (2u << b))
		b++;
	return b;
}

void io_depths_buckets(const struct io_depths *s, uint64_t level[IO_DEPTH_BUCKETS],
		       uint64_t submit[IO_DEPTH_BUCKETS], uint64_t complete[IO_DEPTH_BUCKETS])
{
	memset(level, 0, IO_DEPTH_BUCKETS * sizeof(level[0]));
	memset(submit, 0, IO_DEPTH_BUCKETS * sizeof(submit[0]));
	memset(complete, 0, IO_DEPTH_BUCKETS * sizeof(complete[0]));
	for (unsigned i = 0; i < IO_DEPTH_SLOTS; i++) {
		/* the last slot holds everything above 64 */
		unsigned n = i <= IO_DEPTH_EXACT ? i : IO_DEPTH_EXACT + 1;

		level[n ? level_bucket(n) : 0] += s->level[i];
		submit[batch_bucket(n)] += s->submit[i];
		complete[batch_bucket(n)] += s->complete[i];
	}
}

void io_depths_percent(const uint64_t counts[IO_DEPTH_BUCKETS],
		       double pct[IO_DEPTH_BUCKETS])
{
	uint64_t total = 0;

	for (int i = 0; i < IO_DEPTH_BUCKETS; i++)
		total += counts[i];
	for (int i = 0; i < IO_DEPTH_BUCKETS; i++) {
		pct[i] = total ? 100.0 * (double)counts[i] / (double)total : 0.0;
		if (pct[i] < 0.1 && counts[i])
			pct[i] = 0.1;
	}
}
