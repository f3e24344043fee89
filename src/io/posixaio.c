/* posixaio.c - fio's posixaio engine: POSIX AIO (aio_read / aio_write,
 * the C library's thread pool behind them). prep fills the slot's aiocb,
 * submit starts every queued one, reap collects those that are done
 * (aio_error / aio_return) and waits with aio_suspend for the minimum.
 * Cleanup cancels what is still in flight and waits for it, so no buffer
 * is freed under an I/O. */
#include "io/engine.h"

#include <aio.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

#define SUSPEND_MAX 64

struct posixaio_state {
	struct aiocb *cbs;         /* one per slot of e->ios */
	bool *refused;             /* per slot: aio_read/aio_write refused it */
	struct io **queued;        /* prepared, not yet started */
	unsigned nr_queued;
	struct io **inflight;      /* started, not yet reaped */
	unsigned nr_inflight;
	unsigned slots;
	unsigned depth;
};

static struct aiocb *cb_of(struct engine *e, const struct io *io)
{
	struct posixaio_state *st = e->priv;
	size_t i = (size_t)(io - e->ios);

	return i < st->slots ? &st->cbs[i] : NULL;
}

static void free_state(struct posixaio_state *st)
{
	free(st->cbs);
	free(st->refused);
	free(st->queued);
	free(st->inflight);
	free(st);
}

static int posixaio_init(struct engine *e, const struct job_spec *spec)
{
	struct posixaio_state *st;

	(void)spec;
	if (e->depth == 0)
		return err_set("posixaio: iodepth must be at least 1");
	if (e->fd < 0)
		return err_set("posixaio: no file descriptor");
	if (!e->ios || !e->nr_ios)
		return err_set("posixaio: no I/O pool");
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("posixaio: out of memory");
	st->slots = e->nr_ios;
	st->depth = e->depth < e->nr_ios ? e->depth : e->nr_ios;
	st->cbs = calloc(st->slots, sizeof(*st->cbs));
	st->refused = calloc(st->slots, sizeof(*st->refused));
	st->queued = calloc(st->slots, sizeof(*st->queued));
	st->inflight = calloc(st->slots, sizeof(*st->inflight));
	if (!st->cbs || !st->refused || !st->queued || !st->inflight) {
		free_state(st);
		return err_set("posixaio: out of memory");
	}
	e->priv = st;
	return 0;
}

static int posixaio_prep(struct engine *e, struct io *io)
{
	struct posixaio_state *st = e->priv;
	struct aiocb *cb = cb_of(e, io);

	if (!cb)
		return err_set("posixaio: I/O is not from the engine's pool");
	if (st->nr_queued + st->nr_inflight >= st->depth)
		return err_set("posixaio: queue full (%u I/Os)", st->depth);
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = e->fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	st->queued[st->nr_queued++] = io;
	return 0;
}

static int posixaio_submit(struct engine *e)
{
	struct posixaio_state *st = e->priv;
	unsigned n = st->nr_queued;

	for (unsigned i = 0; i < n; i++) {
		struct io *io = st->queued[i];
		struct aiocb *cb = cb_of(e, io);
		int rc = io->dir == DIR_READ ? aio_read(cb) : aio_write(cb);

		/* refused at the start: it completes with its errno */
		io->result = rc ? -errno : 0;
		st->refused[cb - st->cbs] = rc != 0;
		st->inflight[st->nr_inflight++] = io;
	}
	st->nr_queued = 0;
	return (int)n;
}

/* The I/O's state: 1 done (result set), 0 still running. */
static int collect(struct engine *e, struct io *io)
{
	struct posixaio_state *st = e->priv;
	struct aiocb *cb = cb_of(e, io);
	int err;

	if (st->refused[cb - st->cbs])
		return 1;
	err = aio_error(cb);
	if (err == EINPROGRESS)
		return 0;
	if (err) {
		aio_return(cb);
		io->result = -err;
	} else {
		io->result = (int32_t)aio_return(cb);
	}
	return 1;
}

static int posixaio_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct posixaio_state *st = e->priv;
	unsigned got = 0;

	if (min > st->nr_inflight)
		min = st->nr_inflight;
	for (;;) {
		const struct aiocb *wait[SUSPEND_MAX];
		unsigned nr_wait = 0, i = 0;

		while (i < st->nr_inflight && got < max) {
			struct io *io = st->inflight[i];

			if (collect(e, io)) {
				out[got++] = io;
				st->inflight[i] = st->inflight[--st->nr_inflight];
				continue;
			}
			if (nr_wait < SUSPEND_MAX)
				wait[nr_wait++] = cb_of(e, io);
			i++;
		}
		if (got >= min || got >= max || !nr_wait)
			return (int)got;
		if (aio_suspend(wait, (int)nr_wait, NULL) && errno != EINTR && errno != EAGAIN)
			return err_set("posixaio: aio_suspend: %s", strerror(errno));
	}
}

static void posixaio_cleanup(struct engine *e)
{
	struct posixaio_state *st = e->priv;

	if (!st)
		return;
	aio_cancel(e->fd, NULL);
	for (unsigned i = 0; i < st->nr_inflight; i++) {
		struct aiocb *cb = cb_of(e, st->inflight[i]);
		const struct aiocb *one[1] = { cb };

		while (!st->refused[cb - st->cbs] && aio_error(cb) == EINPROGRESS)
			aio_suspend(one, 1, NULL);
	}
	free_state(st);
	e->priv = NULL;
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.flags = ENGINE_KEEPS_DATA,
	.init = posixaio_init,
	.prep = posixaio_prep,
	.submit = posixaio_submit,
	.reap = posixaio_reap,
	.cleanup = posixaio_cleanup,
};
