/* sync_queue.h - what every synchronous engine shares: a FIFO of the I/Os
 * prepared since the last submit; submit performs them in order with the
 * engine's one-I/O function and keeps each result, reap hands them back.
 * psync, sync, pvsync, pvsync2, ftruncate, falloc, e4defrag and
 * page_fault are each such a function over this queue. */
#ifndef DRIVEBENCH_SYNC_QUEUE_H
#define DRIVEBENCH_SYNC_QUEUE_H

#include "io/engine.h"

/* Performs one I/O on e: the bytes done, or -errno. */
typedef int32_t (*sync_io_fn)(struct engine *e, struct io *io);

/* [head, submitted) done, [submitted, tail) queued. An engine's private
 * state starts with one (so the shared ops below find it in e->priv). */
struct sync_queue {
	struct io **slots;
	unsigned mask, depth;
	unsigned head, submitted, tail;
	sync_io_fn io;
	const char *name;        /* the engine's, for messages */
};

/* Allocates size bytes of zeroed engine state whose first member is a
 * sync_queue, sets it up for e's depth and stores it in e->priv. Returns
 * the state or NULL with err_msg ("NAME: ..."). */
void *sync_queue_create(struct engine *e, size_t size, const char *name, sync_io_fn io);

/* The ops of a synchronous engine over e->priv's queue. */
int sync_queue_prep(struct engine *e, struct io *io);
int sync_queue_submit(struct engine *e);

/* sync_queue_submit with the I/O function known here, so an engine's own
 * submit (psync's) compiles it inline: no indirect call per I/O. */
static inline int sync_queue_submit_with(struct engine *e, sync_io_fn io_fn)
{
	struct sync_queue *q = e->priv;
	unsigned n = q->tail - q->submitted;

	while (q->submitted != q->tail) {
		struct io *io = q->slots[q->submitted++ & q->mask];

		io->result = io_fn(e, io);
	}
	return (int)n;
}
int sync_queue_reap(struct engine *e, struct io **out, unsigned min, unsigned max);
/* For engines whose reap does the work (cpuio, exec): the oldest
 * submitted I/O not yet handed back, or NULL; and handing it back. */
struct io *sync_queue_peek(struct sync_queue *q);
void sync_queue_pop(struct sync_queue *q);
/* cancel: hands back every submitted I/O with -ECANCELED. */
int sync_queue_cancel(struct engine *e, struct io **out, unsigned max);

/* Frees the queue and e->priv (an engine frees what it added first). */
void sync_queue_destroy(struct engine *e);

#endif
