/* fileset.c - the runner's side of a clone's set of files (fio's
 * setup_files): the write gate for every file before any is touched, the
 * probe, each file's byte range (size split over the files as fio splits
 * it, the first ones a block larger when it does not divide, or filesize
 * and its random range), the job's bytes, and the layout of each file
 * (target_layout_job_file; the directories of dirstat and dirdelete). */
#include "run/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/fileops.h"
#include "run/runner.h"
#include "run/worker.h"
#include "device/pseudo_fs.h"
#include "device/safety.h"
#include "device/target.h"
#include "util/error.h"
#include "util/units.h"

#define RNG_STREAM_FILESIZE 17   /* filesize=LOW-HIGH draws (random.h's are 0..3) */

uint64_t fileset_memory_bytes(const struct job_spec *spec)
{
	uint64_t per_file = sizeof(struct job_file) + sizeof(int) + JOB_NAME_MAX;

	if (!job_files_many(spec) && !spec->files.filesize_low)
		return 0;
	if (job_spec_random(spec))
		per_file += sizeof(struct offset_gen);
	return per_file * job_file_count(spec);
}

/* ---- the gate ----------------------------------------------------------- */

/* A directory a dir engine creates or removes: a new one, one drivebench
 * made (marked), or one --destroy-data names; never in procfs or sysfs. */
static int dir_consent(const char *path, const struct run_options *opt)
{
	struct stat st;

	if (pseudo_fs_of(path, -1) || !strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5))
		return err_refuse("refusing to write to '%s':\n  - %s is on a pseudo "
				  "filesystem: a kernel setting, not storage", path, path);
	if (stat(path, &st) != 0)
		return errno == ENOENT ? 0 : err_set("cannot examine %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set("'%s' is not a directory (a dir engine works on directories)", path);
	if (safety_path_marked(path))
		return 0;
	for (unsigned i = 0; i < opt->nr_destroy_ids; i++)
		if (!strcmp(opt->destroy_ids[i], path))
			return 0;
	return err_refuse("refusing to write to '%s':\n  - existing directory %s was not "
			  "created by drivebench\npass --destroy-data=%s to allow removing it",
			  path, path, path);
}

/* What one file of a clone needs from the gate. A file-ops engine that
 * creates or deletes changes the file whatever rw= says. */
static int file_consent(const struct job_spec *s, const struct engine_ops *ops,
			const char *path, const struct run_options *opt)
{
	enum fileop_kind kind;
	bool dirs;

	if (!fileop_engine(ops, &kind, &dirs))
		return check_write_consent(s, path, opt);
	if (dirs)
		return kind == FILEOP_STAT && access(path, F_OK) == 0 ? 0 : dir_consent(path, opt);
	if (kind == FILEOP_STAT)
		return check_write_consent(s, path, opt);
	return check_path_consent(s, path, opt);
}

/* A job whose sets cannot fit is refused before its files are touched
 * (the runner's full check per phase comes after the layout). */
static int check_set_memory(const struct job_spec *s, uint64_t limit)
{
	uint64_t per_clone = fileset_memory_bytes(s) + worker_buffer_bytes(s);
	char want[32], have[32];

	if (per_clone <= limit / s->numjobs)
		return 0;
	units_format_bytes(per_clone * s->numjobs, UNITS_IEC, 0, want, sizeof(want));
	units_format_bytes(limit, UNITS_IEC, 0, have, sizeof(have));
	return err_set("job '%s': %u clone%s x %u files (file state, paths%s) and I/O "
		       "buffers need %s, over the limit of %s (--max-buffer-mem); lower "
		       "nrfiles or numjobs", s->name, s->numjobs, s->numjobs == 1 ? "" : "s",
		       job_file_count(s), job_spec_random(s) ? ", random offset generators" : "",
		       want, have);
}

int fileset_consent(const struct job_list *jobs, const struct run_options *opt,
		    uint64_t limit)
{
	char path[JOB_PATH_MAX];

	for (unsigned j = 0; j < jobs->nr; j++) {
		const struct job_spec *s = &jobs->jobs[j];
		const struct engine_ops *ops = job_engine(s);
		unsigned n = job_file_count(s);

		err_clear();
		if (!target_has_file_set(s, ops))
			continue;
		if (check_set_memory(s, limit))
			return -1;
		for (unsigned c = 0; c < s->numjobs; c++)
			for (unsigned i = 0; i < n; i++)
				if (job_file_path(s, c, i, path, sizeof(path)) ||
				    file_consent(s, ops, path, opt))
					return err_prefix("job '%s'", s->name);
	}
	return 0;
}

/* ---- sizes -------------------------------------------------------------- */

/* fio's get_rand_file_size: uniform in [low, high), down to a block. */
static uint64_t random_file_size(const struct job_spec *s, struct rng *r)
{
	const struct job_files *f = &s->files;
	uint64_t size = f->filesize_low + rng_below(r, f->filesize_high - f->filesize_low);
	uint64_t bs = job_spec_min_bs(s);

	return bs > 1 ? size - size % bs : size;
}

/* The byte range of file i (fio's file_offset and io_size). */
static int file_range(const struct worker *w, const struct target *t,
		      uint64_t *extra_files, struct rng *r, uint64_t *start, uint64_t *len)
{
	const struct job_spec *s = w->spec;
	const struct job_files *f = &s->files;
	unsigned n = w->files->nr;
	uint64_t bs = job_spec_min_bs(s), size = 0, end = 0;

	if (f->filesize_low) {
		/* an existing file already within the range is used as it is */
		if (t->exists && !t->is_block && t->size >= f->filesize_low &&
		    t->size <= f->filesize_high)
			end = t->size;
		else
			end = f->filesize_low == f->filesize_high ? f->filesize_low :
				random_file_size(s, r);
	} else if (s->size) {
		size = s->size / n;
		if (*extra_files) {
			(*extra_files)--;
			size += bs;
		}
	}
	if (w->files->file_ops) {
		/* fio's file-ops engines do no I/O: a file is its size, by
		 * default one block (filecreate's get_file_size) */
		*start = 0;
		*len = end ? end : size ? size : t->exists && t->size ? t->size : bs;
		return 0;
	}
	return target_file_range(t, s, w->clone, size, size ? 0 : s->size_pct, end, start, len);
}

/* ---- layout ------------------------------------------------------------- */

/* dirstat and dirdelete create their directories first (fio's setup_dirs);
 * one made here is marked as drivebench's. */
static int make_dir(const char *path)
{
	int fd;

	if (mkdir(path, 0700) != 0)
		return errno == EEXIST ? 0 : err_set("cannot create directory '%s': %s", path,
						     strerror(errno));
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return err_set("cannot open directory '%s': %s", path, strerror(errno));
	if (safety_mark_created(fd) < 0) {
		close(fd);
		return err_prefix("directory '%s'", path);
	}
	close(fd);
	return 0;
}

static int lay_out(const struct worker *w, const struct target *t, const struct job_file *jf,
		   const volatile sig_atomic_t *stop)
{
	const struct job_spec *s = w->spec;
	enum fileop_kind kind;
	bool dirs;

	if (fileop_engine(w->ops, &kind, &dirs)) {
		if (dirs)
			return kind == FILEOP_CREATE ? 0 : make_dir(jf->path);
		if (!fileop_needs_layout(w->ops) || (t->exists && t->size >= jf->len))
			return 0;
		return target_layout_job_file(s, jf->path, jf->len, stop) < 0 ? -1 : 0;
	}
	if (t->is_block || (t->exists && t->size >= jf->start + jf->len))
		return 0;
	if (t->exists && !job_spec_writes(s))
		return err_set("'%s' holds %llu bytes, too few for the range [%llu, %llu) "
			       "the job reads; a job that only reads never extends a file "
			       "(lower size=, filesize= or offset=)", t->path,
			       (unsigned long long)t->size, (unsigned long long)jf->start,
			       (unsigned long long)(jf->start + jf->len));
	return target_layout_job_file(s, jf->path, jf->start + jf->len, stop) < 0 ? -1 : 0;
}

/* Probes one file; a dir engine's path is a directory (or nothing yet). */
static int probe(const struct worker *w, const char *path, struct target *t)
{
	enum fileop_kind kind;
	bool dirs;

	if (fileop_engine(w->ops, &kind, &dirs) && dirs) {
		memset(t, 0, sizeof(*t));
		snprintf(t->path, sizeof(t->path), "%s", path);
		t->exists = access(path, F_OK) == 0;
		t->logical_block = 512;
		return 0;
	}
	return target_probe(path, t);
}

static int prepare_file(struct worker *w, unsigned i, struct target *t, uint64_t *extra,
			struct rng *r, const volatile sig_atomic_t *stop)
{
	struct job_file *jf = &w->files->file[i];
	char path[JOB_PATH_MAX];

	if (job_file_path(w->spec, w->clone, i, path, sizeof(path)))
		return -1;
	jf->fd = -1;
	jf->path = strdup(path);
	if (!jf->path)
		return err_set("out of memory");
	if (probe(w, path, t) || file_range(w, t, extra, r, &jf->start, &jf->len) ||
	    lay_out(w, t, jf, stop))
		return -1;
	target_identity_of(path, &jf->id);   /* as judged and laid out */
	return 0;
}

/* fio's total: size caps it only when filesize= set the files' sizes */
static void set_totals(struct worker_files *fs, const struct job_spec *s)
{
	uint64_t target = fs->total;

	if (s->files.filesize_low && s->size && s->size < fs->total)
		target = s->size;
	if (s->io_size)
		target = s->io_size;
	fs->bytes_target = target;
	fs->wrap = s->time_based || s->io_size > fs->total;
}

int fileset_prepare(struct worker *w, struct target *t, const volatile sig_atomic_t *stop)
{
	const struct job_spec *s = w->spec;
	unsigned n = job_file_count(s);
	struct worker_files *fs = calloc(1, sizeof(*fs));
	struct target other;
	struct rng r;
	uint64_t extra = 0, bs = job_spec_min_bs(s);

	if (!fs || !(fs->file = calloc(n, sizeof(*fs->file)))) {
		free(fs);
		return err_set("out of memory for %u files", n);
	}
	w->files = fs;
	fs->nr = n;
	fs->file_ops = (engine_flags(w->ops) & ENGINE_FILE_OPS) != 0;
	/* one file (a set only for filesize=) is the engine's fd: any engine */
	if (!fs->file_ops && n > 1 && !(engine_flags(w->ops) & ENGINE_FILES))
		return err_set("ioengine=%s works on one file per job, not %u (nrfiles, "
			       "filename=a:b)", s->ioengine, n);
	fs->open_limit = s->files.openfiles && s->files.openfiles < n ? s->files.openfiles : n;
	fs->lazy = fs->open_limit < n;
	if (!s->files.filesize_low && s->size && bs && s->size % n)
		extra = (s->size - s->size / n * n) / bs;
	rng_seed(&r, job_seed(s, w->clone, RNG_STREAM_FILESIZE));
	for (unsigned i = 0; i < n; i++) {
		if (stop && *stop)
			return err_set("interrupted while preparing %u files", n);
		if (prepare_file(w, i, i ? &other : t, &extra, &r, stop))
			return -1;
		fs->total += fs->file[i].len;
	}
	set_totals(fs, s);
	/* the worker's target is the first file, as it is now */
	if (!fs->file_ops && !t->is_block)
		return target_probe(fs->file[0].path, t);
	return 0;
}
