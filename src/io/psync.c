/* psync.c - the psync engine: submit performs each queued I/O with
 * pread/pwrite in order and keeps the result; reap hands them back. Short
 * transfers are reported as they are (the runner decides what to do). */
#include "io/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/error.h"

/* A FIFO of depth slots: [head, submitted) done, [submitted, tail) queued. */
struct psync_state {
	struct io **slots;
	unsigned mask;
	unsigned depth;
	unsigned head, submitted, tail;
};

static unsigned round_up_pow2(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int psync_init(struct engine *e, const struct job_spec *spec)
{
	struct psync_state *st;
	unsigned slots;

	(void)spec;
	if (e->depth == 0)
		return err_set("psync: iodepth must be at least 1");
	if (e->depth > (1u << 30))
		return err_set("psync: iodepth %u is too large", e->depth);
	if (e->fd < 0)
		return err_set("psync: no file descriptor");
	slots = round_up_pow2(e->depth);
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("psync: out of memory");
	st->slots = calloc(slots, sizeof(*st->slots));
	if (!st->slots) {
		free(st);
		return err_set("psync: out of memory");
	}
	st->mask = slots - 1;
	st->depth = e->depth;
	e->priv = st;
	engine_files_default(e);
	engine_files_assign(e);
	return 0;
}

static int psync_prep(struct engine *e, struct io *io)
{
	struct psync_state *st = e->priv;

	if (st->tail - st->head >= st->depth)
		return err_set("psync: queue full (%u I/Os)", st->depth);
	st->slots[st->tail++ & st->mask] = io;
	return 0;
}

static int psync_submit(struct engine *e)
{
	struct psync_state *st = e->priv;
	unsigned n = st->tail - st->submitted;

	while (st->submitted != st->tail) {
		struct io *io = st->slots[st->submitted++ & st->mask];

		io->result = io->dir == DIR_TRIM ? engine_trim_sync(e, io) :
			engine_posix_io(io->file, io);
	}
	return (int)n;
}

static int psync_reap(struct engine *e, struct io **out, unsigned min,
		      unsigned max)
{
	struct psync_state *st = e->priv;
	unsigned n = st->submitted - st->head, i;

	(void)min; /* everything submitted is already complete */
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = st->slots[st->head++ & st->mask];
	return (int)n;
}

static void psync_cleanup(struct engine *e)
{
	struct psync_state *st = e->priv;

	if (!st)
		return;
	free(st->slots);
	free(st);
	e->priv = NULL;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_FLAGS_PSYNC,
	.init = psync_init,
	.prep = psync_prep,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
