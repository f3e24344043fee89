/* null_latency.h - the null engine's programmed completion latencies.
 * A golden-ratio low-discrepancy sequence spreads latencies evenly over
 * [min, max) so tests of the percentile math can recompute every value. */
#ifndef DRIVEBENCH_NULL_LATENCY_H
#define DRIVEBENCH_NULL_LATENCY_H

#include <math.h>
#include <stdint.h>

/* Latency of the seq-th completion (seq starts at 1):
 * min + floor((max - min) * frac(seq * 0.6180339887498949)). */
static inline uint64_t null_latency_for(uint64_t seq, uint64_t min_ns,
					uint64_t max_ns)
{
	double scaled, frac;
	uint64_t span, add;

	if (max_ns <= min_ns)
		return min_ns;
	scaled = (double)seq * 0.6180339887498949;
	frac = scaled - floor(scaled);
	span = max_ns - min_ns;
	add = (uint64_t)((double)span * frac);
	/* frac < 1, but rounding a huge span to double can reach span */
	if (add >= span)
		add = span - 1;
	return min_ns + add;
}

#endif
