/* engine.c - the one table of I/O engines, and lookup by fio's ioengine=
 * name. Everything that lists engines reads this table: engine_find, the
 * fault engine's wrappers (fault.c), the names in usage and error texts;
 * docs/options.md is checked against it (tests/unit/test_engines.c). The
 * engines themselves live one a file in this directory. */
#include "io/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "io/fault.h"
#include "util/error.h"

static const struct engine_ops *const engines[] = {
	&engine_io_uring,
	&engine_io_uring_cmd,
	&engine_libaio,
	&engine_psync,
	&engine_sync,
	&engine_vsync,
	&engine_pvsync,
	&engine_pvsync2,
	&engine_posixaio,
	&engine_null,
	&engine_vssd,
	&engine_cufile,
	&engine_filecreate,
	&engine_filestat,
	&engine_filedelete,
	&engine_dircreate,
	&engine_dirstat,
	&engine_dirdelete,
	&engine_cpuio,
	&engine_exec,
	&engine_ftruncate,
	&engine_falloc,
	&engine_e4defrag,
	&engine_page_fault,
};

#define NR_ENGINES (sizeof(engines) / sizeof(engines[0]))

const struct engine_ops *engine_at(unsigned i)
{
	return i < NR_ENGINES ? engines[i] : NULL;
}

static char names_text[512];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void build_names(void)
{
	size_t used = 0;

	for (size_t i = 0; i < NR_ENGINES && used < sizeof(names_text); i++)
		used += (size_t)snprintf(names_text + used, sizeof(names_text) - used,
					 "%s%s", i ? ", " : "", engines[i]->name);
}

const char *engine_names(void)
{
	pthread_once(&names_once, build_names);
	return names_text;
}

static const struct engine_ops *find_plain(const char *name)
{
	for (size_t i = 0; i < NR_ENGINES; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

static const struct engine_ops *find_fault_engine(const char *name)
{
	const char *inner_name = name + strlen(FAULT_ENGINE_PREFIX);
	const struct engine_ops *inner;

	if (!*inner_name) {
		err_set("ioengine '%s' names no engine to wrap (e.g. fault:io_uring, fault:psync, fault:null)",
			name);
		return NULL;
	}
	inner = find_plain(inner_name);
	if (inner)
		return fault_engine_wrap(inner);
	err_set("unknown ioengine '%s' in '%s' (known: %s)", inner_name, name,
		engine_names());
	return NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *ops;

	if (fault_engine_named(name))
		return find_fault_engine(name);
	ops = name ? find_plain(name) : NULL;
	if (ops)
		return ops;
	err_set("unknown ioengine '%s' (known: %s)", name ? name : "", engine_names());
	return NULL;
}

const struct engine_ops *job_engine(const struct job_spec *spec)
{
	/* a job whose ioengine changed after validation (a modelled target
	 * aims it at vssd) is answered by its name, never the stale engine */
	if (spec->engine && strcmp(spec->engine->name, spec->ioengine) == 0)
		return spec->engine;
	return engine_find(spec->ioengine);
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

const struct engine_ops *engine_base(const char *name)
{
	if (!name)
		return NULL;
	if (fault_engine_named(name))
		name += strlen(FAULT_ENGINE_PREFIX);
	return find_plain(name);
}

bool engine_has(const struct engine_ops *ops, unsigned flag)
{
	const struct engine_ops *inner = ops ? fault_engine_inner(ops) : NULL;

	if (inner)
		ops = inner;
	return ops && (ops->flags & flag) != 0;
}

int engine_needs_fd(const struct engine_ops *ops)
{
	return !engine_has(ops, ENGINE_NO_FD);
}

static int io_jobs_running;

void engine_io_jobs_add(int delta)
{
	__atomic_add_fetch(&io_jobs_running, delta, __ATOMIC_SEQ_CST);
}

int engine_io_jobs_running(void)
{
	return __atomic_load_n(&io_jobs_running, __ATOMIC_SEQ_CST);
}

int32_t engine_posix_io(int fd, const struct io *io)
{
	ssize_t ret;

	do {
		if (io->dir == DIR_READ)
			ret = pread(fd, io->buf, io->len, (off_t)io->offset);
		else if (io->dir == DIR_WRITE)
			ret = pwrite(fd, io->buf, io->len, (off_t)io->offset);
		else   /* a trim reaches only an engine with ENGINE_TRIMS */
			return -EOPNOTSUPP;
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
