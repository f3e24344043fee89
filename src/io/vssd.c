/* vssd.c - the virtual SSD engine, ioengine=vssd (issue 15, docs/vssd.md):
 * every I/O is costed by the drive model (vssd/: the FTL decides which
 * NAND operations it causes, the clock when they and the command end) as
 * a command that reaches the drive at the runner's submit stamp, and
 * handed back when that time comes, stamped with it, as the null engine
 * hands back its programmed latencies. One drive per model file and scale
 * lives for the whole process, shared by every clone and every run, so a
 * suite's steps see it age: fresh, preconditioned, steady; with a state
 * file (vssd_state=) it outlives the process: loaded when it is made,
 * saved when its last job ends and after a format. It keeps no data:
 * verify refuses it (no ENGINE_KEEPS_DATA). */
#include "io/engine.h"
#include "io/vssd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/option_table.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/text.h"
#include "vssd/drive.h"
#include "vssd/ftl.h"
#include "vssd/model.h"
#include "vssd/state_file.h"

#define VSSD_WAIT_SLICE_NS 50000000ull   /* a reap waits at most this */

/* ---- the drives of this process ------------------------------------------ */

struct vssd_drive {
	char model_path[1024], scale[64];
	char state[1024];                /* vssd_state=FILE, "" = none */
	pthread_mutex_t lock;            /* every clone's I/O goes through it */
	struct vssd_model model;
	struct vdrive *drive;            /* the model: FTL, clock, background GC */
	uint32_t queues;                 /* submission queues handed out (one per job) */
	unsigned users;                  /* jobs open on it now; the last to end saves it */
	struct vssd_drive *next;
};

static pthread_mutex_t drives_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vssd_drive *drives;

/* The drives are keyed by the model file's real path, so that
 * specs/x.ini and ./specs/x.ini are one drive. */
static void drive_key(const char *model, char *key, size_t len)
{
	char *real = realpath(model, NULL);

	snprintf(key, len, "%s", real ? real : model);
	free(real);
}

/* One drive per model file and scale value: 2g and 2048m are one. */
static struct vssd_drive *drive_find(const char *key, const char *scale)
{
	char want[64], have[64];

	vssd_scale_key(scale, want, sizeof(want));
	for (struct vssd_drive *d = drives; d; d = d->next) {
		if (strcmp(d->model_path, key))
			continue;
		vssd_scale_key(d->scale, have, sizeof(have));
		if (!strcmp(have, want))
			return d;
	}
	return NULL;
}

/* ---- vssd_state=FILE: the FTL's state between processes ------------------ */

/* "vssd_state=PATH", as every message about d's state file names it. */
static const char *state_label(const struct vssd_drive *d, char *buf, size_t len)
{
	snprintf(buf, len, "vssd_state=%s", d->state);
	return buf;
}

static int state_save(struct vssd_drive *d)
{
	char label[sizeof(d->state) + 16];

	return vdrive_state_save(d->drive, d->scale, d->state, state_label(d, label, sizeof(label)));
}

static int state_load(struct vssd_drive *d)
{
	char label[sizeof(d->state) + 16];

	return vdrive_state_load(d->drive, d->scale, d->model_path, d->state,
				 state_label(d, label, sizeof(label))) < 0 ? -1 : 0;
}

/* The drive (model, scale), made fresh if this process has none yet; with
 * create false, NULL when there is none (err_msg not set). state: a state
 * file to load it from when it is made (NULL or "": none). */
static struct vssd_drive *drive_get_state(const char *model, const char *scale, bool create,
					  const char *state, const volatile sig_atomic_t *stop)
{
	char key[sizeof(drives->model_path)];
	struct vssd_drive *d;

	scale = scale && scale[0] ? scale : VSSD_DEFAULT_SCALE;
	drive_key(model, key, sizeof(key));
	pthread_mutex_lock(&drives_lock);
	if ((d = drive_find(key, scale)) || !create)
		goto out;
	d = calloc(1, sizeof(*d));
	if (!d) {
		err_set("vssd: out of memory");
		goto out;
	}
	snprintf(d->model_path, sizeof(d->model_path), "%s", key);
	snprintf(d->scale, sizeof(d->scale), "%s", scale);
	snprintf(d->state, sizeof(d->state), "%s", state ? state : "");
	if (vssd_model_load(model, scale, &d->model) || !(d->drive = vdrive_create_until(&d->model, stop)) ||
	    (d->state[0] && state_load(d))) {
		vdrive_destroy(d->drive);
		free(d);
		d = NULL;
		goto out;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->next = drives;
	drives = d;
out:
	pthread_mutex_unlock(&drives_lock);
	return d;
}

/* the stop flag a drive made outside a job (a suite's purge) checks */
static const volatile sig_atomic_t *drives_stop;

void vssd_drives_stop_on(const volatile sig_atomic_t *stop)
{
	drives_stop = stop;
}

static struct vssd_drive *drive_get(const char *model, const char *scale, bool create)
{
	return drive_get_state(model, scale, create, NULL, drives_stop);
}

/* The drive (model, scale) with the state file state, made (and loaded
 * from it) if this process has none yet. One drive has one file: a drive
 * that has another, or was made without one (a job or a format used it
 * fresh), is refused. A job that names no file takes the drive as it is,
 * its file included (a suite's checkpoint jobs on a vssd: target). */
static struct vssd_drive *drive_open_state(const char *model, const char *scale,
					   const char *state, const volatile sig_atomic_t *stop)
{
	struct vssd_drive *d = drive_get_state(model, scale, true, state, stop);

	if (d && state && state[0] && strcmp(d->state, state)) {
		err_set("vssd_state=%s: this process's drive (%s at scale %s) already has %s%s",
			state, d->model_path, d->scale,
			d->state[0] ? "the state file " : "no state file (it was made fresh "
			"before)", d->state);
		return NULL;
	}
	return d;
}

int vssd_drive_open_state(const char *model, const char *scale, const char *state,
			  const volatile sig_atomic_t *stop)
{
	if (!state || !state[0])
		return 0;
	if (vdrive_state_file_check(state, "") || vdrive_state_file_check(state, ".tmp"))
		return -1;
	return drive_open_state(model, scale, state, stop ? stop : drives_stop) ? 0 : -1;
}

static struct vssd_drive *drive_open(const struct job_spec *spec,
				      const volatile sig_atomic_t *stop)
{
	return drive_open_state(spec->eng.vssd.model, spec->eng.vssd.scale, spec->eng.vssd.state,
				stop);
}

int vssd_drive_counters(const char *model, const char *scale, struct vssd_counters *c)
{
	struct vssd_model m;
	struct vssd_drive *d;
	struct ftl_stats s;

	memset(c, 0, sizeof(*c));
	if (!(d = drive_get(model, scale, false)))
		return vssd_model_load(model, scale && scale[0] ? scale : VSSD_DEFAULT_SCALE, &m);
	pthread_mutex_lock(&d->lock);
	vdrive_stats(d->drive, &s);
	pthread_mutex_unlock(&d->lock);
	uint64_t iu = d->model.geometry.iu_bytes;
	c->opened = true;
	c->host_read_bytes = s.host_ius_read * iu;
	c->host_written_bytes = s.host_ius_written * iu;
	c->host_trimmed_bytes = s.host_ius_trimmed * iu;
	c->nand_read_bytes = s.pages_read * d->model.timing.page_bytes;
	c->nand_written_bytes = s.nand_ius_programmed * iu;
	c->erases = s.erases;
	c->format_erases = s.format_erases;
	c->erase_max = s.erase_max;
	c->erase_mean = s.erase_mean;
	return 0;
}

int vssd_drive_format(const char *model, const char *scale)
{
	struct vssd_drive *d = drive_get(model, scale, false);

	/* a drive made now is as a format leaves it (and clearing its maps
	 * twice would double the seconds a large one takes) */
	if (!d)
		return drive_get(model, scale, true) ? 0 : -1;
	pthread_mutex_lock(&d->lock);
	vdrive_format(d->drive);
	/* a suite's purge is a step: its drive is saved as a job's is (a
	 * resume after it meets the formatted drive); a failed save is
	 * reported, as at a job's end */
	if (d->state[0] && state_save(d))
		fprintf(stderr, "drivebench: %s\n", err_msg());
	pthread_mutex_unlock(&d->lock);
	return 0;
}

int vssd_drive_capacity(const char *model, const char *scale, uint64_t *capacity)
{
	struct vssd_drive *d = drive_get(model, scale, false);
	struct vssd_model m;

	if (d) {
		*capacity = d->model.capacity;
		return 0;
	}
	if (vssd_model_load(model, scale && scale[0] ? scale : VSSD_DEFAULT_SCALE, &m))
		return -1;
	*capacity = m.capacity;
	return 0;
}

/* ---- the engine: the null engine's shape, with the model's times ---------- */

/* An I/O submitted but not booked on the drive yet: the runner stamps
 * issue_ns after the submit call returns, so the drive takes it at the
 * engine's next call (book_submitted). */
struct vssd_submitted {
	struct io *io;
	uint64_t submit_ns;              /* the clock in the submit call */
};

struct vssd_state {
	struct vssd_drive *drive;
	struct io **queued;
	struct vssd_submitted *submitted;
	struct io **pending;             /* booked: a min-heap by complete_ns */
	unsigned nr_queued, nr_submitted, nr_pending, depth;
	uint32_t queue;                  /* this job's submission queue on the drive */
};

static void pending_push(struct vssd_state *st, struct io *io)
{
	unsigned i = st->nr_pending++;

	while (i > 0 && st->pending[(i - 1) / 2]->complete_ns > io->complete_ns) {
		st->pending[i] = st->pending[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	st->pending[i] = io;
}

static struct io *pending_pop(struct vssd_state *st)
{
	struct io *top = st->pending[0], *last = st->pending[--st->nr_pending];
	unsigned i = 0;

	for (;;) {
		unsigned child = 2 * i + 1;

		if (child >= st->nr_pending)
			break;
		if (child + 1 < st->nr_pending &&
		    st->pending[child + 1]->complete_ns < st->pending[child]->complete_ns)
			child++;
		if (st->pending[child]->complete_ns >= last->complete_ns)
			break;
		st->pending[i] = st->pending[child];
		i = child;
	}
	if (st->nr_pending)
		st->pending[i] = last;
	return top;
}

static enum vdrive_dir io_dir(uint8_t dir)
{
	return dir == DIR_READ ? VDRIVE_READ : dir == DIR_WRITE ? VDRIVE_WRITE : VDRIVE_TRIM;
}

static int vssd_check(const struct job_spec *spec)
{
	struct vssd_model model;
	double fraction;
	uint64_t capacity;

	if (!spec->eng.vssd.model[0])
		return err_set("ioengine=vssd needs vssd_model= (a spec file with a [model] "
			       "section, e.g. models/generic-qlc.ini)");
	if (spec->eng.vssd.scale[0] && vssd_scale_parse(spec->eng.vssd.scale, &fraction, &capacity))
		return -1;
	/* vssd_state=: a file that exists must be a regular one (a FIFO would
	 * hold the worker that loads it), and so must FILE.tmp it is saved
	 * through */
	if (spec->eng.vssd.state[0] && (vdrive_state_file_check(spec->eng.vssd.state, "") ||
					vdrive_state_file_check(spec->eng.vssd.state, ".tmp")))
		return -1;
	/* the model is read now, before any worker starts (a file that is not
	 * regular, or not a model, fails the job here, never in a worker) */
	return vssd_model_load(spec->eng.vssd.model, spec->eng.vssd.scale[0] ?
			       spec->eng.vssd.scale : VSSD_DEFAULT_SCALE, &model);
}

static int vssd_init(struct engine *e, const struct job_spec *spec)
{
	struct vssd_state *st;
	struct vssd_drive *d;

	if (e->depth == 0 || e->depth > (1u << 20))
		return err_set("vssd: iodepth %u out of range", e->depth);
	if (!(d = drive_open(spec, e->stop)))
		return -1;
	if (e->range_start + e->range_len > d->model.capacity)
		return err_set("vssd: the job's range ends at %llu bytes, past the modelled "
			       "drive's %llu (%s at scale %s)",
			       (unsigned long long)(e->range_start + e->range_len),
			       (unsigned long long)d->model.capacity, d->model_path, d->scale);
	st = calloc(1, sizeof(*st));
	if (!st || !(st->queued = calloc(e->depth, sizeof(*st->queued))) ||
	    !(st->submitted = calloc(e->depth, sizeof(*st->submitted))) ||
	    !(st->pending = calloc(e->depth, sizeof(*st->pending)))) {
		if (st) {
			free(st->queued);
			free(st->submitted);
		}
		free(st);
		return err_set("vssd: out of memory");
	}
	st->drive = d;
	st->depth = e->depth;
	pthread_mutex_lock(&d->lock);
	st->queue = d->queues++;   /* each job its own queue, as one per CPU */
	d->users++;
	pthread_mutex_unlock(&d->lock);
	e->priv = st;
	return 0;
}

static int vssd_prep(struct engine *e, struct io *io)
{
	struct vssd_state *st = e->priv;

	if (st->nr_queued + st->nr_submitted + st->nr_pending >= st->depth)
		return err_set("vssd: queue full (%u I/Os)", st->depth);
	st->queued[st->nr_queued++] = io;
	return 0;
}

/* Books the submitted I/Os on the drive, in submission order, each as a
 * command that arrives when the runner stamped it issued (issue_ns, clat's
 * start): the model's completion is then never before it, so clat =
 * complete - issue >= 0 and slat + clat = lat for every I/O, as a
 * device's. Booking them at a clock of the submit call's own instead made
 * everything the call costs after that read (the drive's lock, the FTL's
 * and the clock's work, forced or background GC, a page fault, the thread
 * descheduled) push the runner's stamp past the model's completion once
 * it exceeded the command's latency: clat negative, stored as ~2^64. The
 * submit call's clock is a floor for a caller that did not stamp. */
static int book_submitted(struct vssd_state *st)
{
	struct vssd_drive *d = st->drive;
	int rc = 0;

	if (!st->nr_submitted)
		return 0;
	pthread_mutex_lock(&d->lock);
	for (unsigned i = 0; i < st->nr_submitted; i++) {
		struct io *io = st->submitted[i].io;
		uint64_t arrive = io->issue_ns > st->submitted[i].submit_ns ?
				  io->issue_ns : st->submitted[i].submit_ns;

		if (vdrive_io(d->drive, st->queue, io_dir(io->dir), io->offset, io->len, arrive,
			      &io->complete_ns) == 0) {
			io->result = (int32_t)io->len;
		} else {   /* the model refused it (err_msg): failed on arrival */
			io->result = -EIO;
			io->complete_ns = arrive;
			rc = -1;
		}
		pending_push(st, io);
	}
	pthread_mutex_unlock(&d->lock);
	st->nr_submitted = 0;
	return rc;
}

static int vssd_submit(struct engine *e)
{
	struct vssd_state *st = e->priv;
	unsigned n = st->nr_queued;
	uint64_t now;

	if (book_submitted(st))
		return -1;
	now = clock_now_ns();
	for (unsigned i = 0; i < n; i++)
		st->submitted[st->nr_submitted++] = (struct vssd_submitted){ st->queued[i], now };
	st->nr_queued = 0;
	return (int)n;
}

/* Hands back the due I/Os (up to max), earliest first; *next the earliest
 * still pending. */
static unsigned take_due(struct vssd_state *st, uint64_t now, struct io **out,
			 unsigned max, uint64_t *next)
{
	unsigned n = 0;

	while (n < max && st->nr_pending && st->pending[0]->complete_ns <= now)
		out[n++] = pending_pop(st);   /* its result set when booked */
	*next = st->nr_pending ? st->pending[0]->complete_ns : UINT64_MAX;
	return n;
}

static int vssd_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct vssd_state *st = e->priv;
	uint64_t start, now, next;
	unsigned n = 0;

	if (book_submitted(st))
		return -1;
	start = now = clock_now_ns();
	for (;;) {
		n += take_due(st, now, out + n, max - n, &next);
		if (n >= min || n >= max || next == UINT64_MAX ||
		    now - start >= VSSD_WAIT_SLICE_NS)
			return (int)n;
		clock_sleep_until_ns(next < start + VSSD_WAIT_SLICE_NS ? next : start + VSSD_WAIT_SLICE_NS);
		now = clock_now_ns();
	}
}

static int vssd_cancel(struct engine *e, struct io **out, unsigned max)
{
	struct vssd_state *st = e->priv;
	unsigned n = 0;

	/* the drive takes every command submitted, cancelled or not (a
	 * stopping loop has nothing to do with a booking error) */
	(void)book_submitted(st);
	while (n < max && st->nr_pending) {
		struct io *io = st->pending[--st->nr_pending];

		io->result = -ECANCELED;
		out[n++] = io;
	}
	return (int)n;
}

static void vssd_cleanup(struct engine *e)
{
	struct vssd_state *st = e->priv;
	struct vssd_drive *d;

	if (!st)
		return;
	d = st->drive;
	(void)book_submitted(st);   /* as cancel: the drive saw them */
	/* the last job on the drive to end saves it (numjobs=16 ending
	 * together write it once, not 16 times): so a kill loses at most what
	 * the jobs running then did */
	pthread_mutex_lock(&d->lock);
	if (--d->users == 0 && d->state[0] && state_save(d))
		fprintf(stderr, "drivebench: %s\n", err_msg());
	pthread_mutex_unlock(&d->lock);
	free(st->queued);
	free(st->submitted);
	free(st->pending);
	free(st);
	e->priv = NULL;
}

static const struct option_def vssd_options[] = {
	{ "vssd_model", NULL, OPT_STRING, offsetof(struct job_spec, eng.vssd.model),
	  sizeof(((struct job_spec *)0)->eng.vssd.model) },
	{ "vssd_scale", NULL, OPT_STRING, offsetof(struct job_spec, eng.vssd.scale),
	  sizeof(((struct job_spec *)0)->eng.vssd.scale) },
	{ "vssd_state", NULL, OPT_STRING, offsetof(struct job_spec, eng.vssd.state),
	  sizeof(((struct job_spec *)0)->eng.vssd.state) },
	{ NULL },
};

const struct engine_ops engine_vssd = {
	.name = "vssd",
	.flags = ENGINE_NO_FD | ENGINE_TRIMS,
	.options = vssd_options,
	.check = vssd_check,
	.init = vssd_init,
	.prep = vssd_prep,
	.submit = vssd_submit,
	.reap = vssd_reap,
	.cancel = vssd_cancel,
	.cleanup = vssd_cleanup,
};
