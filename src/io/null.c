/* null.c - the null engine: no file, every I/O completes at once with
 * result = len. With null_latency_max_ns set, reap programs each completion
 * time (issue_ns + null_latency_for(seq)) so percentile math can be tested
 * against known latencies. */
#include "io/engine.h"

#include <stdlib.h>

#include "io/null_latency.h"
#include "util/error.h"

/* A FIFO of depth slots: [head, submitted) done, [submitted, tail) queued. */
struct null_state {
	struct io **slots;
	unsigned mask;
	unsigned depth;
	unsigned head, submitted, tail;
	uint64_t latency_min_ns, latency_max_ns;
	uint64_t seq;          /* completions so far */
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

static int null_reap(struct engine *e, struct io **out, unsigned min,
		     unsigned max)
{
	struct null_state *st = e->priv;
	unsigned n = st->submitted - st->head, i;

	(void)min; /* everything submitted is already complete */
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		struct io *io = st->slots[st->head++ & st->mask];

		io->result = (int32_t)io->len;
		if (st->latency_max_ns > 0)
			io->complete_ns = io->issue_ns +
				null_latency_for(++st->seq, st->latency_min_ns,
						 st->latency_max_ns);
		out[i] = io;
	}
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
	.init = null_init,
	.prep = null_prep,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
