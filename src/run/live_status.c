/* live_status.c - the results so far while a run goes on (see the header). */
#include "run/live_status.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int live_status_copy(const struct worker *workers, unsigned nr, uint64_t now,
		     struct run_output *out)
{
	memset(out, 0, sizeof(*out));
	out->results = calloc(nr ? nr : 1, sizeof(*out->results));
	if (!out->results)
		return err_set("out of memory");
	for (unsigned i = 0; i < nr; i++) {
		const struct worker *w = &workers[i];
		struct job_result *r = &out->results[i];
		bool done = __atomic_load_n(&w->live_done, __ATOMIC_ACQUIRE);
		uint64_t start = __atomic_load_n(&w->result.measure_start_ns, __ATOMIC_ACQUIRE);

		*r = w->result;
		/* what the worker owns and may still grow stays with it */
		memset(&r->series, 0, sizeof(r->series));
		/* the snapshots are set on this thread, after a phase: copied */
		r->drive_before = w->result.drive_before ? strdup(w->result.drive_before) : NULL;
		r->drive_after = w->result.drive_after ? strdup(w->result.drive_after) : NULL;
		r->drive_delta = w->result.drive_delta ? strdup(w->result.drive_delta) : NULL;
		r->verify_failures = NULL;
		r->nr_verify_failures = 0;
		r->checks = NULL;
		memset(r->prio_clat, 0, sizeof(r->prio_clat));
		memset(r->nr_prio_clat, 0, sizeof(r->nr_prio_clat));
		if (!done) {
			r->runtime_ns = start && now > start ? now - start : 0;
			r->total_run_ns = r->runtime_ns;
			r->partial = true;   /* a result of a clone still running */
		}
	}
	out->nr = nr;
	return 0;
}

uint64_t live_status_eta(const struct worker *workers, unsigned nr, uint64_t now,
			 uint64_t phase_start, double *fraction)
{
	uint64_t left = 0, elapsed = phase_start && now > phase_start ? now - phase_start : 0;
	double least = 1.0;

	for (unsigned i = 0; i < nr; i++) {
		const struct worker *w = &workers[i];
		const struct job_spec *s = w->spec;
		uint64_t bytes = 0, target, start, clone_left = UINT64_MAX;
		double part = -1;

		if (__atomic_load_n(&w->live_done, __ATOMIC_ACQUIRE))
			continue;
		for (int d = 0; d < DIR_ALL; d++)
			bytes += __atomic_load_n(&w->result.dir[d].bytes, __ATOMIC_RELAXED);
		target = __atomic_load_n(&w->live_bytes_target, __ATOMIC_RELAXED);
		start = __atomic_load_n(&w->result.measure_start_ns, __ATOMIC_ACQUIRE);
		if (s->runtime_ns) {   /* a time bound: startdelay + ramp + runtime */
			uint64_t bound = s->pacing.startdelay_ns + s->ramp_ns + s->runtime_ns;

			clone_left = bound > elapsed ? bound - elapsed : 0;
			part = bound ? (double)elapsed / (double)bound : 1.0;
		}
		if (target && start && now > start && bytes && !s->time_based) {
			/* a size bound: the rate so far carries on */
			double rate = (double)bytes / (double)(now - start);
			uint64_t by_size = bytes >= target ? 0 :
				(uint64_t)((double)(target - bytes) / rate);

			if (by_size < clone_left) {
				clone_left = by_size;
				part = (double)bytes / (double)target;
			}
		}
		if (clone_left == UINT64_MAX)
			return *fraction = 0, UINT64_MAX;
		if (clone_left > left)
			left = clone_left;
		if (part >= 0 && part < least)
			least = part;
	}
	*fraction = least > 1.0 ? 1.0 : least;
	return left;
}
