/* libaio.c - the libaio engine (Linux native AIO): one io_context per
 * worker sized to iodepth, a fixed pool of iocbs, batched io_submit and
 * io_getevents. An I/O the kernel rejects at submit (bad fd, bad alignment)
 * completes with its -errno instead of failing the whole batch. */
#include "io/engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/atomic.h"
#include "io/cmdprio.h"
#include "util/error.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)    /* linux/aio_abi.h: aio_reqprio is set */
#endif

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;        /* depth control blocks */
	struct iocb **free_iocbs;  /* stack of unused ones */
	unsigned nr_free;
	struct iocb **queued;      /* prepared, in prep order */
	unsigned nr_queued;
	struct io **rejected;      /* done already (refused by io_submit, a
				    * trim, or waited for): reaped first */
	unsigned nr_rejected;
	struct io_event *events;   /* depth */
	unsigned depth;
	unsigned inflight;         /* submitted (or rejected), not yet reaped */
	/* per-I/O extras, looked at once in prep when neither is set */
	bool extras;
	struct cmdprio *cmdprio;   /* cmdprio_* options, or NULL */
	int write_rw_flags;        /* RWF_ATOMIC with atomic=1 */
};

static void aio_free_state(struct aio_state *st)
{
	cmdprio_destroy(st->cmdprio);
	free(st->iocbs);
	free(st->free_iocbs);
	free(st->queued);
	free(st->rejected);
	free(st->events);
	free(st);
}

static int aio_init(struct engine *e, const struct job_spec *spec)
{
	struct aio_state *st;
	unsigned i;
	int ret;
	bool failed;

	if (e->depth == 0)
		return err_set("libaio: iodepth must be at least 1");
	if (e->depth > (1u << 20))
		return err_set("libaio: iodepth %u is too large", e->depth);
	if (e->fd < 0)
		return err_set("libaio: no file descriptor");
	if (atomic_writes_check(e, spec))
		return -1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("libaio: out of memory");
	st->cmdprio = cmdprio_create(spec, &failed);
	if (failed) {
		free(st);
		return err_prefix("libaio");
	}
	st->write_rw_flags = spec->eng.atomic ? RWF_ATOMIC : 0;
	st->extras = st->cmdprio || st->write_rw_flags;
	st->depth = e->depth;
	st->iocbs = calloc(e->depth, sizeof(*st->iocbs));
	st->free_iocbs = calloc(e->depth, sizeof(*st->free_iocbs));
	st->queued = calloc(e->depth, sizeof(*st->queued));
	st->rejected = calloc(e->depth, sizeof(*st->rejected));
	st->events = calloc(e->depth, sizeof(*st->events));
	if (!st->iocbs || !st->free_iocbs || !st->queued || !st->rejected ||
	    !st->events) {
		aio_free_state(st);
		return err_set("libaio: out of memory");
	}
	for (i = 0; i < e->depth; i++)
		st->free_iocbs[i] = &st->iocbs[i];
	st->nr_free = e->depth;
	ret = io_setup((int)e->depth, &st->ctx);
	if (ret < 0) {
		aio_free_state(st);
		if (ret == -EAGAIN)
			return err_set("io_setup: %s (iodepth %u exceeds what "
				       "fs.aio-max-nr leaves free)",
				       strerror(-ret), e->depth);
		return err_set("io_setup: %s", strerror(-ret));
	}
	e->priv = st;
	engine_files_default(e);
	engine_files_assign(e);
	return 0;
}

static int aio_prep(struct engine *e, struct io *io)
{
	struct aio_state *st = e->priv;
	struct iocb *iocb;

	if (st->nr_free == 0)
		return err_set("libaio: queue full (%u I/Os)", st->depth);
	if (io->dir == DIR_TRIM) {
		/* AIO has no discard: done at once, as fio's libaio engine does,
		 * and handed back first by reap */
		io->result = engine_trim_sync(e, io);
		st->rejected[st->nr_rejected++] = io;
		st->inflight++;
		return 0;
	}
	iocb = st->free_iocbs[--st->nr_free];
	if (io->dir == DIR_READ)
		io_prep_pread(iocb, io->file, io->buf, io->len, (long long)io->offset);
	else
		io_prep_pwrite(iocb, io->file, io->buf, io->len, (long long)io->offset);
	iocb->data = io;
	if (st->extras) {
		if (st->cmdprio) {
			iocb->aio_reqprio = (short)cmdprio_pick(st->cmdprio, io);
			iocb->u.c.flags |= IOCB_FLAG_IOPRIO;
		}
		if (io->dir == DIR_WRITE)
			iocb->aio_rw_flags = st->write_rw_flags;
	}
	st->queued[st->nr_queued++] = iocb;
	return 0;
}

static int aio_submit(struct engine *e)
{
	struct aio_state *st = e->priv;
	unsigned done = 0, total = st->nr_queued;

	while (done < total) {
		int ret = io_submit(st->ctx, (long)(total - done),
				    st->queued + done);

		if (ret > 0) {
			done += (unsigned)ret;
			st->inflight += (unsigned)ret;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == 0 || ret == -EAGAIN) {
			/* keep the unsubmitted ones queued for the next call */
			memmove(st->queued, st->queued + done,
				(total - done) * sizeof(*st->queued));
			st->nr_queued = total - done;
			return err_set("io_submit: %s (%u of %u I/Os submitted)",
				       ret == 0 ? "no progress" : strerror(-ret),
				       done, total);
		}
		/* the first iocb was refused: it completes with the error */
		{
			struct iocb *iocb = st->queued[done++];
			struct io *io = iocb->data;

			io->result = ret;
			st->rejected[st->nr_rejected++] = io;
			st->free_iocbs[st->nr_free++] = iocb;
			st->inflight++;
		}
	}
	st->nr_queued = 0;
	return (int)total;
}

static int aio_reap(struct engine *e, struct io **out, unsigned min,
		    unsigned max)
{
	struct aio_state *st = e->priv;
	unsigned got = 0;

	if (max > st->inflight)
		max = st->inflight;
	if (min > max)
		min = max;
	while (st->nr_rejected > 0 && got < max)
		out[got++] = st->rejected[--st->nr_rejected];
	if (got < max) {
		long need = min > got ? (long)(min - got) : 0;
		/* a zero timeout lets libaio check its user-space ring and
		 * skip the syscall when nothing has completed */
		struct timespec no_wait = { 0, 0 };
		int ret, i;

		do
			ret = io_getevents(st->ctx, need, (long)(max - got),
					   st->events, need ? NULL : &no_wait);
		while (ret == -EINTR);
		if (ret < 0) {
			st->inflight -= got;
			return err_set("io_getevents: %s", strerror(-ret));
		}
		for (i = 0; i < ret; i++) {
			struct iocb *iocb = st->events[i].obj;
			struct io *io = iocb->data;

			io->result = (int32_t)(long)st->events[i].res;
			st->free_iocbs[st->nr_free++] = iocb;
			out[got++] = io;
		}
	}
	st->inflight -= got;
	if (st->cmdprio)
		for (unsigned i = 0; i < got; i++)
			cmdprio_complete(st->cmdprio, out[i], e->measuring);
	return (int)got;
}

/* Waits for completions (up to timeout_ns) and keeps them for reap. */
static int aio_wait(struct engine *e, uint64_t timeout_ns)
{
	struct aio_state *st = e->priv;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000ull),
			       (long)(timeout_ns % 1000000000ull) };
	unsigned room = st->inflight - st->nr_rejected;
	int ret, i;

	if (st->nr_rejected || !room)
		return 0;
	do
		ret = io_getevents(st->ctx, 1, (long)room, st->events, &ts);
	while (ret == -EINTR);
	if (ret < 0)
		return err_set("io_getevents: %s", strerror(-ret));
	for (i = 0; i < ret; i++) {
		struct iocb *iocb = st->events[i].obj;
		struct io *io = iocb->data;

		io->result = (int32_t)(long)st->events[i].res;
		st->free_iocbs[st->nr_free++] = iocb;
		st->rejected[st->nr_rejected++] = io;
	}
	return 0;
}

static int aio_collect(struct engine *e, struct job_result *r)
{
	struct aio_state *st = e->priv;

	return st && st->cmdprio ? cmdprio_collect(st->cmdprio, r) : 0;
}

static const struct option_def aio_options[] = {
	CMDPRIO_OPTIONS,
	{ NULL },
};

static void aio_cleanup(struct engine *e)
{
	struct aio_state *st = e->priv;

	if (!st)
		return;
	/* io_destroy waits for I/Os still in flight before it returns */
	io_destroy(st->ctx);
	aio_free_state(st);
	e->priv = NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.flags = ENGINE_KEEPS_DATA | ENGINE_ATOMIC | ENGINE_FILES | ENGINE_TRIMS,
	.options = aio_options,
	.init = aio_init,
	.prep = aio_prep,
	.submit = aio_submit,
	.reap = aio_reap,
	.wait = aio_wait,
	.cleanup = aio_cleanup,
	.collect = aio_collect,
};
