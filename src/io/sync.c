/* sync.c - fio's sync and vsync engines. sync: each I/O is an lseek
 * (skipped when the file position is already there, as after a sequential
 * I/O) and a read or write, performed by submit in order
 * (io/sync_queue.c). vsync: submit joins the queued I/Os that continue
 * one another (same direction, each starting where the last ended) into
 * one lseek and readv / writev, as fio's vsync; the bytes done are then
 * handed to the I/Os in order. */
#include "io/engine.h"

#include <errno.h>
#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/sync_queue.h"
#include "util/error.h"

struct sync_state {
	struct sync_queue q;     /* first: the shared ops find it */
	uint64_t pos;            /* the fd's file position; UINT64_MAX unknown */
};

static int32_t sync_io(struct engine *e, struct io *io)
{
	struct sync_state *st = e->priv;
	ssize_t ret;

	if (st->pos != io->offset) {
		st->pos = UINT64_MAX;
		if (lseek(e->fd, (off_t)io->offset, SEEK_SET) < 0)
			return -errno;
	}
	do {
		if (io->dir == DIR_READ)
			ret = read(e->fd, io->buf, io->len);
		else
			ret = write(e->fd, io->buf, io->len);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	st->pos = io->offset + (uint64_t)ret;
	return (int32_t)ret;
}

static int sync_submit(struct engine *e)
{
	return sync_queue_submit_with(e, sync_io);
}

static int sync_init(struct engine *e, const struct job_spec *spec)
{
	struct sync_state *st;

	(void)spec;
	if (e->fd < 0)
		return err_set("sync: no file descriptor");
	st = sync_queue_create(e, sizeof(*st), "sync", sync_io);
	if (!st)
		return -1;
	st->pos = UINT64_MAX;
	return 0;
}

/* One readv / writev of q->slots[first, first + n), results set. */
static void vsync_run(struct engine *e, struct sync_state *st, unsigned first,
		      unsigned n, struct iovec *iov)
{
	struct sync_queue *q = &st->q;
	struct io *head = q->slots[first & q->mask];
	ssize_t ret = -1;
	uint64_t left;

	for (unsigned i = 0; i < n; i++) {
		struct io *io = q->slots[(first + i) & q->mask];

		iov[i].iov_base = io->buf;
		iov[i].iov_len = io->len;
	}
	if (st->pos == head->offset || lseek(e->fd, (off_t)head->offset, SEEK_SET) >= 0) {
		do
			ret = head->dir == DIR_READ ? readv(e->fd, iov, (int)n) :
				writev(e->fd, iov, (int)n);
		while (ret < 0 && errno == EINTR);
	}
	st->pos = ret >= 0 ? head->offset + (uint64_t)ret : UINT64_MAX;
	left = ret >= 0 ? (uint64_t)ret : 0;
	for (unsigned i = 0; i < n; i++) {
		struct io *io = q->slots[(first + i) & q->mask];
		uint64_t part = left < io->len ? left : io->len;

		io->result = ret < 0 ? -errno : (int32_t)part;
		left -= part;
	}
}

static int vsync_submit(struct engine *e)
{
	struct sync_state *st = e->priv;
	struct sync_queue *q = &st->q;
	unsigned n = q->tail - q->submitted;
	struct iovec iov[64];

	while (q->submitted != q->tail) {
		unsigned first = q->submitted, count = 1;
		struct io *prev = q->slots[first & q->mask];

		while (first + count != q->tail && count < 64) {
			struct io *next = q->slots[(first + count) & q->mask];

			if (next->dir != prev->dir || next->offset != prev->offset + prev->len)
				break;
			prev = next;
			count++;
		}
		vsync_run(e, st, first, count, iov);
		q->submitted += count;
	}
	return (int)n;
}

static int vsync_init(struct engine *e, const struct job_spec *spec)
{
	struct sync_state *st;

	(void)spec;
	if (e->fd < 0)
		return err_set("vsync: no file descriptor");
	st = sync_queue_create(e, sizeof(*st), "vsync", sync_io);
	if (!st)
		return -1;
	st->pos = UINT64_MAX;
	return 0;
}

const struct engine_ops engine_vsync = {
	.name = "vsync",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA,
	.init = vsync_init,
	.prep = sync_queue_prep,
	.submit = vsync_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA,
	.init = sync_init,
	.prep = sync_queue_prep,
	.submit = sync_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
