/* loop_window.c - the measured window of a run of the submit/reap loop:
 * its start at the end of the ramp (or again, for the latency target's
 * final run), and what falls due in it: the series intervals and fio's
 * bandwidth and IOPS samples. */
#include "run/loop.h"

#include <string.h>
#include <sys/resource.h>

#include "io/fault.h"
#include "run/live_status.h"
#include "run/loop_log.h"
#include "run/pacing.h"

/* The runtime's end; an exitall elsewhere (run/jobctl.c) may have set it
 * to 0 already, which stays. */
static void set_deadline(struct worker *w, uint64_t deadline)
{
	uint64_t old = __atomic_load_n(&w->deadline_ns, __ATOMIC_RELAXED);

	while (old && !__atomic_compare_exchange_n(&w->deadline_ns, &old, deadline, false,
						   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void loop_restart_measurement(struct loop *l, uint64_t now)
{
	struct worker *w = l->w;

	fault_engine_counts(&w->engine, w->result.faults_injected);
	fault_engine_calls(&w->engine, w->result.engine_calls);
	for (int d = 0; d < DIR_ALL; d++) {
		memset(&w->result.dir[d], 0, sizeof(w->result.dir[d]));
		lat_stat_init(&w->result.dir[d].slat);
		lat_stat_init(&w->result.dir[d].clat);
		lat_stat_init(&w->result.dir[d].lat);
	}
	memset(&w->result.depths, 0, sizeof(w->result.depths));
	w->result.ramp_ns = now - l->measure_start;
	loop_sync_start(l);
	l->measuring = true;
	w->engine.measuring = true;
	l->measure_start = now;
	/* the live status's clock (run/live_status.c); set again at the end */
	__atomic_store_n(&w->result.measure_start_ns, now, __ATOMIC_RELEASE);
	l->next_tick = now + l->interval;
	set_deadline(w, w->spec->runtime_ns ? now + w->spec->runtime_ns : UINT64_MAX);
	/* fio's bandwidth and IOPS samples start with the measured part, as
	 * fio resets bw_sample_time at the end of the ramp */
	job_result_start_rates(&w->result, &l->rates, job_rate_window_ms(w->spec, true),
			       job_rate_window_ms(w->spec, false), now, deadline_of(l));
	l->next_event = l->next_tick < l->rates.next_ns ? l->next_tick : l->rates.next_ns;
	memset(&l->tick, 0, sizeof(l->tick));
	getrusage(RUSAGE_THREAD, &l->ru_start);
	if (l->pace)
		pacing_restart(l, now);
}

/* A full series coarsens (the worker reserved all its room): twice the
 * interval, half the points; the open interval then runs on to the next
 * boundary of the coarser grid. */
static void coarsen_series(struct loop *l)
{
	struct series *s = &l->w->result.series;

	series_coarsen(s);
	l->interval = s->interval_ns;
	l->next_tick = l->measure_start + (s->nr ? s->points[s->nr - 1].t_ns : 0) +
		       l->interval;
}

void loop_close_interval(struct loop *l, uint64_t end)
{
	struct series *s = &l->w->result.series;

	if (s->nr == s->cap && s->cap >= 2)
		coarsen_series(l);
	l->tick.t_ns = end - l->measure_start;
	if (series_append(s, &l->tick) == 0)
		memset(&l->tick, 0, sizeof(l->tick));
}

void loop_tick_due(struct loop *l, uint64_t now)
{
	struct series *s = &l->w->result.series;

	while (now >= l->next_tick) {
		if (s->nr == s->cap && s->cap >= 2) {
			coarsen_series(l);
			continue;
		}
		loop_close_interval(l, l->next_tick);
		l->next_tick += l->interval;
	}
	if (now >= l->rates.next_ns) {
		struct rates_taken taken;

		job_result_sample_rates(&l->w->result, &l->rates, now, deadline_of(l), &taken);
		if (l->log && l->measuring)
			loop_log_rates(l->log, &taken, now - l->measure_start);
	}
	l->next_event = l->next_tick < l->rates.next_ns ? l->next_tick : l->rates.next_ns;
}

void loop_tick(struct loop *l, uint64_t now)
{
	live_status_poll(l->w);   /* the loops that wait outside rounds (pacing, verify) */
	if (now >= l->next_event)
		loop_tick_due(l, now);
}
