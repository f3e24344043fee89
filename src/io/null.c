/* null.c - the null engine: no file, every I/O completes with result = len.
 * Without a latency it completes at once. With null_latency it models a
 * device that takes that long: the seq-th I/O looked at is due at issue_ns
 * + null_latency_for(seq), and reap hands back only I/Os that are due,
 * waiting for them in slices, so a latency longer than the run completes
 * nothing rather than everything (cancel gives back what is still
 * pending when the loop stops). Percentile math is tested against these
 * known latencies. */
#include "io/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/null_latency.h"
#include "util/clock.h"
#include "util/error.h"

/* The longest one reap waits before it returns, due or not, so the loop
 * can look at its deadline and stop flag (a stop within a second). */
#define NULL_WAIT_SLICE_NS 50000000ull

/* Without a latency, a FIFO of depth slots: [head, submitted) done,
 * [submitted, tail) queued. With one, the submitted I/Os [head, submitted)
 * are pending in submission order; due ones leave from anywhere. */
struct null_state {
	struct io **slots;
	unsigned mask;
	unsigned depth;
	unsigned head, submitted, tail;
	unsigned timed;        /* pending I/Os whose due time is set */
	uint64_t latency_min_ns, latency_max_ns;
	uint64_t seq;          /* completions programmed so far */
};

static unsigned round_up_pow2(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int null_init(struct engine *e, const struct job_spec *spec)
{
	struct null_state *st;
	unsigned slots;

	if (e->depth == 0)
		return err_set("null: iodepth must be at least 1");
	if (e->depth > (1u << 30))
		return err_set("null: iodepth %u is too large", e->depth);
	slots = round_up_pow2(e->depth);
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("null: out of memory");
	st->slots = calloc(slots, sizeof(*st->slots));
	if (!st->slots) {
		free(st);
		return err_set("null: out of memory");
	}
	st->mask = slots - 1;
	st->depth = e->depth;
	st->latency_min_ns = spec->null_latency_min_ns;
	st->latency_max_ns = spec->null_latency_max_ns;
	e->priv = st;
	return 0;
}

static int null_prep(struct engine *e, struct io *io)
{
	struct null_state *st = e->priv;

	if (st->tail - st->head >= st->depth)
		return err_set("null: queue full (%u I/Os)", st->depth);
	st->slots[st->tail++ & st->mask] = io;
	return 0;
}

static int null_submit(struct engine *e)
{
	struct null_state *st = e->priv;
	unsigned n = st->tail - st->submitted;

	st->submitted = st->tail;
	return (int)n;
}

/* No latency: everything submitted is complete. */
static int reap_at_once(struct null_state *st, struct io **out, unsigned max)
{
	unsigned n = st->submitted - st->head;

	if (n > max)
		n = max;
	for (unsigned i = 0; i < n; i++) {
		struct io *io = st->slots[st->head++ & st->mask];

		io->result = (int32_t)io->len;
		out[i] = io;
	}
	return (int)n;
}

/* A pending I/O's result until it is due. */
#define NULL_PENDING INT32_MIN

/* Gives every pending I/O its due time (issue_ns is known once the loop
 * has stamped it, after submit), in submission order. */
static void program_due_times(struct null_state *st)
{
	for (unsigned i = st->head + st->timed; i != st->submitted; i++, st->timed++) {
		struct io *io = st->slots[i & st->mask];
		uint64_t lat = null_latency_for(++st->seq, st->latency_min_ns,
						st->latency_max_ns);

		io->result = NULL_PENDING;
		io->complete_ns = io->issue_ns + lat < io->issue_ns ? UINT64_MAX :
				  io->issue_ns + lat;
	}
}

/* Moves up to max pending I/Os due by now to out, in submission order;
 * the rest close up towards the queued ones. Returns how many, and the
 * earliest due time left in *next_due. */
static unsigned take_due(struct null_state *st, uint64_t now, struct io **out,
			 unsigned max, uint64_t *next_due)
{
	unsigned n = 0, keep;

	*next_due = UINT64_MAX;
	for (unsigned i = st->head; i != st->submitted; i++) {
		struct io *io = st->slots[i & st->mask];

		if (n < max && io->complete_ns <= now) {
			io->result = (int32_t)io->len;
			out[n++] = io;
		} else if (io->complete_ns < *next_due) {
			*next_due = io->complete_ns;
		}
	}
	if (!n)
		return 0;
	keep = st->submitted;
	for (unsigned i = st->submitted; i-- != st->head;) {
		struct io *io = st->slots[i & st->mask];

		if (io->result == NULL_PENDING)
			st->slots[--keep & st->mask] = io;
	}
	st->head += n;
	st->timed -= n;
	return n;
}

static int null_reap(struct engine *e, struct io **out, unsigned min,
		     unsigned max)
{
	struct null_state *st = e->priv;
	uint64_t start, now, next_due;
	unsigned n = 0;

	if (st->latency_max_ns == 0)
		return reap_at_once(st, out, max);
	program_due_times(st);
	start = now = clock_now_ns();
	for (;;) {
		n += take_due(st, now, out + n, max - n, &next_due);
		if (n >= min || n >= max || next_due == UINT64_MAX)
			return (int)n;
		/* wait for the next one, a slice at most: fewer than min is
		 * fine, the loop comes back */
		if (now - start >= NULL_WAIT_SLICE_NS)
			return (int)n;
		if (next_due > start + NULL_WAIT_SLICE_NS)
			next_due = start + NULL_WAIT_SLICE_NS;
		clock_sleep_until_ns(next_due);
		now = clock_now_ns();
	}
}

/* Sleeps until the earliest pending I/O is due, timeout_ns at most (one
 * slice at most, as reap). */
static int null_wait(struct engine *e, uint64_t timeout_ns)
{
	struct null_state *st = e->priv;
	uint64_t now, until, earliest = UINT64_MAX;

	if (st->latency_max_ns == 0 || st->head == st->submitted)
		return 0;
	program_due_times(st);
	for (unsigned i = st->head; i != st->submitted; i++) {
		const struct io *io = st->slots[i & st->mask];

		if (io->complete_ns < earliest)
			earliest = io->complete_ns;
	}
	now = clock_now_ns();
	if (timeout_ns > NULL_WAIT_SLICE_NS)
		timeout_ns = NULL_WAIT_SLICE_NS;
	until = now + timeout_ns < earliest ? now + timeout_ns : earliest;
	if (until > now)
		clock_sleep_until_ns(until);
	return 0;
}

/* The pending I/Os, handed back undone (the loop counts none of them). */
static int null_cancel(struct engine *e, struct io **out, unsigned max)
{
	struct null_state *st = e->priv;
	unsigned n = 0;

	if (st->latency_max_ns == 0)
		return 0;
	while (n < max && st->head != st->submitted) {
		struct io *io = st->slots[st->head++ & st->mask];

		io->result = -ECANCELED;
		out[n++] = io;
	}
	st->timed = st->timed > n ? st->timed - n : 0;
	return (int)n;
}

static void null_cleanup(struct engine *e)
{
	struct null_state *st = e->priv;

	if (!st)
		return;
	free(st->slots);
	free(st);
	e->priv = NULL;
}

const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_NO_FD | ENGINE_FILES | ENGINE_TRIMS,
	.init = null_init,
	.prep = null_prep,
	.submit = null_submit,
	.reap = null_reap,
	.cancel = null_cancel,
	.wait = null_wait,
	.cleanup = null_cleanup,
};
