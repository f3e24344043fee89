/* files.c - the worker's side of a clone's set of files: opening them
 * (all before the clock, or at most openfiles at a time as the job goes,
 * closing a done one whose I/O is over to make room), each I/O's file
 * (fio's get_next_file: file_service_type, its ":N", done files skipped,
 * everything started over once all are done when the job runs on) and its
 * offset in that file's range (per-file sequential positions and random
 * generators), fsync of the set, and unlink=1 at the end. */
#include "run/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/fileops.h"
#include "run/loop.h"
#include "run/worker.h"
#include "util/error.h"

#define RNG_STREAM_FILES 16      /* the file picker (random.h's are 0..3) */

static int open_flags(const struct job_spec *s)
{
	int flags = O_CLOEXEC | (job_spec_writes(s) ? O_RDWR : O_RDONLY);

	if (s->files.allow_create && (job_spec_writes(s) || s->files.create_on_open))
		flags |= O_CREAT;
	if (s->direct)
		flags |= O_DIRECT;
	if (s->sync_io)
		flags |= O_SYNC;
	return flags;
}

static int open_file(struct worker *w, unsigned k)
{
	struct worker_files *fs = w->files;
	struct job_file *jf = &fs->file[k];
	bool refused;
	/* opened when the job's group starts (or later, openfiles=): what the
	 * gate judged, or a file create_on_open makes */
	int fd = target_open_judged(jf->path, open_flags(w->spec), &jf->id, &refused);

	if (refused)
		return err_prefix("job '%s'", w->spec->name);
	if (fd < 0) {
		if (errno == EINVAL && w->spec->direct)
			return err_set("cannot open '%s': %s: the filesystem does not support "
				       "direct=1 (O_DIRECT)", jf->path, strerror(EINVAL));
		return err_set("cannot open '%s': %s", jf->path, strerror(errno));
	}
	jf->fd = fd;
	fs->handles[k] = fd;
	fs->nr_open++;
	return 0;
}

static int init_offsets(struct worker *w, unsigned k)
{
	struct job_file *jf = &w->files->file[k];
	uint64_t blocks = jf->len / w->align;

	jf->offsets = malloc(sizeof(*jf->offsets));
	if (!jf->offsets)
		return err_set("out of memory");
	if (offset_gen_init_unit(jf->offsets, w->spec, blocks, w->align,
				 mix64(job_seed(w->spec, w->clone, RNG_STREAM_OFFSETS) + k)))
		return err_prefix("job '%s': file '%s'", w->spec->name, jf->path);
	return 0;
}

int files_open(struct worker *w)
{
	struct worker_files *fs = w->files;
	const struct job_spec *s = w->spec;

	fs->handles = malloc(fs->nr * sizeof(*fs->handles));
	fs->busy = calloc(w->depth ? w->depth : 1, 1);
	if (!fs->handles || !fs->busy)
		return err_set("out of memory for %u files", fs->nr);
	for (unsigned k = 0; k < fs->nr; k++)
		fs->handles[k] = -1;
	if (fs->file_ops)
		return 0;
	for (unsigned k = 0; k < fs->nr; k++) {
		if (fs->file[k].len < job_spec_max_bs(s))
			return err_set("job '%s': file '%s' holds %llu bytes of the job, less "
				       "than the block size %llu", s->name, fs->file[k].path,
				       (unsigned long long)fs->file[k].len,
				       (unsigned long long)job_spec_max_bs(s));
		if ((k == 0 || !fs->lazy) && open_file(w, k))
			return err_prefix("job '%s'", s->name);
		if (w->random_offsets && init_offsets(w, k))
			return -1;
	}
	if (file_picker_init(&fs->picker, &s->files, fs->nr,
			     job_seed(s, w->clone, RNG_STREAM_FILES)))
		return err_prefix("job '%s'", s->name);
	w->engine.files = fs->handles;
	w->engine.nr_files = fs->nr;
	w->engine.fd = fs->file[0].fd;
	return 0;
}

/* ---- lazy opening: openfiles below the files' count -------------------- */

/* Closes an open file that is done and has no I/O in flight (nor a
 * prepared one: every slot not free holds its file), making room for
 * another. 0, or 1 when none can be closed now. */
static int close_one_done(struct worker *w, const struct io *current)
{
	struct worker_files *fs = w->files;

	memset(fs->busy, 1, w->depth);
	for (unsigned i = 0; i < w->nr_free; i++)
		fs->busy[w->free_ios[i] - w->ios] = 0;
	fs->busy[current - w->ios] = 0;
	for (unsigned k = 0; k < fs->nr; k++) {
		struct job_file *jf = &fs->file[k];
		bool in_use = false;

		if (jf->fd < 0 || !jf->done)
			continue;
		for (unsigned i = 0; i < w->depth && !in_use; i++)
			in_use = fs->busy[i] && w->ios[i].file == jf->fd;
		if (in_use)
			continue;
		close(jf->fd);
		jf->fd = -1;
		fs->handles[k] = -1;
		fs->nr_open--;
		return 0;
	}
	return 1;
}

/* 1 when file k can take an I/O now (opening it if it must), 0 when not,
 * -1 on an open error. */
static int usable(struct worker *w, unsigned k, const struct io *current)
{
	struct worker_files *fs = w->files;
	struct job_file *jf = &fs->file[k];

	if (jf->done)
		return 0;
	if (jf->fd >= 0)
		return 1;
	if (fs->nr_open >= fs->open_limit && close_one_done(w, current))
		return 0;
	return open_file(w, k) ? -1 : 1;
}

/* ---- choosing the file -------------------------------------------------- */

/* The file of the next I/O: the current one while its ":N" lasts (for
 * sequential until it is done), else the picker's next usable candidate,
 * else any usable file. 0 with *k, 1 when none is usable now, -1. */
static int next_file(struct worker *w, const struct io *current, unsigned *k)
{
	struct worker_files *fs = w->files;
	const struct job_files *f = &w->spec->files;
	unsigned tries = f->service == FSERVICE_ROUNDROBIN ||
		f->service == FSERVICE_SEQUENTIAL ? fs->nr : 4 * fs->nr + 4;
	int rc = 0;

	if (fs->have_cur && !fs->file[fs->cur].done && fs->file[fs->cur].fd >= 0 &&
	    (fs->left || f->service == FSERVICE_SEQUENTIAL)) {
		if (fs->left)
			fs->left--;
		*k = fs->cur;
		return 0;
	}
	for (unsigned t = 0; t < tries && rc == 0; t++) {
		*k = file_picker_next(&fs->picker);
		rc = usable(w, *k, current);
	}
	for (unsigned i = 0; rc == 0 && i < fs->nr; i++)
		if ((rc = usable(w, i, current)) != 0)
			*k = i;
	if (rc < 0)
		return -1;
	if (rc == 0)
		return 1;
	fs->cur = *k;
	fs->have_cur = true;
	fs->left = f->service_nr - 1;
	return 0;
}

static void mark_done(struct worker_files *fs, unsigned k)
{
	if (!fs->file[k].done) {
		fs->file[k].done = true;
		fs->nr_done++;
	}
	if (fs->cur == k)
		fs->have_cur = false;
}

/* Every file starts over (fio resets its files for the next pass). */
static void reset_all(struct worker_files *fs)
{
	for (unsigned k = 0; k < fs->nr; k++) {
		fs->file[k].done = false;
		memset(fs->file[k].pos, 0, sizeof(fs->file[k].pos));
	}
	fs->nr_done = 0;
}

/* The offset of len bytes in file k: 0, or 1 when none fits any more
 * (the file is done). */
static int file_offset(struct worker *w, struct job_file *jf, int dir, uint64_t len,
		       uint64_t *off)
{
	uint64_t o;

	if (len > jf->len)
		return 1;
	if (jf->offsets) {
		/* a finished pass marked the file done (files_pick); after a
		 * reset the generator starts its next pass here */
		o = offset_gen_next(jf->offsets) * w->align;
		if (o + len > jf->len)
			o = (jf->len - len) / w->align * w->align;
	} else {
		o = jf->pos[dir];
		if (o + len > jf->len)
			return 1;
		jf->pos[dir] = o + len;
	}
	*off = jf->start + o;
	return 0;
}

int files_pick(struct loop *l, struct io *io, int dir, uint64_t len, uint64_t *off)
{
	struct worker *w = l->w;
	struct worker_files *fs = w->files;
	bool reset = false;
	unsigned k;

	for (;;) {
		int rc = next_file(w, io, &k);

		if (rc < 0)
			return err_prefix("job '%s'", w->spec->name);
		if (rc == 1) {
			if (fs->nr_done < fs->nr)
				return 1;           /* busy: reap, then try again */
			if (!fs->wrap || reset) {
				l->issuing = false; /* every file is done: fio ends the job */
				return 1;
			}
			reset_all(fs);
			reset = true;
			continue;
		}
		if (file_offset(w, &fs->file[k], dir, len, off) == 0)
			break;
		mark_done(fs, k);
	}
	io->file = fs->handles[k];
	if (fs->file[k].offsets && offset_gen_pass_done(fs->file[k].offsets))
		mark_done(fs, k);
	return 0;
}

int files_sync(struct worker *w)
{
	struct worker_files *fs = w->files;

	for (unsigned k = 0; k < fs->nr; k++)
		if (fs->file[k].fd >= 0 && fsync(fs->file[k].fd))
			return err_set("job '%s': fsync of '%s': %s", w->spec->name,
				       fs->file[k].path, strerror(errno));
	return 0;
}

/* unlink=1: fio deletes the job's files when it ends (the dir engines
 * remove their directories); one already gone is fine. */
static void remove_path(const struct worker *w, const char *path)
{
	enum fileop_kind kind;
	bool dirs = false;

	if (!fileop_engine(w->ops, &kind, &dirs))
		dirs = false;
	if ((dirs ? rmdir(path) : unlink(path)) && errno != ENOENT)
		fprintf(stderr, "drivebench: job '%s': unlink=1: cannot remove '%s': %s\n",
			w->spec->name, path, strerror(errno));
}

void files_unlink_single(struct worker *w)
{
	if (w->spec && w->spec->files.unlink && w->target && w->target->path[0] &&
	    !w->target->is_block && engine_needs_fd(w->ops))
		remove_path(w, w->target->path);
}

void files_close(struct worker *w)
{
	struct worker_files *fs = w->files;

	if (!fs)
		return;
	for (unsigned k = 0; k < fs->nr; k++) {
		struct job_file *jf = &fs->file[k];

		if (jf->fd >= 0)
			close(jf->fd);
		if (w->spec->files.unlink && jf->path)
			remove_path(w, jf->path);
		free(jf->offsets);
		free(jf->path);
	}
	file_picker_free(&fs->picker);
	free(fs->file);
	free(fs->handles);
	free(fs->busy);
	free(fs);
	w->files = NULL;
	w->engine.files = NULL;
}
