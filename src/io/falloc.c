/* falloc.c - fio's falloc engine: each I/O is an fallocate of its range.
 * A write allocates and extends the file (mode 0), a read allocates
 * without changing the size (FALLOC_FL_KEEP_SIZE), so every job of this
 * engine changes its target (ENGINE_ALTERS: the write gate applies, the
 * file opens read-write). A trim punches a hole (PUNCH_HOLE | KEEP_SIZE),
 * fio's falloc trim. */
#include "io/engine.h"

#include <errno.h>
#include <fcntl.h>

#include "io/sync_queue.h"
#include "util/error.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif

static int32_t falloc_io(struct engine *e, struct io *io)
{
	int mode = io->dir == DIR_READ ? FALLOC_FL_KEEP_SIZE :
		   io->dir == DIR_TRIM ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE : 0, rc;

	do
		rc = fallocate(e->fd, mode, (off_t)io->offset, (off_t)io->len);
	while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : (int32_t)io->len;
}

static int falloc_init(struct engine *e, const struct job_spec *spec)
{
	(void)spec;
	if (e->fd < 0)
		return err_set("falloc: no file descriptor");
	return sync_queue_create(e, 0, "falloc", falloc_io) ? 0 : -1;
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.flags = ENGINE_SYNC | ENGINE_ALTERS | ENGINE_TRIMS,
	.init = falloc_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
