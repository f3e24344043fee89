/* hist.h - log-linear latency histogram, fio's "plat" scheme: values below
 * 128 ns exact, above that 64 buckets per power of two (at most 1/128
 * relative error at a bucket's midpoint), up to 2^37 ns (137 s); larger
 * values land in the last bucket. Per thread, merged at the end. */
#ifndef DRIVEBENCH_HIST_H
#define DRIVEBENCH_HIST_H

#include <stdint.h>

#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 32
#define HIST_BUCKETS (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t bucket[HIST_BUCKETS];
};

/* Bucket index of a value in ns (fio's plat_val_to_idx). */
static inline unsigned hist_index(uint64_t ns)
{
	unsigned msb, error_bits, base, offset, idx;

	if (ns < (HIST_VAL << 1))
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	error_bits = msb - HIST_BITS;
	base = (error_bits + 1) << HIST_BITS;
	offset = (HIST_VAL - 1) & (unsigned)(ns >> error_bits);
	idx = base + offset;
	return idx < HIST_BUCKETS - 1 ? idx : HIST_BUCKETS - 1;
}

static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
}

/* Midpoint of a bucket in ns (fio's plat_idx_to_val). */
uint64_t hist_bucket_value(unsigned idx);
/* Lowest value that maps to bucket idx, and one past its highest. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx);

uint64_t hist_count(const struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);

/* Percentiles as fio computes them: for each p (ascending, 0 < p <= 100)
 * the value of the first bucket where the running count reaches p% of the
 * total. out[i] = 0 when the histogram is empty. */
void hist_percentiles(const struct hist *h, const double *pcts, unsigned n,
		      uint64_t *out);

#endif
