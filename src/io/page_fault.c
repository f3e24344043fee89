/* page_fault.c - fio's page_fault engine (fio 3.41+): no file; the job's
 * size of anonymous memory is mapped and every I/O copies its block to
 * (write) or from (read) the mapping, so first touches fault pages in.
 * The mapping starts at the job's offset 0 (offsets are refused, as in
 * fio) and lives for the job. */
#include "io/engine.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "io/sync_queue.h"
#include "util/error.h"

struct page_fault_state {
	struct sync_queue q;     /* first: the shared ops find it */
	char *map;
	uint64_t len;
};

static int32_t page_fault_io(struct engine *e, struct io *io)
{
	struct page_fault_state *st = e->priv;

	if (io->offset > st->len || io->len > st->len - io->offset)
		return -EINVAL;
	if (io->dir == DIR_READ)
		memcpy(io->buf, st->map + io->offset, io->len);
	else
		memcpy(st->map + io->offset, io->buf, io->len);
	return (int32_t)io->len;
}

static int page_fault_init(struct engine *e, const struct job_spec *spec)
{
	struct page_fault_state *st;
	uint64_t len = e->range_start + e->range_len;

	(void)spec;
	if (e->range_start)
		return err_set("page_fault: the mapping starts at offset 0 (offset %llu given)",
			       (unsigned long long)e->range_start);
	st = sync_queue_create(e, sizeof(*st), "page_fault", page_fault_io);
	if (!st)
		return -1;
	st->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->map == MAP_FAILED) {
		int saved = errno;

		sync_queue_destroy(e);
		return err_set("page_fault: cannot map %llu bytes: %s",
			       (unsigned long long)len, strerror(saved));
	}
	st->len = len;
	return 0;
}

static void page_fault_cleanup(struct engine *e)
{
	struct page_fault_state *st = e->priv;

	if (st && st->map && st->map != MAP_FAILED)
		munmap(st->map, st->len);
	sync_queue_destroy(e);
}

static int page_fault_check(const struct job_spec *spec)
{
	if (spec->offset || spec->offset_pct > 0 ||
	    spec->offset_increment || spec->offset_increment_pct > 0)
		return err_set("ioengine=page_fault maps the job's size from its start: "
			       "offset= and offset_increment= are not supported (as in fio)");
	return 0;
}

const struct engine_ops engine_page_fault = {
	.name = "page_fault",
	.flags = ENGINE_SYNC | ENGINE_NO_FD,
	.check = page_fault_check,
	.init = page_fault_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = sync_queue_reap,
	.cleanup = page_fault_cleanup,
};
