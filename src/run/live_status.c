/* live_status.c - the results so far while a run goes on (see the header). */
#include "run/live_status.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/error.h"

/* How long the runner's thread waits for the running clones to copy
 * themselves. A loop polls once a round (at most one reap), so a clone
 * in its loop answers in far less; a status is late by at most this. */
#define LIVE_ANSWER_WAIT_NS 50000000ull

void live_status_answer(struct worker *w)
{
	int asked = LIVE_ASKED;

	/* the runner's thread may have stopped waiting (ASKED back to IDLE):
	 * then it reads the result itself and this copy is not made */
	if (!__atomic_compare_exchange_n(&w->live_state, &asked, LIVE_COPYING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	uint64_t start = w->result.measure_start_ns, now = clock_now_ns();

	*w->live_dest = w->result;
	/* the runtime at the copy: the rates of the status are its counts
	 * over the time they took */
	w->live_dest->runtime_ns = start && now > start ? now - start : 0;
	__atomic_store_n(&w->live_state, LIVE_COPIED, __ATOMIC_RELEASE);
}

static bool clone_done(const struct worker *w)
{
	return __atomic_load_n(&w->live_done, __ATOMIC_ACQUIRE);
}

/* Asks every running clone of workers[0, nr) for a copy into dest[i] and
 * waits for the answers, up to LIVE_ANSWER_WAIT_NS. */
static void ask_and_wait(struct worker *workers, unsigned nr, struct job_result *dest)
{
	uint64_t deadline = clock_now_ns() + LIVE_ANSWER_WAIT_NS;
	const struct timespec pause = { 0, 100000 };

	for (unsigned i = 0; i < nr; i++)
		if (!clone_done(&workers[i])) {
			workers[i].live_dest = &dest[i];
			__atomic_store_n(&workers[i].live_state, LIVE_ASKED, __ATOMIC_RELEASE);
		}
	for (;;) {
		bool waiting = false;

		for (unsigned i = 0; i < nr && !waiting; i++) {
			int state = __atomic_load_n(&workers[i].live_state, __ATOMIC_ACQUIRE);

			waiting = (state == LIVE_ASKED && !clone_done(&workers[i])) ||
				  state == LIVE_COPYING;
		}
		if (!waiting || clock_now_ns() >= deadline)
			return;
		nanosleep(&pause, NULL);
	}
}

/* Whether workers[i] copied itself; the handshake is back to IDLE after. */
static bool take_answer(struct worker *w)
{
	int asked = LIVE_ASKED;

	if (__atomic_load_n(&w->live_state, __ATOMIC_RELAXED) == LIVE_IDLE)
		return false;   /* not asked: done before the status */
	if (__atomic_compare_exchange_n(&w->live_state, &asked, LIVE_IDLE, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;   /* no answer in time: withdrawn */
	while (__atomic_load_n(&w->live_state, __ATOMIC_ACQUIRE) == LIVE_COPYING)
		;   /* a copy under way ends within microseconds */
	__atomic_store_n(&w->live_state, LIVE_IDLE, __ATOMIC_RELAXED);
	return true;
}

int live_status_copy(struct worker *workers, unsigned nr, uint64_t now,
		     struct run_output *out)
{
	memset(out, 0, sizeof(*out));
	out->results = calloc(nr ? nr : 1, sizeof(*out->results));
	if (!out->results)
		return err_set("out of memory");
	ask_and_wait(workers, nr, out->results);
	for (unsigned i = 0; i < nr; i++) {
		struct worker *w = &workers[i];
		struct job_result *r = &out->results[i];
		bool copied = take_answer(w);
		/* a clone that copied itself was running then; one that did not
		 * is read as it stands, final once it is done */
		bool done = !copied && clone_done(w);
		uint64_t start = __atomic_load_n(&w->result.measure_start_ns, __ATOMIC_ACQUIRE);

		if (!copied)
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
			if (!copied)
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
