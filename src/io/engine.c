/* engine.c - the table of I/O engines and lookup by fio's ioengine= name.
 * The engines themselves live in io_uring.c, libaio.c, psync.c, null.c and cufile.c;
 * "fault:<engine>" wraps one of them in the fault engine (fault.c). */
#include "io/engine.h"

#include <stddef.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "io/fault.h"
#include "util/error.h"

static const struct engine_ops *const engines[] = {
	&engine_io_uring,
	&engine_libaio,
	&engine_psync,
	&engine_null,
	&engine_cufile,
	&engine_filecreate,
	&engine_filestat,
	&engine_filedelete,
	&engine_dircreate,
	&engine_dirstat,
	&engine_dirdelete,
};

/* "io_uring, libaio, ...": the table's names, for messages. */
static const char *known_engines(void)
{
	static _Thread_local char list[256];
	size_t used = 0;

	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]) && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i ? ", " : "", engines[i]->name);
	return list;
}

static const struct engine_ops *find_fault_engine(const char *name)
{
	const char *inner_name = name + strlen(FAULT_ENGINE_PREFIX);
	size_t i;

	if (!*inner_name) {
		err_set("ioengine '%s' names no engine to wrap (e.g. fault:io_uring, fault:psync, fault:null)",
			name);
		return NULL;
	}
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, inner_name) == 0)
			return fault_engine_wrap(engines[i]);
	err_set("unknown ioengine '%s' in '%s' (known: io_uring, libaio, psync, null)",
		inner_name, name);
	return NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	if (fault_engine_named(name))
		return find_fault_engine(name);
	if (name) {
		for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
			if (strcmp(engines[i]->name, name) == 0)
				return engines[i];
	}
	err_set("unknown ioengine '%s' (known: %s)", name ? name : "", known_engines());
	return NULL;
}

void engine_files_default(struct engine *e)
{
	if (e->files)
		return;
	e->own_file = e->fd;
	e->files = &e->own_file;
	e->nr_files = 1;
}

void engine_files_assign(struct engine *e)
{
	for (unsigned i = 0; e->ios && i < e->nr_ios; i++)
		e->ios[i].file = e->files[0];
}

unsigned engine_flags(const struct engine_ops *ops)
{
	const struct engine_ops *inner = fault_engine_inner(ops);

	return (inner ? inner : ops)->flags;
}

int engine_needs_fd(const struct engine_ops *ops)
{
	return !(ops->flags & ENGINE_NO_FD);
}

int32_t engine_posix_io(int fd, const struct io *io)
{
	ssize_t ret;

	do {
		if (io->dir == DIR_READ)
			ret = pread(fd, io->buf, io->len, (off_t)io->offset);
		else
			ret = pwrite(fd, io->buf, io->len, (off_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : (int32_t)ret;
}

int32_t engine_trim_sync(const struct engine *e, const struct io *io)
{
	int rc;

	if (e->is_block) {
		uint64_t range[2] = { io->offset, io->len };

		rc = ioctl(io->file, BLKDISCARD, range);
	} else {
		do
			rc = fallocate(io->file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				       (off_t)io->offset, (off_t)io->len);
		while (rc < 0 && errno == EINTR);
	}
	return rc < 0 ? -errno : (int32_t)io->len;
}
