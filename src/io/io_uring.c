/* io_uring.c - the io_uring engine: one ring per worker sized to iodepth,
 * optional registered buffers and file, SQPOLL and polled (hipri) I/O.
 * prep fills an SQE (no syscall), submit flushes the batch with one
 * io_uring_enter, reap takes completions straight from the CQ ring and
 * enters the kernel only to wait for the minimum asked. */
#include "io/engine.h"
#include "io/uring_queue.h"

#include <errno.h>
#include <linux/falloc.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>

#include "io/atomic.h"
#include "io/cmdprio.h"
#include "util/error.h"

/* completions copied out of the CQ ring per peek */

struct uring_state {
	struct uring_queue q;  /* the ring, submitted and reaped (uring_queue.h) */
	uint8_t sqe_flags;     /* IOSQE_FIXED_FILE when the files are registered */
	bool fixedbufs;
	bool is_block;         /* trims: a discard command, else fallocate */
	/* per-I/O extras, looked at once in prep when neither is set */
	bool extras;
	struct cmdprio *cmdprio;   /* cmdprio_* options, or NULL */
	int write_rw_flags;        /* RWF_ATOMIC with atomic=1 */
};

/* The block layer's io_uring discard command (linux/blkdev.h, 6.12+),
 * what fio's io_uring engine issues for a trim. */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD 0x1200   /* _IO(0x12, 0) */
#endif

static int uring_error(const char *what, int neg_errno)
{
	return err_set("%s: %s", what, strerror(-neg_errno));
}

static unsigned round_up_pow2(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Tries the cheapest setup flags first and falls back for older kernels
 * (and SQPOLL, which rejects the task-run flags). DEFER_TASKRUN keeps
 * completions from io-wq workers (block devices without nowait support,
 * such as zram, are served there) from waking this thread for each one:
 * they are posted when reap enters the kernel, which the TASKRUN flag tells
 * liburing's peek to do. That alone measured ~1.25x more IOPS on zram0. */
static int uring_setup(struct uring_state *st, unsigned entries,
		       unsigned base_flags)
{
	static const unsigned flag_sets[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
	};
	struct io_uring_params params;
	int ret;

	for (unsigned i = 0; !(base_flags & IORING_SETUP_SQPOLL) &&
	     i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		memset(&params, 0, sizeof(params));
		params.flags = base_flags | flag_sets[i];
		ret = io_uring_queue_init_params(entries, &st->q.ring, &params);
		if (ret != -EINVAL)
			return ret;
	}
	memset(&params, 0, sizeof(params));
	params.flags = base_flags;
	return io_uring_queue_init_params(entries, &st->q.ring, &params);
}

static int uring_register_buffers(struct engine *e, struct uring_state *st)
{
	struct iovec *iov;
	unsigned i;
	int ret;

	if (!e->ios || e->nr_ios == 0 || e->buf_size == 0)
		return err_set("io_uring: fixedbufs needs the I/O buffers "
			       "before init");
	if (e->nr_ios > UINT16_MAX + 1u)
		return err_set("io_uring: fixedbufs supports at most %u "
			       "buffers, not %u", UINT16_MAX + 1u, e->nr_ios);
	iov = calloc(e->nr_ios, sizeof(*iov));
	if (!iov)
		return err_set("io_uring: out of memory");
	for (i = 0; i < e->nr_ios; i++) {
		iov[i].iov_base = e->ios[i].buf;
		iov[i].iov_len = e->buf_size;
		e->ios[i].buf_index = (uint16_t)i;
	}
	ret = io_uring_register_buffers(&st->q.ring, iov, e->nr_ios);
	free(iov);
	if (ret == -ENOMEM)
		return err_set("io_uring_register_buffers: %s (fixedbufs pins "
			       "%u x %u bytes; check ulimit -l)",
			       strerror(-ret), e->nr_ios, e->buf_size);
	if (ret < 0)
		return uring_error("io_uring_register_buffers", ret);
	st->fixedbufs = true;
	return 0;
}

/* Whether this kernel has BLOCK_URING_CMD_DISCARD (6.12 and later). */
static bool kernel_has_discard_cmd(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 12);
}

/* Registers every file of the job; each I/O then names its file by its
 * slot (engine->files[i] = i). Files opened while the job runs (openfiles
 * below nrfiles) cannot be registered up front: they stay descriptors. */
static int uring_register_files(struct engine *e, struct uring_state *st,
				const struct job_spec *spec)
{
	int ret;

	engine_files_default(e);
	for (unsigned i = 0; i < e->nr_files; i++)
		if (e->files[i] < 0) {
			if (spec->registerfiles)
				return err_set("io_uring: registerfiles needs every file open "
					       "before the job starts (openfiles below the "
					       "job's %u files)", e->nr_files);
			return 0;
		}
	ret = io_uring_register_files(&st->q.ring, e->files, e->nr_files);
	if (ret < 0) {
		if (spec->registerfiles)
			return uring_error("io_uring_register_files", ret);
		return 0;
	}
	for (unsigned i = 0; i < e->nr_files; i++)
		e->files[i] = (int)i;
	st->sqe_flags = IOSQE_FIXED_FILE;
	return 0;
}

static int uring_init(struct engine *e, const struct job_spec *spec)
{
	struct uring_state *st;
	unsigned flags = 0;
	int ret;
	bool failed;

	if (e->depth == 0)
		return err_set("io_uring: iodepth must be at least 1");
	if (e->depth > 32768)
		return err_set("io_uring: iodepth %u is above the ring limit "
			       "of 32768", e->depth);
	if (e->fd < 0)
		return err_set("io_uring: no file descriptor");
	if (spec->hipri && !spec->direct)
		return err_set("io_uring: hipri needs direct=1 (polled "
			       "completions work only with O_DIRECT)");
	if (job_spec_trims(spec) && e->is_block && !kernel_has_discard_cmd())
		return err_set("io_uring: trims on a block device need the kernel's "
			       "io_uring discard command (Linux 6.12 or later); use "
			       "ioengine=libaio or psync, which discard with BLKDISCARD");
	if (spec->sqthread_poll)
		flags |= IORING_SETUP_SQPOLL;
	if (spec->hipri)
		flags |= IORING_SETUP_IOPOLL;
	if (atomic_writes_check(e, spec))
		return -1;

	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("io_uring: out of memory");
	st->q.who = "";
	st->cmdprio = cmdprio_create(spec, &failed);
	if (failed) {
		free(st);
		return err_prefix("io_uring");
	}
	st->write_rw_flags = spec->eng.atomic ? RWF_ATOMIC : 0;
	st->extras = st->cmdprio || st->write_rw_flags;
	ret = uring_setup(st, round_up_pow2(e->depth), flags);
	if (ret < 0) {
		cmdprio_destroy(st->cmdprio);
		free(st);
		return uring_error("io_uring_queue_init", ret);
	}
	st->is_block = e->is_block;
	st->q.sqpoll = spec->sqthread_poll;
	st->q.poll_on_reap = spec->hipri && !spec->sqthread_poll;

	/* Registered buffers and file save the kernel a page pin and a file
	 * reference per I/O (~10% more IOPS on zram0), without changing what
	 * is measured, so they are used whenever the kernel allows;
	 * fixedbufs=1 / registerfiles=1 make a refusal an error. */
	if (uring_register_buffers(e, st) < 0) {
		if (spec->fixedbufs)
			goto fail;
		err_clear();
	}
	if (uring_register_files(e, st, spec) < 0)
		goto fail;
	engine_files_assign(e);
	e->priv = st;
	return 0;
fail:
	io_uring_queue_exit(&st->q.ring);
	cmdprio_destroy(st->cmdprio);
	free(st);
	return -1;
}

/* A trim: the discard command on a block device (as fio), a punched
 * hole on a file. Both complete with 0. */
static void prep_trim(struct uring_state *st, struct io_uring_sqe *sqe, const struct io *io)
{
	if (!st->is_block) {
		io_uring_prep_fallocate(sqe, io->file, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE, (off_t)io->offset, (off_t)io->len);
		return;
	}
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = io->file;
	sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
	sqe->addr = io->offset;
	sqe->addr3 = io->len;
}

static int uring_prep(struct engine *e, struct io *io)
{
	struct uring_state *st = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&st->q.ring);

	/* the SQ thread may not have consumed the last batch yet */
	if (!sqe && st->q.sqpoll && io_uring_sqring_wait(&st->q.ring) >= 0)
		sqe = io_uring_get_sqe(&st->q.ring);
	if (!sqe)
		return err_set("io_uring: queue full (%u entries)",
			       st->q.ring.sq.ring_entries);
	if (io->dir == DIR_TRIM) {
		prep_trim(st, sqe, io);
	} else if (st->fixedbufs) {
		if (io->dir == DIR_READ)
			io_uring_prep_read_fixed(sqe, io->file, io->buf,
						 io->len, io->offset,
						 io->buf_index);
		else
			io_uring_prep_write_fixed(sqe, io->file, io->buf,
						  io->len, io->offset,
						  io->buf_index);
	} else {
		if (io->dir == DIR_READ)
			io_uring_prep_read(sqe, io->file, io->buf, io->len,
					   io->offset);
		else
			io_uring_prep_write(sqe, io->file, io->buf, io->len,
					    io->offset);
	}
	sqe->flags = st->sqe_flags;
	if (st->extras) {
		if (st->cmdprio)
			sqe->ioprio = (uint16_t)cmdprio_pick(st->cmdprio, io);
		if (io->dir == DIR_WRITE)
			sqe->rw_flags = st->write_rw_flags;
	}
	io_uring_sqe_set_data(sqe, io);
	st->q.queued++;
	return 0;
}

static int uring_submit(struct engine *e)
{
	return uring_queue_submit(&((struct uring_state *)e->priv)->q);
}

static int uring_reap(struct engine *e, struct io **out, unsigned min,
		      unsigned max)
{
	struct uring_state *st = e->priv;
	int got = uring_queue_reap(&st->q, out, min, max);

	if (got > 0 && st->cmdprio)
		for (int i = 0; i < got; i++)
			cmdprio_complete(st->cmdprio, out[i], e->measuring);
	return got;
}

static int uring_wait(struct engine *e, uint64_t timeout_ns)
{
	return uring_queue_wait(&((struct uring_state *)e->priv)->q, timeout_ns);
}

static int uring_collect(struct engine *e, struct job_result *r)
{
	struct uring_state *st = e->priv;

	return st && st->cmdprio ? cmdprio_collect(st->cmdprio, r) : 0;
}

static const struct option_def uring_options[] = {
	CMDPRIO_OPTIONS,
	{ NULL },
};

static void uring_cleanup(struct engine *e)
{
	struct uring_state *st = e->priv;

	if (!st)
		return;
	io_uring_queue_exit(&st->q.ring);
	cmdprio_destroy(st->cmdprio);
	free(st);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.flags = ENGINE_KEEPS_DATA | ENGINE_ATOMIC | ENGINE_FILES | ENGINE_TRIMS,
	.options = uring_options,
	.init = uring_init,
	.prep = uring_prep,
	.submit = uring_submit,
	.reap = uring_reap,
	.wait = uring_wait,
	.cleanup = uring_cleanup,
	.collect = uring_collect,
};
