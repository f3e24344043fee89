/* io_uring_cmd.c - fio's io_uring_cmd engine with cmd_type=nvme: reads,
 * writes and trims as NVMe commands (Read, Write, Dataset Management
 * deallocate) on a namespace's generic character device /dev/ngXnY, sent
 * with IORING_OP_URING_CMD (NVME_URING_CMD_IO, or _IO_VEC with
 * nonvectored=0) on a ring of 128-byte SQEs and 32-byte CQEs. The
 * namespace id and LBA size come from the target (device/target.c asks the
 * device); prep encodes (io/nvme_cmd.c), submit and reap are io_uring's. */
#include "io/engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/nvme_cmd.h"
#include "io/uring_queue.h"
#include "job/option_table.h"
#include "util/error.h"
#include "util/units.h"


/* What a command points at besides its data: it must outlive the
 * submission (the kernel reads it when the command starts). */
struct cmd_slot {
	struct nvme_dsm_range range;
	struct iovec iov;
};

struct cmd_state {
	struct uring_queue q;      /* the ring, submitted and reaped (uring_queue.h) */
	struct nvme_cmd_target target;
	struct cmd_slot *slots;    /* one per I/O of the pool */
	struct io *pool;
	unsigned nr_pool;
	uint8_t sqe_flags;         /* IOSQE_FIXED_FILE with registerfiles=1 */
	bool fixedbufs;
	uint32_t fixed_len;        /* bytes registered of each buffer */
	unsigned status;           /* the last NVMe status a command ended with */
	unsigned refused;          /* commands the kernel ended with EINVAL */
};

static int cmd_error(const char *what, int neg_errno)
{
	return err_set("io_uring_cmd: %s: %s", what, strerror(-neg_errno));
}

/* Passthrough needs 128-byte SQEs (the NVMe command lies in the SQE) and
 * 32-byte CQEs (its result dwords); the task-run flags are tried first, as
 * the io_uring engine does, then dropped for an older kernel. */
static int cmd_ring_setup(struct cmd_state *st, unsigned entries, unsigned flags)
{
	static const unsigned extra[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		0,
	};
	struct io_uring_params p;
	int ret = -EINVAL;

	flags |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
	for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		if ((flags & IORING_SETUP_SQPOLL) && extra[i])
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = flags | extra[i];
		ret = io_uring_queue_init_params(entries, &st->q.ring, &p);
		if (ret != -EINVAL)
			return ret;
	}
	return ret;
}

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Linux 6.1 maps a registered buffer into a command by all of its pages,
 * and refuses (EINVAL) one of more pages than the queue has segments
 * (seen on QEMU's controller: 512 KiB and 1 MiB buffers refused, 8 KiB
 * taken). So each buffer is registered up to that many pages; an I/O
 * that reaches beyond (a verify read-back's larger pieces) goes without
 * IORING_URING_CMD_FIXED. */
static int cmd_register_buffers(struct engine *e, struct cmd_state *st)
{
	struct iovec *iov = calloc(e->nr_ios, sizeof(*iov));
	size_t most = e->buf_size, page = (size_t)sysconf(_SC_PAGESIZE);
	int ret;

	if (!iov)
		return err_set("io_uring_cmd: out of memory");
	if (e->max_segments > 1 && most > (e->max_segments - 1) * page)
		most = (e->max_segments - 1) * page;
	st->fixed_len = (uint32_t)most;
	for (unsigned i = 0; i < e->nr_ios; i++) {
		iov[i].iov_base = e->ios[i].buf;
		iov[i].iov_len = most;
	}
	ret = io_uring_register_buffers(&st->q.ring, iov, e->nr_ios);
	free(iov);
	if (ret < 0)
		return err_set("io_uring_cmd: fixedbufs=1: io_uring_register_buffers: %s%s",
			       strerror(-ret), ret == -ENOMEM ? " (check ulimit -l)" : "");
	st->fixedbufs = true;
	return 0;
}

static int cmd_init(struct engine *e, const struct job_spec *spec)
{
	const struct uring_cmd_opts *o = &spec->eng.uring_cmd;
	struct cmd_state *st;
	unsigned flags = 0;
	int ret;

	if (e->depth == 0 || e->depth > 32768)
		return err_set("io_uring_cmd: iodepth %u is outside 1..32768", e->depth);
	if (e->fd < 0 || e->nvme_nsid == 0 || e->lba_size == 0)
		return err_set("io_uring_cmd: '%s' is not an NVMe namespace's character "
			       "device (/dev/ngXnY)", e->path ? e->path : "?");
	if (!e->ios || e->nr_ios == 0 || e->nr_ios > UINT16_MAX + 1u)
		return err_set("io_uring_cmd: needs the runner's I/O pool (1..65536 I/Os)");
	if (spec->sqthread_poll)
		flags |= IORING_SETUP_SQPOLL;
	if (spec->hipri)
		flags |= IORING_SETUP_IOPOLL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("io_uring_cmd: out of memory");
	st->q.who = "io_uring_cmd: ";
	st->slots = calloc(e->nr_ios, sizeof(*st->slots));
	if (!st->slots) {
		free(st);
		return err_set("io_uring_cmd: out of memory");
	}
	ret = cmd_ring_setup(st, pow2_at_least(e->depth), flags);
	if (ret < 0) {
		free(st->slots);
		free(st);
		return cmd_error("io_uring_queue_init (IORING_SETUP_SQE128 | CQE32"
				 ", Linux 5.19 or later)", ret);
	}
	st->target.nsid = e->nvme_nsid;
	st->target.lba_size = e->lba_size;
	st->target.read_fua = o->readfua;
	st->target.write_fua = o->writefua;
	st->target.vectored = o->nonvectored == 0;
	st->pool = e->ios;
	st->nr_pool = e->nr_ios;
	st->q.sqpoll = spec->sqthread_poll;
	st->q.poll_on_reap = spec->hipri && !spec->sqthread_poll;
	for (unsigned i = 0; i < e->nr_ios; i++)
		e->ios[i].buf_index = (uint16_t)i;
	if (spec->fixedbufs && cmd_register_buffers(e, st))
		goto fail;
	engine_files_default(e);
	if (spec->registerfiles) {
		ret = io_uring_register_files(&st->q.ring, e->files, e->nr_files);
		if (ret < 0) {
			cmd_error("registerfiles=1: io_uring_register_files", ret);
			goto fail;
		}
		for (unsigned i = 0; i < e->nr_files; i++)
			e->files[i] = (int)i;
		st->sqe_flags = IOSQE_FIXED_FILE;
	}
	engine_files_assign(e);
	e->priv = st;
	return 0;
fail:
	io_uring_queue_exit(&st->q.ring);
	free(st->slots);
	free(st);
	return -1;
}

static int cmd_prep(struct engine *e, struct io *io)
{
	struct cmd_state *st = e->priv;
	struct io_uring_sqe *sqe;
	struct cmd_slot *slot;
	ptrdiff_t index = io - st->pool;

	if (index < 0 || (size_t)index >= st->nr_pool)
		return err_set("io_uring_cmd: an I/O outside the engine's pool");
	slot = &st->slots[index];
	sqe = io_uring_get_sqe(&st->q.ring);
	if (!sqe && st->q.sqpoll && io_uring_sqring_wait(&st->q.ring) >= 0)
		sqe = io_uring_get_sqe(&st->q.ring);
	if (!sqe)
		return err_set("io_uring_cmd: queue full (%u entries)",
			       st->q.ring.sq.ring_entries);
	memset(sqe, 0, 2 * sizeof(*sqe));           /* a 128-byte entry */
	if (nvme_cmd_encode(&st->target, io->dir, io->offset, io->len, io->buf,
			    (struct nvme_uring_cmd *)sqe->cmd, &slot->range, &slot->iov))
		return err_set("io_uring_cmd: %s of %u bytes at offset %llu is not a whole "
			       "number of the namespace's %u-byte blocks (at most %u)",
			       io->dir == DIR_TRIM ? "trim" : io->dir == DIR_READ ? "read" :
			       "write", io->len, (unsigned long long)io->offset,
			       st->target.lba_size, NVME_RW_MAX_BLOCKS);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = io->file;
	sqe->flags = st->sqe_flags;
	sqe->cmd_op = st->target.vectored ? NVME_URING_CMD_IO_VEC : NVME_URING_CMD_IO;
	/* a trim's range is not in the registered buffers */
	if (st->fixedbufs && io->dir != DIR_TRIM && io->len <= st->fixed_len &&
	    (char *)io->buf + io->len <= (char *)st->pool[index].buf + st->fixed_len) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = io->buf_index;
	}
	io_uring_sqe_set_data(sqe, io);
	st->q.queued++;
	return 0;
}

static int cmd_submit(struct engine *e)
{
	return uring_queue_submit(&((struct cmd_state *)e->priv)->q);
}

/* A command's result: 0 is done (the whole length), a negative value an
 * errno, a positive one the NVMe status (an I/O error). */
static void cmd_complete(struct cmd_state *st, struct io *io)
{
	int res = io->result;

	if (res == 0)
		io->result = (int32_t)io->len;
	else if (res < 0)
		st->refused += res == -EINVAL;
	else {
		st->status = (unsigned)res;
		io->result = -EIO;
	}
}

static int cmd_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct cmd_state *st = e->priv;
	int got = uring_queue_reap(&st->q, out, min, max);

	for (int i = 0; i < got; i++)
		cmd_complete(st, out[i]);
	return got;
}

static int cmd_wait(struct engine *e, uint64_t timeout_ns)
{
	return uring_queue_wait(&((struct cmd_state *)e->priv)->q, timeout_ns);
}

static void cmd_cleanup(struct engine *e)
{
	struct cmd_state *st = e->priv;

	if (!st)
		return;
	if (st->status)
		fprintf(stderr, "drivebench: io_uring_cmd: '%s': a command ended with NVMe "
			"status 0x%x (SCT %u, SC 0x%02x)\n", e->path ? e->path : "?",
			st->status, (st->status >> 8) & 0x7, st->status & 0xff);
	if (st->refused)
		fprintf(stderr, "drivebench: io_uring_cmd: '%s': the kernel refused %u "
			"commands (EINVAL)%s\n", e->path ? e->path : "?", st->refused,
			st->fixedbufs ? " with fixedbufs=1 (registered buffers, docs/engines.md)" : "");
	io_uring_queue_exit(&st->q.ring);
	free(st->slots);
	free(st);
	e->priv = NULL;
}

/* What drivebench does not do of fio's io_uring_cmd is refused by name,
 * never ignored (a job file written for fio says what it expects). */
static int refuse(struct job_spec *spec, const char *value)
{
	(void)spec;
	(void)value;
	return err_set("not supported by drivebench's io_uring_cmd (it sends plain "
		       "Read, Write and Dataset Management commands: docs/engines.md)");
}

static int set_cmd_type(struct job_spec *spec, const char *value)
{
	if (strcmp(value, "nvme") != 0)
		return err_set("cmd_type=%s: drivebench's io_uring_cmd has only cmd_type=nvme", value);
	snprintf(spec->eng.uring_cmd.cmd_type, sizeof(spec->eng.uring_cmd.cmd_type), "nvme");
	return 0;
}

static int set_nonvectored(struct job_spec *spec, const char *value)
{
	bool on;

	if (!value)
		on = true;
	else if (!units_parse_bool(value, &on))
		return err_set("bad boolean '%s'", value);
	spec->eng.uring_cmd.nonvectored = on;
	return 0;
}

#define CFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)
#define REFUSED(n) { n, NULL, OPT_FUNC, 0, 0, 0, 0, 0, refuse, true }

static const struct option_def cmd_options[] = {
	{ "cmd_type", NULL, OPT_FUNC, 0, 0, 0, 0, 0, set_cmd_type, false },
	{ "nonvectored", NULL, OPT_FUNC, 0, 0, 0, 0, 0, set_nonvectored, true },
	{ "readfua", NULL, OPT_BOOL, CFIELD(eng.uring_cmd.readfua), 0, 0, 0, NULL, true },
	{ "writefua", NULL, OPT_BOOL, CFIELD(eng.uring_cmd.writefua), 0, 0, 0, NULL, true },
	REFUSED("sqthread_poll_cpu"),
	REFUSED("force_async"),
	REFUSED("write_mode"),
	REFUSED("verify_mode"),
	REFUSED("read_mode"),
	REFUSED("md_per_io_size"),
	REFUSED("pi_act"),
	REFUSED("pi_chk"),
	REFUSED("apptag"),
	REFUSED("apptag_mask"),
	REFUSED("deac"),
	REFUSED("cdb_len"),
	REFUSED("verify_bytchk"),
	{ NULL },
};

/* What the passthrough cannot do, refused before anything opens: there is
 * no page cache and no file to sync on a namespace's character device. */
static int cmd_check(const struct job_spec *spec)
{
	if (spec->fixedbufs && spec->eng.uring_cmd.nonvectored == 0)
		return err_set("option 'fixedbufs': the kernel's NVMe passthrough takes "
			       "registered buffers only in non-vectored commands (drop "
			       "nonvectored=0)");
	if (spec->sync_io)
		return err_set("option 'sync': ioengine=io_uring_cmd sends NVMe commands, "
			       "O_SYNC does not apply (writefua=1 sets Force Unit Access)");
	if (spec->fsync_every || spec->end_fsync || spec->buffering.fdatasync_every ||
	    spec->buffering.fsync_on_close)
		return err_set("option '%s': ioengine=io_uring_cmd sends no NVMe Flush "
			       "in drivebench (writefua=1 sets Force Unit Access)",
			       spec->fsync_every ? "fsync" : spec->end_fsync ? "end_fsync" :
			       spec->buffering.fdatasync_every ? "fdatasync" : "fsync_on_close");
	return 0;
}

const struct engine_ops engine_io_uring_cmd = {
	.name = "io_uring_cmd",
	.flags = ENGINE_KEEPS_DATA | ENGINE_TRIMS | ENGINE_NVME_CHAR,
	.options = cmd_options,
	.check = cmd_check,
	.init = cmd_init,
	.prep = cmd_prep,
	.submit = cmd_submit,
	.reap = cmd_reap,
	.wait = cmd_wait,
	.cleanup = cmd_cleanup,
};
