/* loop_sync.c - the syncs of a clone's loop, as fio issues them: after
 * every fsync=N (or fdatasync=N) writes, once the writes before it are
 * done and only when more I/O follows (fio's get_rw_ddir); counted and
 * timed for the "sync" section (the ramp's are not). end_fsync and
 * fsync_on_close after the last write are not counted, as in fio. A job
 * without a file (null engine) counts its syncs without a call, as fio's
 * null engine does. */
#include "run/loop.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "run/files.h"
#include "run/pagecache.h"
#include "util/clock.h"
#include "util/error.h"

/* The smallest multiple of every (every > 0) above done, or UINT64_MAX. */
static uint64_t next_multiple(uint64_t done, uint64_t every)
{
	return every ? (done / every + 1) * every : UINT64_MAX;
}

/* Arms the countdown to the next sync after done writes. */
static void arm(struct loop *l, uint64_t done)
{
	const struct job_spec *s = l->w->spec;
	uint64_t a = next_multiple(done, s->fsync_every);
	uint64_t b = next_multiple(done, s->buffering.fdatasync_every);

	l->sync_at = a < b ? a : b;
	l->writes_to_sync = l->sync_at == UINT64_MAX ? UINT64_MAX : l->sync_at - done;
}

void loop_sync_start(struct loop *l)
{
	struct job_result *r = &l->w->result;

	r->sync_ios = 0;
	lat_stat_init(&r->sync_lat);
	arm(l, 0);
}

/* One sync call; its latency is the call's (fio's sync clat). */
static int sync_call(struct loop *l, bool data_only, const char *what)
{
	struct worker *w = l->w;
	uint64_t start = clock_now_ns(), end;

	if (w->files) {                 /* several files: each open one */
		if (files_sync(w))
			return -1;
	} else if (w->fd >= 0 && (data_only ? fdatasync(w->fd) : fsync(w->fd))) {
		return err_set("job '%s': %s: %s", w->spec->name, what, strerror(errno));
	}
	end = clock_now_ns();
	if (l->measuring) {
		w->result.sync_ios++;
		lat_add(&w->result.sync_lat, end - start);
	}
	l->now = end;
	return 0;
}

int loop_sync(struct loop *l)
{
	const struct job_spec *s = l->w->spec;
	uint64_t done = l->sync_at;
	/* fio checks fsync first: a write count both divide gets an fsync */
	bool data_only = !(s->fsync_every && done % s->fsync_every == 0);

	if (sync_call(l, data_only, data_only ? "fdatasync" : "fsync"))
		return -1;
	arm(l, done);
	return 0;
}

int loop_sync_end(struct loop *l)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;

	if (!l->measuring || (w->fd < 0 && !w->files) || !job_spec_writes(s) ||
	    !(s->end_fsync || s->buffering.fsync_on_close))
		return 0;
	if (w->files)
		return files_sync(w);
	if (fsync(w->fd))
		return err_set("job '%s': %s: %s", s->name,
			       s->end_fsync ? "end_fsync" : "fsync_on_close", strerror(errno));
	return 0;
}

int loop_sync_before_verify(struct loop *l)
{
	/* an NVMe character device has no fsync: a Write command that
	 * completed reads back (drivebench sends no Flush, docs/engines.md) */
	if (loop_drain(l) || (!l->w->target->is_nvme_char &&
			      sync_call(l, false, "fsync before verify")))
		return -1;
	worker_cache_drop(l->w);
	return 0;
}
