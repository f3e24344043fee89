/* sync.c - fio's sync engine: each I/O is an lseek (skipped when the file
 * position is already there, as after a sequential I/O) and a read or
 * write, performed by submit in order (io/sync_queue.c). */
#include "io/engine.h"

#include <errno.h>
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

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA,
	.init = sync_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
