/* rate.h - fio's bandwidth and IOPS samples: every bwavgtime (iopsavgtime)
 * a clone turns what completed since its last sample into one rate per
 * direction (KiB/s, IOPS; integers, as fio's), and keeps their count, min,
 * max, mean and spread (fio's io_stat). These are the JSON's bw_min ..
 * iops_samples; group_reporting sums them as fio does. */
#ifndef DRIVEBENCH_RATE_H
#define DRIVEBENCH_RATE_H

#include <stdint.h>

#include "job/job_spec.h"

/* fio's io_stat for rate samples: Welford's running mean and S. */
struct rate_stat {
	uint64_t samples;
	uint64_t min, max;       /* min is UINT64_MAX until the first sample */
	double mean, S;
};

void rate_stat_init(struct rate_stat *s);
/* fio's add_stat_sample. */
void rate_stat_add(struct rate_stat *s, uint64_t value);
/* Sample standard deviation sqrt(S / (n - 1)), 0 below two samples. */
double rate_stat_dev(const struct rate_stat *s);
/* group_reporting (fio's sum_stat with pure_sum): the group's samples are
 * the sum of its clones', and so are min, max, mean and S, so that the
 * mean is the group's bandwidth. */
void rate_stat_sum(struct rate_stat *dst, const struct rate_stat *src);

/* One kind of sample (bandwidth or IOPS) of one clone. Samples are due on
 * a grid of window_ns from the start of measurement; one is taken at the
 * first look at or after its grid point, over the time since the last
 * one, and none for a grid point at or past the deadline (fio's helper
 * thread samples only running jobs, so the window in which a job's time
 * runs out gives none). A direction with nothing done in a window gives
 * no sample. */
struct rate_sampler {
	uint64_t window_ns;
	uint64_t next_ns;        /* the next grid point; UINT64_MAX: no more */
	uint64_t last_ns;        /* when the last sample was taken */
	uint64_t last[DIR_ALL];/* the counts then */
	uint64_t scale;          /* 1024 for KiB/s, 1 for IOPS */
};

/* window_ns 0: no samples on the clock (the caller adds one per I/O). */
void rate_sampler_start(struct rate_sampler *r, uint64_t window_ns, uint64_t scale,
			uint64_t now, uint64_t deadline);
/* Takes the sample due by now (counts: cumulative bytes or I/Os per
 * direction since the start) into stat[]; call when now >= next_ns.
 * taken[d] (when not NULL): the sample of direction d, -1 for none; fio
 * writes exactly these to an averaged bw or iops log. */
void rate_sampler_take(struct rate_sampler *r, const uint64_t count[DIR_ALL],
		       struct rate_stat stat[DIR_ALL], uint64_t now, uint64_t deadline,
		       int64_t taken[DIR_ALL]);

#endif
