/* pvsync.c - fio's pvsync and pvsync2 engines: each I/O is one preadv /
 * pwritev of a single iovec, performed by submit in order
 * (io/sync_queue.c). pvsync2 uses preadv2 / pwritev2 with fio's flags:
 * hipri (RWF_HIPRI, polled completion, on hipri_percentage of the I/Os),
 * nowait (RWF_NOWAIT), uncached (RWF_DONTCACHE for buffered I/O) and
 * atomic=1 (RWF_ATOMIC writes). */
#include "io/engine.h"

#include <errno.h>
#include <sys/uio.h>

#include "io/atomic.h"
#include "io/sync_queue.h"
#include "util/error.h"
#include "job/option_table.h"
#include "job/random.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

/* hipri_percentage draws from its own stream of the job's seed. */
#define HIPRI_RNG_STREAM 17u

struct pvsync_state {
	struct sync_queue q;     /* first: the shared ops find it */
	int flags;               /* every I/O's RWF_ flags */
	int write_flags;         /* added to writes (RWF_ATOMIC) */
	unsigned hipri_pct;      /* 0: no RWF_HIPRI */
	struct rng rng;
};

static int32_t pvsync_io(struct engine *e, struct io *io)
{
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	ssize_t ret;

	do {
		if (io->dir == DIR_READ)
			ret = preadv(e->fd, &iov, 1, (off_t)io->offset);
		else
			ret = pwritev(e->fd, &iov, 1, (off_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : (int32_t)ret;
}

static int32_t pvsync2_io(struct engine *e, struct io *io)
{
	struct pvsync_state *st = e->priv;
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	int flags = st->flags;
	ssize_t ret;

	if (st->hipri_pct && rng_below(&st->rng, 100) < st->hipri_pct)
		flags |= RWF_HIPRI;
	do {
		if (io->dir == DIR_READ)
			ret = preadv2(e->fd, &iov, 1, (off_t)io->offset, flags);
		else
			ret = pwritev2(e->fd, &iov, 1, (off_t)io->offset,
				       flags | st->write_flags);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : (int32_t)ret;
}

static int pvsync_submit(struct engine *e)
{
	return sync_queue_submit_with(e, pvsync_io);
}

static int pvsync2_submit(struct engine *e)
{
	return sync_queue_submit_with(e, pvsync2_io);
}

static int pvsync_init(struct engine *e, const struct job_spec *spec)
{
	(void)spec;
	if (e->fd < 0)
		return err_set("pvsync: no file descriptor");
	return sync_queue_create(e, sizeof(struct pvsync_state), "pvsync", pvsync_io) ? 0 : -1;
}

static int pvsync2_init(struct engine *e, const struct job_spec *spec)
{
	const struct pvsync2_opts *o = &spec->eng.pvsync2;
	struct pvsync_state *st;

	if (e->fd < 0)
		return err_set("pvsync2: no file descriptor");
	if (atomic_writes_check(e, spec))
		return -1;
	st = sync_queue_create(e, sizeof(*st), "pvsync2", pvsync2_io);
	if (!st)
		return -1;
	if (o->nowait)
		st->flags |= RWF_NOWAIT;
	if (o->uncached && !spec->direct)
		st->flags |= RWF_DONTCACHE;
	if (spec->eng.atomic)
		st->write_flags = RWF_ATOMIC;
	st->hipri_pct = spec->hipri ? o->hipri_percentage : 0;
	rng_seed(&st->rng, job_seed(spec, 0, HIPRI_RNG_STREAM));
	return 0;
}

#define PFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

static const struct option_def pvsync2_options[] = {
	{ "hipri_percentage", NULL, OPT_UINT, PFIELD(eng.pvsync2.hipri_percentage), 0, 100 },
	{ "nowait", NULL, OPT_BOOL, PFIELD(eng.pvsync2.nowait), 0, 0, 0, NULL, true },
	{ "uncached", NULL, OPT_UINT, PFIELD(eng.pvsync2.uncached), 0, 1 },
	{ NULL },
};

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA,
	.init = pvsync_init,
	.prep = sync_queue_prep,
	.submit = pvsync_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.flags = ENGINE_SYNC | ENGINE_KEEPS_DATA | ENGINE_ATOMIC,
	.options = pvsync2_options,
	.init = pvsync2_init,
	.prep = sync_queue_prep,
	.submit = pvsync2_submit,
	.reap = sync_queue_reap,
	.cleanup = sync_queue_destroy,
};
