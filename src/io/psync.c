/* psync.c - the psync engine: submit performs each queued I/O with
 * pread/pwrite in order and keeps the result; reap hands them back
 * (io/sync_queue.c). Short transfers are reported as they are (the runner
 * decides what to do). Each I/O goes to its own file (io->file); a trim
 * is engine_trim_sync's. */
#include "io/engine.h"

#include "io/sync_queue.h"
#include "util/error.h"

static int32_t psync_io(struct engine *e, struct io *io)
{
	return io->dir == DIR_TRIM ? engine_trim_sync(e, io) : engine_posix_io(io->file, io);
}

static int psync_submit(struct engine *e)
{
	return sync_queue_submit_with(e, psync_io);
}

static int psync_init(struct engine *e, const struct job_spec *spec)
{
	(void)spec;
	if (e->fd < 0)
		return err_set("psync: no file descriptor");
	if (!sync_queue_create(e, 0, "psync", psync_io))
		return -1;
	engine_files_default(e);
	engine_files_assign(e);
	return 0;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA | ENGINE_FILES | ENGINE_TRIMS,
	.init = psync_init,
	.prep = sync_queue_prep,
	.submit = psync_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
