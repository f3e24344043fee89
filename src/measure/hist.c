/* hist.c - the latency histogram's arithmetic: bucket index <-> value (fio's
 * plat_idx_to_val), bucket bounds, merging, and percentiles computed the way
 * fio's calc_clat_percentiles does. Adding a sample is inline in hist.h. */
#include "measure/hist.h"

#include <stdlib.h>

/* First value of bucket idx's group and the width of one bucket in it. */
static void bucket_geometry(unsigned idx, uint64_t *group_base, uint64_t *width)
{
	unsigned error_bits = (idx >> HIST_BITS) - 1;

	*group_base = (uint64_t)1 << (error_bits + HIST_BITS);
	*width = (uint64_t)1 << error_bits;
}

uint64_t hist_bucket_value(unsigned idx)
{
	uint64_t group_base, width, k;

	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	if (idx < (HIST_VAL << 1))
		return idx;
	bucket_geometry(idx, &group_base, &width);
	k = idx % HIST_VAL;
	/* fio: base + (k + 0.5) * width, truncated to an integer */
	return group_base + (uint64_t)(((double)k + 0.5) * (double)width);
}

uint64_t hist_bucket_low(unsigned idx)
{
	uint64_t group_base, width;

	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	if (idx < (HIST_VAL << 1))
		return idx;
	bucket_geometry(idx, &group_base, &width);
	return group_base + (idx % HIST_VAL) * width;
}

uint64_t hist_bucket_high(unsigned idx)
{
	uint64_t group_base, width;

	if (idx >= HIST_BUCKETS - 1)
		return UINT64_MAX;  /* the last bucket also takes every larger value */
	if (idx < (HIST_VAL << 1))
		return (uint64_t)idx + 1;
	bucket_geometry(idx, &group_base, &width);
	return group_base + (idx % HIST_VAL + 1) * width;
}

uint64_t hist_count(const struct hist *h)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		total += h->bucket[i];
	return total;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

void hist_percentiles(const struct hist *h, const double *pcts, unsigned n,
		      uint64_t *out)
{
	uint64_t total = hist_count(h), sum = 0;
	uint64_t last_value = 0;
	unsigned bucket = 0, answered = 0;

	if (n == 0)
		return;
	if (total == 0) {
		for (unsigned j = 0; j < n; j++)
			out[j] = 0;
		return;
	}
	/* One walk over the buckets answers every p in turn (pcts ascending):
	 * p is answered by the first bucket where the running count reaches
	 * p% of the total, so one bucket can answer several. */
	while (answered < n && bucket < HIST_BUCKETS) {
		sum += h->bucket[bucket];
		if (h->bucket[bucket])
			last_value = hist_bucket_value(bucket);
		while (answered < n &&
		       (long double)sum >=
			       (long double)pcts[answered] / 100.0L * (long double)total) {
			out[answered++] = hist_bucket_value(bucket);
		}
		bucket++;
	}
	/* Only p > 100 (or NaN) gets here: report the largest value seen. */
	while (answered < n)
		out[answered++] = last_value;
}
