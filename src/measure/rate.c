/* rate.c - fio's bandwidth / IOPS samples (rate.h): the running
 * statistics of add_stat_sample, the group sum of sum_stat(pure_sum), and
 * the per-window sampler that __add_samples is, on a grid of the window
 * from the start of measurement. */
#include "measure/rate.h"

#include <math.h>
#include <string.h>

#define NS_PER_MS 1000000ull

void rate_stat_init(struct rate_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void rate_stat_add(struct rate_stat *s, uint64_t value)
{
	double v = (double)value, delta;

	if (value > s->max)
		s->max = value;
	if (value < s->min)
		s->min = value;
	delta = v - s->mean;
	if (delta != 0.0) {
		s->mean += delta / ((double)s->samples + 1.0);
		s->S += delta * (v - s->mean);
	}
	s->samples++;
}

double rate_stat_dev(const struct rate_stat *s)
{
	if (s->samples < 2 || !(s->S > 0.0))
		return 0.0;
	return sqrt(s->S / ((double)s->samples - 1.0));
}

void rate_stat_sum(struct rate_stat *dst, const struct rate_stat *src)
{
	if (src->samples == 0)
		return;
	if (dst->samples == 0) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->samples += src->samples;
	dst->mean += src->mean;
	dst->S += src->S;
}

static void schedule(struct rate_sampler *r, uint64_t next, uint64_t deadline)
{
	r->next_ns = next >= deadline ? UINT64_MAX : next;
}

void rate_sampler_start(struct rate_sampler *r, uint64_t window_ns, uint64_t scale,
			uint64_t now, uint64_t deadline)
{
	memset(r, 0, sizeof(*r));
	r->scale = scale ? scale : 1;
	r->last_ns = now;
	r->window_ns = window_ns;
	if (window_ns == 0) {      /* samples per I/O: none on a clock */
		r->next_ns = UINT64_MAX;
		return;
	}
	schedule(r, now + r->window_ns, deadline);
}

void rate_sampler_take(struct rate_sampler *r, const uint64_t count[DIR_ALL],
		       struct rate_stat stat[DIR_ALL], uint64_t now, uint64_t deadline,
		       int64_t taken[DIR_ALL])
{
	/* fio measures the window in whole milliseconds */
	uint64_t spent_ms = (now - r->last_ns) / NS_PER_MS;
	uint64_t next = r->next_ns;

	for (int d = 0; d < DIR_ALL; d++) {
		uint64_t delta = count[d] - r->last[d], rate;

		if (taken)
			taken[d] = -1;
		if (!delta)
			continue;   /* nothing in this window: no sample */
		/* fio: delta * 1000 / spent [/ 1024], in integers */
		rate = spent_ms ? delta * 1000u / spent_ms / r->scale : 0;
		rate_stat_add(&stat[d], rate);
		if (taken)
			taken[d] = (int64_t)rate;
		r->last[d] = count[d];
	}
	r->last_ns = now;
	/* the next grid point after now: a look that came late skips none
	 * of the windows' time, it only makes this one longer */
	while (next <= now && next != UINT64_MAX)
		next = next + r->window_ns < next ? UINT64_MAX : next + r->window_ns;
	schedule(r, next, deadline);
}
