/* file_layout.c - how a job's regular file is laid out before the job,
 * as fio's extend_file does it: written data for a job that reads, and
 * for a job that only writes the file created and allocated the way
 * fallocate= says (none, native, posix, keep, truncate), with
 * create_on_open and allow_file_create. The data layout itself is
 * target.c's target_layout_file. */
#include "device/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

/* fio's fallocate_file: native falls back to nothing where the filesystem
 * cannot (fio ignores its failure); posix, keep and truncate failing is an
 * error (fio logs it; a layout that did not happen is not quietly used). */
static int allocate(int fd, const char *path, enum fallocate_mode mode, uint64_t size)
{
	struct stat st;
	uint64_t from = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	int rc = 0;

	/* the modes that take blocks check for room first; sparse ones not */
	if ((mode == FALLOCATE_NATIVE || mode == FALLOCATE_POSIX || mode == FALLOCATE_KEEP) &&
	    target_layout_room(fd, path, from, size))
		return -1;
	switch (mode) {
	case FALLOCATE_NONE:
		return 0;
	case FALLOCATE_NATIVE:
		if (fallocate(fd, 0, 0, (off_t)size) && errno != EOPNOTSUPP && errno != ENOSYS)
			rc = errno;
		break;
	case FALLOCATE_POSIX:
		rc = posix_fallocate(fd, 0, (off_t)size);
		break;
	case FALLOCATE_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size))
			rc = errno;
		break;
	case FALLOCATE_TRUNCATE:
		if (ftruncate(fd, (off_t)size))
			rc = errno;
		break;
	}
	if (rc) {
		/* what a failed allocation took is given back; the error below
		 * is the allocation's either way */
		int back = ftruncate(fd, (off_t)from);

		(void)back;
		return err_set("cannot lay out '%s': fallocate=%s: %s", path,
			       mode == FALLOCATE_NATIVE ? "native" : mode == FALLOCATE_POSIX ?
			       "posix" : mode == FALLOCATE_KEEP ? "keep" : "truncate",
			       strerror(rc));
	}
	return 0;
}

int target_layout_job_file(const struct job_spec *spec, const char *path, uint64_t size,
			   const volatile sig_atomic_t *stop)
{
	const struct job_files *f = &spec->files;
	struct stat st;
	bool exists = stat(path, &st) == 0;
	int fd;

	if (exists && !S_ISREG(st.st_mode))
		return 0;           /* a device: nothing to lay out */
	if (!exists && !f->allow_create)
		return err_set("'%s' does not exist and allow_file_create=0 forbids "
			       "creating it", path);
	if (f->create_on_open)
		return 0;           /* the job's open creates it (fio) */
	if (job_spec_reads(spec))
		return target_layout_file(path, size, stop);
	/* fill_device: the writes take the space; nothing is allocated first */
	if (spec->fill_device)
		return 0;
	/* a job that only writes: fio allocates, it does not write */
	if (exists && (uint64_t)st.st_size >= size && f->fallocate != FALLOCATE_KEEP)
		return 0;
	fd = target_open_for_layout(path);
	if (fd < 0)
		return -1;
	if (allocate(fd, path, f->fallocate, size)) {
		close(fd);
		return -1;
	}
	if (close(fd) < 0)
		return err_set("cannot lay out '%s': close: %s", path, strerror(errno));
	return 1;
}
