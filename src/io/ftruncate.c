/* ftruncate.c - fio's ftruncate engine: each write is an ftruncate of the
 * file to the I/O's offset (the block size only paces the offsets), and
 * counts as the block transferred, as fio's FIO_FAKEIO does. rw= must
 * only write (engine_opts.c): fio fails every read with EINVAL. */
#include "io/engine.h"

#include <errno.h>
#include <unistd.h>

#include "io/sync_queue.h"
#include "util/error.h"

static int32_t ftruncate_io(struct engine *e, struct io *io)
{
	int rc;

	if (io->dir != DIR_WRITE)
		return -EINVAL;
	do
		rc = ftruncate(e->fd, (off_t)io->offset);
	while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : (int32_t)io->len;
}

static int ftruncate_init(struct engine *e, const struct job_spec *spec)
{
	(void)spec;
	if (e->fd < 0)
		return err_set("ftruncate: no file descriptor");
	return sync_queue_create(e, 0, "ftruncate", ftruncate_io) ? 0 : -1;
}

static int ftruncate_check(const struct job_spec *spec)
{
	return engine_check_writes_only(spec, "ftruncate");
}

const struct engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.flags = ENGINE_SYNC,
	.check = ftruncate_check,
	.init = ftruncate_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
