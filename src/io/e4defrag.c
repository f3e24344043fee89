/* e4defrag.c - fio's e4defrag engine: each write moves the blocks of its
 * range from a donor file into the target with EXT4_IOC_MOVE_EXT, as
 * e4defrag(8) does; the result is the bytes moved. The donor
 * (directory/donorname) is allocated over the job's range once
 * (inplace=0) or around each move (inplace=1). Both files must be on one
 * ext4 filesystem; the donor passes the write gate like a target (the
 * runner asks side_files for it, and creates a missing one as its own). The kernel refuses to move blocks whose pages are in
 * the page cache (EBUSY), so the range's cached pages are dropped first. */
#include "io/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "io/sync_queue.h"
#include "util/error.h"
#include "job/option_table.h"

#define EXT4_MAGIC 0xEF53

/* linux/ext4.h's struct move_extent and its ioctl */
struct move_extent {
	uint32_t reserved;
	uint32_t donor_fd;
	uint64_t orig_start;     /* in blocks */
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len;
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)

struct e4defrag_state {
	struct sync_queue q;     /* first: the shared ops find it */
	int donor_fd;
	uint64_t bsz;            /* the donor's block size */
	bool inplace;
};

static int32_t e4defrag_io(struct engine *e, struct io *io)
{
	struct e4defrag_state *st = e->priv;
	struct move_extent me;
	uint64_t moved;
	int rc, err = 0;

	if (io->dir != DIR_WRITE)
		return -EINVAL;
	if (st->inplace && fallocate(st->donor_fd, 0, (off_t)io->offset, (off_t)io->len))
		return -errno;
	memset(&me, 0, sizeof(me));
	me.donor_fd = (uint32_t)st->donor_fd;
	me.orig_start = io->offset / st->bsz;
	me.donor_start = me.orig_start;
	me.len = (io->offset + io->len + st->bsz - 1) / st->bsz - me.orig_start;
	rc = ioctl(e->fd, EXT4_IOC_MOVE_EXT, &me);
	if (rc)
		err = errno;
	if (st->inplace && ftruncate(st->donor_fd, 0) && !err)
		err = errno;
	if (err)
		return -err;
	moved = me.moved_len * st->bsz;
	if (moved > io->len)
		moved = io->len;
	return moved ? (int32_t)moved : -EINVAL;   /* nothing moved: beyond i_size */
}

static int donor_path(const struct job_spec *spec, char *path, size_t len)
{
	int n;

	if (spec->directory[0])
		n = snprintf(path, len, "%s/%s", spec->directory, spec->eng.e4defrag.donorname);
	else
		n = snprintf(path, len, "%s", spec->eng.e4defrag.donorname);
	if (n < 0 || (size_t)n >= len)
		return err_set("e4defrag: donor path too long");
	return 1;
}

static int e4defrag_side_files(const struct job_spec *spec, unsigned clone,
			       struct side_file *out, unsigned max)
{
	(void)clone;
	if (!max || !spec->eng.e4defrag.donorname[0])
		return 0;
	out[0].kind = SIDE_FILE_TARGET;
	return donor_path(spec, out[0].path, sizeof(out[0].path));
}

/* Opens the donor (the runner created a missing one, as its own) on the
 * target's ext4. */
static int open_donor(struct engine *e, const char *path)
{
	struct statfs fs;
	struct stat target, donor;
	int fd;

	if (fstatfs(e->fd, &fs))
		return err_set("e4defrag: statfs '%s': %s", e->path, strerror(errno));
	if (fs.f_type != EXT4_MAGIC)
		return err_set("e4defrag: '%s' is not on ext4 (filesystem magic 0x%lx): "
			       "EXT4_IOC_MOVE_EXT needs an ext4 file", e->path,
			       (unsigned long)fs.f_type);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set("e4defrag: cannot open donor '%s': %s", path, strerror(errno));
	if (fstat(fd, &donor) || fstat(e->fd, &target)) {
		err_set("e4defrag: donor '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (donor.st_dev != target.st_dev) {
		close(fd);
		return err_set("e4defrag: donor '%s' is not on the filesystem of '%s'",
			       path, e->path);
	}
	return fd;
}

/* Whether the kernel offers EXT4_IOC_MOVE_EXT here at all: a move of no
 * blocks changes nothing, and a kernel (or a sandbox's filter) that
 * refuses online defragmentation says so before it checks arguments, with
 * EPERM, EOPNOTSUPP or ENOTTY. Refused, the job stops with that named
 * rather than failing every I/O with a bare errno. */
static int probe_move_ext(const struct engine *e, int donor_fd)
{
	struct move_extent me;

	memset(&me, 0, sizeof(me));
	me.donor_fd = (uint32_t)donor_fd;
	if (ioctl(e->fd, EXT4_IOC_MOVE_EXT, &me) == 0 ||
	    (errno != EPERM && errno != EOPNOTSUPP && errno != ENOTTY && errno != ENOSYS))
		return 0;
	return err_set("e4defrag: the kernel refuses EXT4_IOC_MOVE_EXT on '%s' (%s): online "
		       "defragmentation (the ioctl e4defrag moves blocks with) is not available "
		       "on this kernel or filesystem, or a sandbox blocks it", e->path,
		       strerror(errno));
}

static int e4defrag_init(struct engine *e, const struct job_spec *spec)
{
	struct e4defrag_state *st;
	char path[JOB_PATH_MAX];
	struct stat donor;
	int fd;

	if (e->fd < 0)
		return err_set("e4defrag: no file descriptor");
	if (donor_path(spec, path, sizeof(path)) < 0)
		return -1;
	fd = open_donor(e, path);
	if (fd < 0)
		return -1;
	if (probe_move_ext(e, fd)) {
		close(fd);
		return -1;
	}
	if ((!spec->eng.e4defrag.inplace &&
	     fallocate(fd, 0, (off_t)e->range_start, (off_t)e->range_len)) ||
	    fstat(fd, &donor)) {
		err_set("e4defrag: donor '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	/* the kernel does not move blocks whose pages are cached (EBUSY):
	 * write back and drop them, as fio's invalidate=1 does before a job */
	fdatasync(e->fd);
	posix_fadvise(e->fd, (off_t)e->range_start, (off_t)e->range_len,
		      POSIX_FADV_DONTNEED);
	st = sync_queue_create(e, sizeof(*st), "e4defrag", e4defrag_io);
	if (!st) {
		close(fd);
		return -1;
	}
	st->donor_fd = fd;
	st->bsz = donor.st_blksize ? (uint64_t)donor.st_blksize : 4096;
	st->inplace = spec->eng.e4defrag.inplace;
	return 0;
}

static void e4defrag_cleanup(struct engine *e)
{
	struct e4defrag_state *st = e->priv;

	if (st)
		close(st->donor_fd);
	sync_queue_destroy(e);
}

#define DFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

static const struct option_def e4defrag_options[] = {
	{ "donorname", NULL, OPT_STRING, DFIELD(eng.e4defrag.donorname) },
	{ "inplace", NULL, OPT_UINT, DFIELD(eng.e4defrag.inplace), 0, 1 },
	{ NULL },
};

static int e4defrag_check(const struct job_spec *spec)
{
	if (!spec->eng.e4defrag.donorname[0])
		return err_set("ioengine=e4defrag needs donorname= (the donor file)");
	return engine_check_writes_only(spec, "e4defrag");
}

const struct engine_ops engine_e4defrag = {
	.name = "e4defrag",
	.flags = ENGINE_SYNC,
	.options = e4defrag_options,
	.check = e4defrag_check,
	.init = e4defrag_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = sync_queue_reap,
	.cleanup = e4defrag_cleanup,
	.side_files = e4defrag_side_files,
};
