/* loop.c - the submit/reap loop of one job clone: its rounds, the batching
 * of submissions, and the reaping. Each I/O is stamped at prepare, submit
 * and reap with one monotonic clock. fio's definitions: slat =
 * prepare..submitted, clat = submitted..reaped, lat = prepare..reaped; the
 * ramp is run but not counted. Every function on the per-I/O path is
 * static in this translation unit, so the compiler can inline it: the
 * issue decisions are in loop_issue.h, the completion accounting in
 * loop_complete.h, both included only here. The run's setup and end are
 * in loop_run.c, the measured window (intervals, samples) in loop_window.c. */
#include "run/loop.h"

#include "run/loop_complete.h"
#include "run/loop_issue.h"
#include "run/live_status.h"
#include "run/pacing.h"
#include "util/clock.h"

/* One compare per round; the work is in loop_tick_due (loop_window.c). */
static inline void tick(struct loop *l, uint64_t now)
{
	if (now >= l->next_event)
		loop_tick_due(l, now);
}

static inline __attribute__((always_inline)) bool
limits_reached(struct loop *l, uint64_t now)
{
	if (*l->w->stop) {
		l->w->result.partial = true;
		l->abandon = true;
		return true;
	}
	/* the runtime's end, or an exitall (0) */
	if (now >= deadline_of(l)) {
		l->abandon = true;
		return true;
	}
	return !l->time_based && l->bytes_issued >= l->bytes_target;
}

/* Submits what is prepared and stamps it as issued, as fio does: after
 * the submit call for an async engine (fio stamps issue_time after the
 * commit), before it for a synchronous one (FIO_SYNCIO engines are stamped
 * before ->queue()), whose submit does the I/O, so that its device time is
 * clat and not slat. */
static inline int submit_stamped(struct loop *l, bool sync, uint64_t *issued)
{
	struct worker *w = l->w;

	if (sync) {
		*issued = clock_now_ns();
		return w->ops->submit(&w->engine) < 0 ? -1 : 0;
	}
	if (w->ops->submit(&w->engine) < 0)
		return -1;
	*issued = clock_now_ns();
	return 0;
}

/* Reaps at least min completions (fewer from an engine that models time:
 * it returns after a slice), accounts them, and submits the next chunk of
 * any request that continues on its slot. logging, paced: see
 * complete_one(). */
static inline __attribute__((always_inline))
int reap_body(struct loop *l, unsigned min, unsigned max, const bool logging,
	      const bool paced)
{
	struct worker *w = l->w;
	struct io *done[256], *again[256];
	unsigned nr_again = 0;
	int n;

	n = w->ops->reap(&w->engine, done, min, max > 256 ? 256 : max);
	if (n < 0)
		return -1;
	l->now = clock_now_ns();
	io_depths_reaped(&w->result.depths, (unsigned)n);
	for (int i = 0; i < n; i++) {
		int rc = complete_one(l, done[i], l->now, logging, paced);

		if (rc < 0)
			return -1;
		if (rc == 1) {
			again[nr_again++] = done[i];
			continue;
		}
		free_slot(l, done[i]);
	}
	if (nr_again) {
		uint64_t issued;

		if (submit_stamped(l, l->sync, &issued))
			return -1;
		for (unsigned i = 0; i < nr_again; i++)
			again[i]->issue_ns = issued;
	}
	return 0;
}

/* A stopping loop, or one that writes logs or is paced: kept out of line,
 * so the common path pays one test (l->slow) for all three. */
static __attribute__((noinline)) int reap_slow(struct loop *l, unsigned min, unsigned max)
{
	if (l->abandon) {
		cancel_waiting(l);
		if (!l->inflight)
			return 0;
		if (min > l->inflight)
			min = l->inflight;
	}
	if (l->paced)
		return l->logging ? reap_body(l, min, max, true, true) :
				    reap_body(l, min, max, false, true);
	return l->logging ? reap_body(l, min, max, true, false) :
			    reap_body(l, min, max, false, false);
}

static int reap_some(struct loop *l, unsigned min, unsigned max)
{
	if (__builtin_expect(l->slow != 0, 0))
		return reap_slow(l, min, max);
	return reap_body(l, min, max, false, false);
}

/* Waits for everything in flight (fsync must see every write). */
static int drain(struct loop *l)
{
	while (l->inflight) {
		if (*l->w->stop && !l->abandon) {   /* nothing more is finished */
			l->w->result.partial = true;
			l->abandon = true;
		}
		if (reap_some(l, 1, l->inflight))
			return -1;
	}
	return 0;
}

/* The out-of-line entries for loop_verify.c and pacing.c; the loop itself
 * calls the static functions, which the compiler may inline. */
int loop_reap(struct loop *l, unsigned min, unsigned max)
{
	return reap_some(l, min, max);
}

int loop_drain(struct loop *l)
{
	return drain(l);
}

/* iodepth_batch_adaptive=1 (off by default: fio's batching is the default)
 * adapts the batch to what a submit costs per I/O on this target: where
 * submitting only queues work (zram's io-wq hand-off, an NVMe doorbell) one
 * call carries many I/Os and the syscall is amortised; where the submitting
 * thread does the device's work (virtio's notification exits, ~4 us per I/O
 * here) a batch would hold its first I/O back behind the others, so I/Os go
 * out one by one, as fio's default does. The batch is sized so that
 * preparing and submitting it takes about this long. */
#define SUBMIT_BUDGET_NS 8000u

static unsigned adaptive_batch(uint64_t cost_per_io_ns, unsigned depth)
{
	uint64_t batch = SUBMIT_BUDGET_NS / (cost_per_io_ns ? cost_per_io_ns : 1);

	if (batch < 1)
		return 1;
	return batch < depth ? (unsigned)batch : depth;
}

static inline bool may_issue(const struct loop *l)
{
	return l->issuing && l->w->nr_free &&
	       (l->time_based || l->bytes_issued < l->bytes_target);
}

/* Prepares up to max new requests and submits them with one call; stamps
 * them as issued (sync: l->sync, kept in a register by the caller).
 * Returns how many, or -1. */
static inline __attribute__((always_inline)) int
issue_batch(struct loop *l, unsigned max, uint64_t start, bool sync, uint64_t *issued,
	    const bool paced)
{
	struct worker *w = l->w;
	struct io *batch[256];
	unsigned nb = 0;

	while (nb < max && may_issue(l)) {
		int rc = prep_new(l, start);

		if (rc) {
			if (rc < 0)
				return -1;
			break;   /* a due sync or verify holds the pick (loop_sync, loop_verify_resume) */
		}
		batch[nb++] = w->free_ios[w->nr_free];
	}
	if (!nb)
		return 0;
	if (submit_stamped(l, sync, issued))
		return -1;
	io_depths_submitted(&w->result.depths, nb, l->inflight + nb);
	for (unsigned i = 0; i < nb; i++) {
		struct request *rq = batch[i]->owner;

		batch[i]->issue_ns = *issued;
		if (rq->active && !rq->issue_ns)
			rq->issue_ns = *issued;
	}
	l->inflight += nb;
	if (paced)
		pacing_issued(l, batch, nb);
	return (int)nb;
}

/* fio's submission batch: iodepth_batch_submit I/Os per submit call,
 * 0 or more than iodepth meaning iodepth. */
static unsigned fio_batch(const struct job_spec *s, unsigned cap)
{
	if (s->iodepth_batch_submit == 0 || s->iodepth_batch_submit > cap)
		return cap;
	return s->iodepth_batch_submit;
}

/* How a round's submissions are batched: fio's iodepth_batch_submit, or
 * iodepth_batch_adaptive's running cost per I/O. */
struct batching {
	bool adaptive, sync;
	unsigned cap, batch_max;
	int64_t cost_per_io_ns;       /* EWMA, starts at one syscall */
};

/* Fills every free slot, in batches of batch_max per submit; a short
 * batch means nothing more may be issued now. 0 or -1. */
static inline __attribute__((always_inline)) int
fill_slots(struct loop *l, struct batching *b, uint64_t start, const bool paced)
{
	uint64_t issued = 0;

	while (may_issue(l)) {
		unsigned max;
		int nb;

		if (b->adaptive)
			b->batch_max = adaptive_batch((uint64_t)b->cost_per_io_ns, b->cap);
		max = b->batch_max;
		if (paced && !(max = pacing_allow(l, max)))
			break;
		nb = issue_batch(l, max, start, b->sync, &issued, paced);
		if (nb < 0)
			return -1;
		if (nb == 0)
			break;
		if (b->adaptive)
			b->cost_per_io_ns += ((int64_t)((issued - start) / (unsigned)nb) -
					      b->cost_per_io_ns) / 8;
		if ((unsigned)nb < max)
			break;
		start = issued;
	}
	return 0;
}

/* The rounds of the loop. paced is a constant at each of the two call
 * sites: the plain loop has none of pacing's calls (run/pacing.c). */
static inline __attribute__((always_inline)) int rounds(struct loop *l, const bool paced)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;
	struct batching b = { .sync = l->sync, .cost_per_io_ns = 1000 };
	unsigned complete_min = s->iodepth_batch_complete_min ? s->iodepth_batch_complete_min : 1;
	/* fio reaps at most iodepth_batch_complete_min I/Os per call unless
	 * told otherwise (_max below _min is raised to it); adaptive batching
	 * reaps as many as it will submit in one batch, so a completion never
	 * waits unreaped behind more than one batch's submission
	 * (SUBMIT_BUDGET_NS). */
	unsigned complete_max = s->iodepth_batch_complete_max;

	b.cap = w->depth < 256 ? w->depth : 256;
	b.adaptive = s->measure.batch_adaptive && !b.sync;
	b.batch_max = fio_batch(s, b.cap);
	if (complete_min > w->depth)
		complete_min = w->depth;
	if (complete_max < complete_min && !(b.adaptive && !complete_max))
		complete_max = complete_min;
	l->now = clock_now_ns();
	for (;;) {
		uint64_t start = l->now;

		live_status_poll(w);
		if (!l->measuring && l->now >= l->ramp_end)
			loop_restart_measurement(l, l->now);
		if (paced && pacing_round(l))
			return -1;
		if ((l->issuing || !l->abandon) && limits_reached(l, l->now))
			l->issuing = false;
		if (paced)   /* pacing_round may have slept */
			start = l->now;
		if (fill_slots(l, &b, start, paced))
			return -1;
		if (l->verify_wait) {
			if (loop_verify_resume(l))
				return -1;
			continue;
		}
		if (paced && pacing_waits(l)) {
			if (pacing_wait(l))
				return -1;
			continue;
		}
		if (!l->inflight) {
			/* the writes before a due sync are done: issue it,
			 * unless nothing would follow it (as fio) */
			if (l->writes_to_sync || !may_issue(l))
				break;
			if (loop_sync(l))
				return -1;
			continue;
		}
		/* every free slot is filled, or nothing more will be issued:
		 * block for complete_min */
		if (reap_some(l, complete_min, complete_max ? complete_max :
			      adaptive_batch((uint64_t)b.cost_per_io_ns, b.cap)))
			return -1;
		if (paced && pacing_reaped(l))
			return -1;
		if (l->measuring)
			tick(l, l->now);
	}
	if (loop_sync_end(l))
		return -1;
	if (w->verifying && loop_verify_finish(l))
		return -1;
	return 0;
}

int loop_submit_reap(struct loop *l)
{
	return l->pace ? rounds(l, true) : rounds(l, false);
}
