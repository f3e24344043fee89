/* loop_run.c - a clone's run of the submit/reap loop from setup to result:
 * the loop's state from the job, the ramp, the pass (submit/reap, file ops
 * or verify only), and the result's times, CPU use and fault counts at the
 * end. */
#include "run/loop.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "io/fault.h"
#include "run/checks_run.h"
#include "run/files.h"
#include "run/loop_log.h"
#include "run/pacing.h"
#include "run/shape.h"
#include "util/error.h"

/* The fault engine's counts over the measured part: the ramp's faults are
 * left out like the ramp's errors. Until the end result.faults_injected
 * (and engine_calls) holds the counts at the start of measurement. */
_Static_assert(ENGINE_CALL_COUNTS == FAULT_CALLS, "a result counts every fault_call");

static void report_faults(struct loop *l)
{
	struct worker *w = l->w;
	uint64_t counts[FAULT_KINDS], calls[FAULT_CALLS];

	fault_engine_counts(&w->engine, counts);
	for (int k = 0; k < FAULT_KINDS; k++)
		w->result.faults_injected[k] = l->measuring ?
			counts[k] - w->result.faults_injected[k] : 0;
	fault_engine_calls(&w->engine, calls);
	for (int k = 0; k < FAULT_CALLS; k++)
		w->result.engine_calls[k] = l->measuring ?
			calls[k] - w->result.engine_calls[k] : 0;
}

/* fio records no submission latency for a synchronous engine (its I/O
 * has no queued stage: slat_ns is all zeros, N 0). The loop adds the
 * samples anyway, so the per-I/O path has no branch for it, and drops
 * them here. */
static void drop_slat(struct worker *w)
{
	for (int d = 0; d < DIR_ALL; d++)
		lat_stat_init(&w->result.dir[d].slat);
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void loop_run(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct loop l = { .w = w, .dir = w->result.dir, .log = w->log,
			  .logging = w->log != NULL };
	struct rusage ru_end;
	uint64_t now, end;
	struct timespec wall;

	now = clock_now_ns();
	/* a synchronous engine's I/O is done when its submit returns: one
	 * slot, as fio caps a sync engine's queue depth at 1 */
	l.sync = (w->ops->flags & ENGINE_SYNC) != 0;
	if (l.sync && w->nr_free > 1)
		w->nr_free = 1;
	if (l.sync && l.log)
		loop_log_without_slat(l.log);
	l.interval = s->series_interval_ns ? s->series_interval_ns : 1000000000ull;
	/* an engine that moves no data (cpuio, exec) runs for its runtime */
	l.time_based = s->time_based || engine_has(w->ops, ENGINE_NO_IO);
	/* without io_size, the range's whole blocks: fio ends a job when its
	 * file is done, and with bs=3k in 1 MiB that is 341 I/Os (a 342nd
	 * would start past the last whole block) */
	l.bytes_target = w->files ? w->files->bytes_target :
		shape_bytes_target(w, checks_bytes_target(w, s->io_size ? s->io_size :
							   w->range_len / w->align * w->align));
	__atomic_store_n(&w->live_bytes_target, l.bytes_target, __ATOMIC_RELAXED);
	l.issuing = true;
	loop_sync_start(&l);
	l.measure_start = now;
	l.ramp_end = now + s->ramp_ns;
	if (pacing_begin(&l)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		return;
	}
	l.paced = l.pace != NULL;
	if (!s->ramp_ns)
		loop_restart_measurement(&l, now);
	clock_gettime(CLOCK_REALTIME, &wall);
	if (w->files && w->files->file_ops ? loop_fileops_pass(&l) :
	    s->verify_only ? loop_verify_pass(&l) : loop_submit_reap(&l)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		l.issuing = false;
		l.abandon = true;   /* what is in flight only has to come back */
		loop_drain(&l);
	}
	end = clock_now_ns();
	pacing_end(&l);
	if (l.sync)
		drop_slat(w);
	report_faults(&l);
	if (!l.measuring) {   /* ended during the ramp: nothing measured */
		/* stopped (partial, set by the loop), or its bytes all went in
		 * the ramp: fio then reports a job with no I/O */
		w->result.ramp_ns = end - l.measure_start;
		l.measure_start = end;
		getrusage(RUSAGE_THREAD, &l.ru_start);
	}
	if (l.tick.ios[DIR_READ] || l.tick.ios[DIR_WRITE] || l.tick.ios[DIR_TRIM] ||
	    w->result.series.nr == 0)
		loop_close_interval(&l, end);
	w->result.runtime_ns = end - l.measure_start;
	w->result.measure_start_ns = l.measure_start;
	if (l.log)
		loop_log_finish(l.log, end - l.measure_start);
	w->result.total_run_ns = w->result.runtime_ns;
	w->result.start_unix_ms = (uint64_t)wall.tv_sec * 1000 + (uint64_t)wall.tv_nsec / 1000000
		+ w->result.ramp_ns / 1000000;
	getrusage(RUSAGE_THREAD, &ru_end);
	w->result.usr_cpu_s = timeval_s(ru_end.ru_utime) - timeval_s(l.ru_start.ru_utime);
	w->result.sys_cpu_s = timeval_s(ru_end.ru_stime) - timeval_s(l.ru_start.ru_stime);
	w->result.ctx_switches = (uint64_t)(ru_end.ru_nvcsw + ru_end.ru_nivcsw)
		- (uint64_t)(l.ru_start.ru_nvcsw + l.ru_start.ru_nivcsw);
	/* fio's majf and minf: the thread's page faults over the measured part */
	w->result.major_faults = (uint64_t)(ru_end.ru_majflt - l.ru_start.ru_majflt);
	w->result.minor_faults = (uint64_t)(ru_end.ru_minflt - l.ru_start.ru_minflt);
}
