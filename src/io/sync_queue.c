/* sync_queue.c - the FIFO of a synchronous engine (sync_queue.h): prep
 * queues, submit performs each queued I/O in order with the engine's
 * function, reap hands back what submit completed. */
#include "io/sync_queue.h"

#include <errno.h>
#include <stdlib.h>

#include "util/error.h"

static unsigned round_up_pow2(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

void *sync_queue_create(struct engine *e, size_t size, const char *name, sync_io_fn io)
{
	struct sync_queue *q;
	unsigned slots;

	if (e->depth == 0) {
		err_set("%s: iodepth must be at least 1", name);
		return NULL;
	}
	if (e->depth > (1u << 30)) {
		err_set("%s: iodepth %u is too large", name, e->depth);
		return NULL;
	}
	slots = round_up_pow2(e->depth);
	q = calloc(1, size < sizeof(*q) ? sizeof(*q) : size);
	if (!q || !(q->slots = calloc(slots, sizeof(*q->slots)))) {
		free(q);
		err_set("%s: out of memory", name);
		return NULL;
	}
	q->mask = slots - 1;
	q->depth = e->depth;
	q->io = io;
	q->name = name;
	e->priv = q;
	return q;
}

int sync_queue_prep(struct engine *e, struct io *io)
{
	struct sync_queue *q = e->priv;

	if (q->tail - q->head >= q->depth)
		return err_set("%s: queue full (%u I/Os)", q->name, q->depth);
	q->slots[q->tail++ & q->mask] = io;
	return 0;
}

int sync_queue_submit(struct engine *e)
{
	struct sync_queue *q = e->priv;

	return sync_queue_submit_with(e, q->io);
}

int sync_queue_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct sync_queue *q = e->priv;
	unsigned n = q->submitted - q->head, i;

	(void)min; /* everything submitted is already complete */
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = q->slots[q->head++ & q->mask];
	return (int)n;
}

struct io *sync_queue_peek(struct sync_queue *q)
{
	return q->head != q->submitted ? q->slots[q->head & q->mask] : NULL;
}

void sync_queue_pop(struct sync_queue *q)
{
	if (q->head != q->submitted)
		q->head++;
}

int sync_queue_cancel(struct engine *e, struct io **out, unsigned max)
{
	struct sync_queue *q = e->priv;
	unsigned n = 0;

	while (n < max && q->head != q->submitted) {
		struct io *io = q->slots[q->head++ & q->mask];

		io->result = -ECANCELED;
		out[n++] = io;
	}
	return (int)n;
}

void sync_queue_destroy(struct engine *e)
{
	struct sync_queue *q = e->priv;

	if (!q)
		return;
	free(q->slots);
	free(q);
	e->priv = NULL;
}
