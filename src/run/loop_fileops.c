/* loop_fileops.c - the loop of fio's file and directory operation engines
 * (filecreate, filestat, filedelete, dircreate, dirstat, dirdelete): each
 * of the clone's files in turn gets its operation, timed alone, which is
 * the direction's clat sample as fio's add_clat_sample makes it (no slat,
 * no lat: fio's FIO_NOSTATS); the block-sized I/Os fio then counts over
 * the file's size do nothing (FIO_FAKEIO) and are counted as I/Os and
 * bytes. time_based goes over the files again until the runtime ends. */
#include "run/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io/fileops.h"
#include "run/files.h"
#include "run/runner.h"
#include "device/safety.h"
#include "util/error.h"

/* The fake I/Os fio counts for a file: its size in blocks (at least one). */
static void count_fake_ios(struct loop *l, int dir, uint64_t file_len)
{
	uint64_t bs = l->w->spec->bs[dir] ? l->w->spec->bs[dir] : 1;
	uint64_t ios = file_len / bs, bytes = ios * bs;

	if (ios == 0) {
		ios = 1;
		bytes = file_len;
	}
	l->dir[dir].ios += ios;
	l->dir[dir].bytes += bytes;
	l->tick.ios[dir] += ios;
	l->tick.bytes[dir] += bytes;
}

/* fio stops the job at a failed operation unless continue_on_error
 * covers its direction. Returns true when the job goes on. */
static bool record_failure(struct loop *l, int dir, int err)
{
	struct dir_stats *d = &l->dir[dir];

	if (d->errors++ == 0) {
		d->first_error = err;
		d->first_error_offset = 0;   /* file k: no offset to name */
	}
	if (!l->w->result.error)
		l->w->result.error = err;
	return (l->w->spec->continue_on_error &
		(dir == DIR_READ ? ERROR_CLASS_READ : ERROR_CLASS_WRITE)) != 0;
}

/* One operation on file k: timed, counted, its new file marked. Returns
 * false when the job stops. */
static bool operate(struct loop *l, int dir, unsigned k)
{
	struct worker *w = l->w;
	const struct job_file *jf = &w->files->file[k];
	bool existed = access(jf->path, F_OK) == 0;
	uint64_t start, end;
	int fd, rc;

	start = clock_now_ns();
	rc = fileop_do(w->ops, jf->path, w->spec->files.stat_type, &fd);
	end = clock_now_ns();
	l->now = end;
	/* what this run created is drivebench's own (safety.h): a later
	 * filedelete or dirdelete may remove it without consent */
	if (rc == 0 && !existed && fd < 0)
		fd = open(jf->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (!existed && safety_mark_created(fd) < 0)
			err_clear();
		close(fd);
	}
	if (rc < 0)
		return record_failure(l, dir, rc);
	if (l->measuring) {
		lat_add(&l->dir[dir].clat, end - start);
		count_fake_ios(l, dir, jf->len);
		loop_tick(l, end);
	}
	return true;
}

int loop_fileops_pass(struct loop *l)
{
	struct worker *w = l->w;
	struct worker_files *fs = w->files;
	/* fio times the operation as a read unless the job only writes */
	int dir = job_spec_reads(w->spec) ? DIR_READ : DIR_WRITE;

	do {
		for (unsigned k = 0; k < fs->nr; k++) {
			uint64_t now = clock_now_ns();

			if (*w->stop) {
				w->result.partial = true;
				return 0;
			}
			if (!l->measuring && now >= l->ramp_end)
				loop_restart_measurement(l, now);
			if (l->measuring && now >= __atomic_load_n(&l->w->deadline_ns, __ATOMIC_RELAXED))
				return 0;
			if (!operate(l, dir, k))
				return 0;
		}
	} while (l->time_based || !l->measuring);
	return 0;
}
