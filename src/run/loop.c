/* loop.c - the submit/reap loop of one job clone. It picks direction,
 * size and offset for each I/O, stamps it at prepare, submit and reap with
 * one monotonic clock, and feeds the histograms and the per-interval series.
 * fio's definitions: slat = prepare..submitted, clat = submitted..reaped,
 * lat = prepare..reaped; the ramp is run but not counted. Every function on
 * the per-I/O path is static here, so the compiler can inline it. */
#include "run/loop.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "io/fault.h"
#include "run/runner.h"
#include "util/error.h"

static inline uint64_t pick_offset(struct loop *l, int dir, uint64_t len)
{
	struct worker *w = l->w;
	uint64_t off;

	if (w->random_offsets) {
		off = offset_gen_next(&w->offsets) * w->align;
		if (off + len > w->range_len)
			off = (w->range_len - len) / w->align * w->align;
	} else {
		off = w->seq_pos[dir];
		if (off + len > w->range_len)
			off = 0;
		w->seq_pos[dir] = off + len;
	}
	return w->range_start + off;
}

static inline int pick_dir(struct worker *w)
{
	switch (w->spec->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return DIR_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return DIR_WRITE;
	default:
		return rng_below(&w->rng_mix, 100) < w->spec->rwmixread ? DIR_READ : DIR_WRITE;
	}
}

/* The range guard: nothing is issued outside the job's byte range. */
static inline int in_range(const struct worker *w, uint64_t off, uint64_t len)
{
	/* written so that no sum can wrap around */
	return off >= w->range_start && len <= w->range_len &&
	       off - w->range_start <= w->range_len - len;
}

static int guard_violation(struct worker *w, uint64_t off, uint64_t len)
{
	return err_set("job '%s': I/O [%llu, %llu) outside the job's range [%llu, %llu): aborted",
		       w->spec->name, (unsigned long long)off,
		       (unsigned long long)(off + len), (unsigned long long)w->range_start,
		       (unsigned long long)(w->range_start + w->range_len));
}

/* A completed transfer: a write marks its units in the map; a read has
 * its whole units checked (loop_verify_checked). Kept here, beside
 * complete_one, rather than in loop_verify.c: as an external call it costs
 * the verify-off path an instruction per I/O (register allocation in
 * reap_some). */
static int verify_completed(struct loop *l, struct io *io)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;

	if (io->dir == DIR_WRITE) {
		verify_mark_written(&w->verify, io->offset, (uint64_t)io->result, rq->verify_seq);
		return 0;
	}
	return loop_verify_checked(l, io);
}

/* Sets up io (and its request when it is larger than a slot) for a new
 * request of len bytes at off. */
static inline void start_request(struct loop *l, struct io *io, int dir,
				 uint64_t off, uint64_t len, uint64_t now)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;

	io->dir = (uint8_t)dir;
	io->offset = off;
	io->start_ns = now;
	io->complete_ns = 0;
	if (len > w->buf_size) {
		rq->active = true;
		rq->total = len;
		rq->start_ns = now;
		rq->issue_ns = 0;
		io->len = w->buf_size;
		rq->next_offset = off + w->buf_size;
		rq->remaining = len - w->buf_size;
	} else {
		io->len = (uint32_t)len;
	}
	if (l->measuring)
		l->bytes_issued += len;
	if (dir == DIR_WRITE)
		l->writes_since_sync++;
}

/* prep_new with verify on: a held pick goes first, overlaps wait, and
 * writes carry their units' headers and payloads. */
static int prep_new_verified(struct loop *l, struct io *io, uint64_t now)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;
	int dir;
	uint64_t len, off;

	if (l->held) {
		l->held = false;
		dir = l->held_dir;
		len = l->held_len;
		off = l->held_offset;
	} else {
		dir = pick_dir(w);
		len = bs_picker_next(&w->bs[dir], &w->rng_bs);
		off = pick_offset(l, dir, len) + w->test_offset_skew;
	}
	if (!in_range(w, off, len))
		return guard_violation(w, off, len);
	if (loop_verify_claim(l, rq, dir, off, len)) {
		w->nr_free++;
		return 1;
	}
	start_request(l, io, dir, off, len, now);
	if (dir == DIR_WRITE)
		verify_fill_range(io->buf, io->offset, io->len, w->verify.base,
				  w->verify.unit, w->verify.seed, rq->verify_seq);
	return w->ops->prep(&w->engine, io);
}

/* Prepares one new request on a free slot. Returns 0, 1 when verify held
 * the pick back (the slot stays free), or -1 on error. With verify off
 * the only cost of verification here is the one branch on verifying. */
static int prep_new(struct loop *l, uint64_t now)
{
	struct worker *w = l->w;
	struct io *io = w->free_ios[--w->nr_free];
	int dir;
	uint64_t len, off;

	if (w->verifying)
		return prep_new_verified(l, io, now);
	dir = pick_dir(w);
	len = bs_picker_next(&w->bs[dir], &w->rng_bs);
	off = pick_offset(l, dir, len) + w->test_offset_skew;
	if (!in_range(w, off, len))
		return guard_violation(w, off, len);
	start_request(l, io, dir, off, len, now);
	return w->ops->prep(&w->engine, io);
}

/* Queues the next chunk of a request (or the rest of a short transfer). */
static int prep_continue(struct worker *w, struct io *io, uint64_t now)
{
	struct request *rq = io->owner;
	uint64_t len = rq->remaining < w->buf_size ? rq->remaining : w->buf_size;

	if (!in_range(w, rq->next_offset, len))
		return guard_violation(w, rq->next_offset, len);
	io->offset = rq->next_offset;
	io->len = (uint32_t)len;
	io->start_ns = now;
	io->complete_ns = 0;
	rq->next_offset += len;
	rq->remaining -= len;
	if (w->verifying && io->dir == DIR_WRITE)
		verify_fill_range(io->buf, io->offset, io->len, w->verify.base,
				  w->verify.unit, w->verify.seed, rq->verify_seq);
	return w->ops->prep(&w->engine, io);
}

static void account(struct loop *l, struct io *io, uint64_t now)
{
	struct request *rq = io->owner;
	struct dir_stats *d = &l->dir[io->dir];
	uint64_t done = io->complete_ns ? io->complete_ns : now;
	uint64_t start = io->start_ns, issue = io->issue_ns, bytes = io->len;

	if (rq->active) {
		start = rq->start_ns;
		issue = rq->issue_ns;
		bytes = rq->total;
		rq->active = false;
	}
	d->ios++;
	d->bytes += bytes;
	lat_add(&d->slat, issue - start);
	lat_add(&d->clat, done - issue);
	lat_add(&d->lat, done - start);
	l->tick.ios[io->dir]++;
	l->tick.bytes[io->dir] += bytes;
	l->tick.lat_sum_ns[io->dir] += done - start;
}

static void record_error(struct loop *l, struct io *io, int err)
{
	struct dir_stats *d = &l->dir[io->dir];

	if (d->errors++ == 0) {
		d->first_error = err;
		d->first_error_offset = io->offset;
	}
	if (!l->w->result.error)
		l->w->result.error = err;
	/* continue_on_error covers this direction: the failed request is
	 * dropped (never counted as done, its slot freed) and the job goes on */
	if (l->w->spec->continue_on_error &
	    (io->dir == DIR_READ ? ERROR_CLASS_READ : ERROR_CLASS_WRITE))
		return;
	l->issuing = false;   /* fio's default continue_on_error=none */
	l->abandon = true;
}

/* The fault engine's counts over the measured part: the ramp's faults are
 * left out like the ramp's errors. Until the end result.faults_injected
 * holds the counts at the start of measurement. */
static void report_faults(struct loop *l)
{
	struct worker *w = l->w;
	uint64_t counts[FAULT_KINDS];

	fault_engine_counts(&w->engine, counts);
	for (int k = 0; k < FAULT_KINDS; k++)
		w->result.faults_injected[k] = l->measuring ?
			counts[k] - w->result.faults_injected[k] : 0;
}

static void reset_measurement(struct loop *l, uint64_t now)
{
	struct worker *w = l->w;

	fault_engine_counts(&w->engine, w->result.faults_injected);
	for (int d = 0; d < DIR_COUNT; d++) {
		memset(&w->result.dir[d], 0, sizeof(w->result.dir[d]));
		lat_stat_init(&w->result.dir[d].slat);
		lat_stat_init(&w->result.dir[d].clat);
		lat_stat_init(&w->result.dir[d].lat);
	}
	w->result.ramp_ns = now - l->measure_start;
	l->measuring = true;
	w->engine.measuring = true;
	l->measure_start = now;
	l->next_tick = now + l->interval;
	l->deadline = w->spec->runtime_ns ? now + w->spec->runtime_ns : UINT64_MAX;
	l->bytes_issued = 0;
	memset(&l->tick, 0, sizeof(l->tick));
	getrusage(RUSAGE_THREAD, &l->ru_start);
}

/* A full series coarsens (the worker reserved all its room): twice the
 * interval, half the points; the open interval then runs on to the next
 * boundary of the coarser grid. */
static void coarsen_series(struct loop *l)
{
	struct series *s = &l->w->result.series;

	series_coarsen(s);
	l->interval = s->interval_ns;
	l->next_tick = l->measure_start + (s->nr ? s->points[s->nr - 1].t_ns : 0) +
		       l->interval;
}

static void close_interval(struct loop *l, uint64_t end)
{
	struct series *s = &l->w->result.series;

	if (s->nr == s->cap && s->cap >= 2)
		coarsen_series(l);
	l->tick.t_ns = end - l->measure_start;
	if (series_append(s, &l->tick) == 0)
		memset(&l->tick, 0, sizeof(l->tick));
}

static void tick(struct loop *l, uint64_t now)
{
	struct series *s = &l->w->result.series;

	while (now >= l->next_tick) {
		if (s->nr == s->cap && s->cap >= 2) {
			coarsen_series(l);
			continue;
		}
		close_interval(l, l->next_tick);
		l->next_tick += l->interval;
	}
}

static bool limits_reached(struct loop *l, uint64_t now)
{
	if (*l->w->stop) {
		l->w->result.partial = true;
		l->abandon = true;
		return true;
	}
	if (!l->measuring)
		return false;
	if (now >= l->deadline) {
		l->abandon = true;
		return true;
	}
	return !l->time_based && l->bytes_issued >= l->bytes_target;
}

/* Handles one reaped I/O: completion, next chunk, or error. Returns 1 when
 * the slot was re-queued (a continuing request), 0 when freed, -1 on a
 * guard violation. */
static int complete_one(struct loop *l, struct io *io, uint64_t now)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;

	if (w->verifying && io->result > 0 && verify_completed(l, io))
		return -1;
	if (io->result != (int32_t)io->len) {
		if (io->result <= 0) {
			record_error(l, io, io->result < 0 ? io->result : -EIO);
			rq->active = false;
			return 0;
		}
		/* short transfer: continue with the rest, as fio requeues it */
		if (!rq->active) {
			rq->active = true;
			rq->total = io->len;
			rq->start_ns = io->start_ns;
			rq->issue_ns = io->issue_ns;
			rq->next_offset = io->offset;
			rq->remaining = 0;
		}
		rq->next_offset = io->offset + (uint64_t)io->result;
		rq->remaining += io->len - (uint64_t)io->result;
	}
	if (rq->active && rq->remaining && !l->abandon) {
		if (prep_continue(w, io, now))
			return -1;
		return 1;
	}
	if (rq->active && rq->remaining) {
		/* stopping: an unfinished large request is not counted as done */
		rq->active = false;
		return 0;
	}
	if (l->measuring)
		account(l, io, now);
	rq->active = false;
	return 0;
}

/* A slot whose I/O is over: free for the next request. */
static inline void free_slot(struct loop *l, struct io *io)
{
	struct worker *w = l->w;

	l->inflight--;
	((struct request *)io->owner)->busy = false;
	w->free_ios[w->nr_free++] = io;
}

/* A stopping loop (deadline, stop flag, error) takes back the I/Os that
 * only wait on the engine's modelled clock (null_latency, fault delays):
 * they did not complete within the run, so they are never counted. */
static void cancel_waiting(struct loop *l)
{
	struct worker *w = l->w;
	struct io *back[256];
	int n;

	if (!w->ops->cancel)
		return;
	while ((n = w->ops->cancel(&w->engine, back, 256)) > 0)
		for (int i = 0; i < n; i++) {
			((struct request *)back[i]->owner)->active = false;
			free_slot(l, back[i]);
		}
}

/* Reaps at least min completions (fewer from an engine that models time:
 * it returns after a slice), accounts them, and submits the next chunk of
 * any request that continues on its slot. */
static int reap_some(struct loop *l, unsigned min, unsigned max)
{
	struct worker *w = l->w;
	struct io *done[256], *again[256];
	unsigned nr_again = 0;
	int n;

	if (l->abandon) {
		cancel_waiting(l);
		if (!l->inflight)
			return 0;
		if (min > l->inflight)
			min = l->inflight;
	}
	n = w->ops->reap(&w->engine, done, min, max > 256 ? 256 : max);
	if (n < 0)
		return -1;
	l->now = clock_now_ns();
	for (int i = 0; i < n; i++) {
		int rc = complete_one(l, done[i], l->now);

		if (rc < 0)
			return -1;
		if (rc == 1) {
			again[nr_again++] = done[i];
			continue;
		}
		free_slot(l, done[i]);
	}
	if (nr_again) {
		uint64_t issued;

		if (w->ops->submit(&w->engine) < 0)
			return -1;
		issued = clock_now_ns();
		for (unsigned i = 0; i < nr_again; i++)
			again[i]->issue_ns = issued;
	}
	return 0;
}

/* Waits for everything in flight (fsync must see every write). */
static int drain(struct loop *l)
{
	while (l->inflight) {
		if (*l->w->stop && !l->abandon) {   /* nothing more is finished */
			l->w->result.partial = true;
			l->abandon = true;
		}
		if (reap_some(l, 1, l->inflight))
			return -1;
	}
	return 0;
}

/* The out-of-line entries for loop_verify.c; the loop itself calls the
 * static functions, which the compiler may inline. */
int loop_reap(struct loop *l, unsigned min, unsigned max)
{
	return reap_some(l, min, max);
}

int loop_drain(struct loop *l)
{
	return drain(l);
}

void loop_tick(struct loop *l, uint64_t now)
{
	tick(l, now);
}

static int sync_target(struct loop *l)
{
	struct worker *w = l->w;

	if (w->fd < 0)
		return 0;
	if (drain(l))
		return -1;
	if (fsync(w->fd))
		return err_set("job '%s': fsync: %s", w->spec->name, strerror(errno));
	l->writes_since_sync = 0;
	return 0;
}

/* iodepth_batch_submit=0 (the default) adapts the batch to what a submit
 * costs per I/O on this target: where submitting only queues work (zram's
 * io-wq hand-off, an NVMe doorbell) one call carries many I/Os and the
 * syscall is amortised; where the submitting thread does the device's work
 * (virtio's notification exits, ~4 us per I/O here) a batch would hold its
 * first I/O back behind the others, so I/Os go out one by one, as fio's
 * default does. The batch is sized so that preparing and submitting it
 * takes about this long. */
#define SUBMIT_BUDGET_NS 8000u

static unsigned adaptive_batch(uint64_t cost_per_io_ns, unsigned depth)
{
	uint64_t batch = SUBMIT_BUDGET_NS / (cost_per_io_ns ? cost_per_io_ns : 1);

	if (batch < 1)
		return 1;
	return batch < depth ? (unsigned)batch : depth;
}

static inline bool may_issue(const struct loop *l)
{
	return l->issuing && l->w->nr_free &&
	       (l->time_based || !l->measuring || l->bytes_issued < l->bytes_target);
}

/* Prepares up to max new requests and submits them with one call; stamps
 * them as issued. Returns how many, or -1. */
static int issue_batch(struct loop *l, unsigned max, uint64_t start, uint64_t *issued)
{
	struct worker *w = l->w;
	struct io *batch[256];
	unsigned nb = 0;

	while (nb < max && may_issue(l)) {
		int rc = prep_new(l, start);

		if (rc) {
			if (rc < 0)
				return -1;
			break;   /* verify holds the pick: see loop_verify_resume */
		}
		batch[nb++] = w->free_ios[w->nr_free];
	}
	if (!nb)
		return 0;
	if (w->ops->submit(&w->engine) < 0)
		return -1;
	*issued = clock_now_ns();
	for (unsigned i = 0; i < nb; i++) {
		struct request *rq = batch[i]->owner;

		batch[i]->issue_ns = *issued;
		if (rq->active && !rq->issue_ns)
			rq->issue_ns = *issued;
	}
	l->inflight += nb;
	return (int)nb;
}

static int submit_reap_loop(struct loop *l)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;
	unsigned cap = w->depth < 256 ? w->depth : 256;
	bool adaptive = s->iodepth_batch_submit == 0;
	unsigned batch_max = adaptive || s->iodepth_batch_submit > cap ? cap : s->iodepth_batch_submit;
	int64_t cost_per_io_ns = 1000;   /* EWMA, starts at one syscall */
	unsigned complete_min = s->iodepth_batch_complete_min ? s->iodepth_batch_complete_min : 1;
	/* fio reaps at most iodepth_batch_complete_min I/Os per call unless
	 * told otherwise; the adaptive default reaps as many as it will
	 * submit in one batch, so a completion never waits unreaped behind
	 * more than one batch's submission (SUBMIT_BUDGET_NS). */
	unsigned complete_max = s->iodepth_batch_complete_max;

	if (complete_min > w->depth)
		complete_min = w->depth;
	if (!complete_max && !adaptive)
		complete_max = complete_min;
	l->now = clock_now_ns();
	for (;;) {
		uint64_t start = l->now, issued = 0;
		int nb;

		if (!l->measuring && l->now >= l->ramp_end)
			reset_measurement(l, l->now);
		if ((l->issuing || !l->abandon) && limits_reached(l, l->now))
			l->issuing = false;
		if (l->issuing && s->fsync_every && l->writes_since_sync >= s->fsync_every)
			if (sync_target(l))
				return -1;
		/* fill every free slot, in batches of batch_max per submit; a
		 * short batch means nothing more may be issued now */
		while (may_issue(l)) {
			if (adaptive)
				batch_max = adaptive_batch((uint64_t)cost_per_io_ns, cap);
			nb = issue_batch(l, batch_max, start, &issued);
			if (nb < 0)
				return -1;
			if (nb == 0)
				break;
			if (adaptive)
				cost_per_io_ns += ((int64_t)((issued - start) / (unsigned)nb) -
						   cost_per_io_ns) / 8;
			if ((unsigned)nb < batch_max)
				break;
			start = issued;
		}
		if (l->verify_wait) {
			if (loop_verify_resume(l))
				return -1;
			continue;
		}
		if (!l->inflight)
			break;
		/* every free slot is filled, or nothing more will be issued:
		 * block for complete_min */
		if (reap_some(l, complete_min, complete_max ? complete_max :
			      adaptive_batch((uint64_t)cost_per_io_ns, cap)))
			return -1;
		if (l->measuring)
			tick(l, l->now);
	}
	if (l->measuring && s->end_fsync && w->fd >= 0 && job_spec_writes(s))
		if (fsync(w->fd))
			return err_set("job '%s': end_fsync: %s", s->name, strerror(errno));
	if (w->verifying && loop_verify_finish(l))
		return -1;
	return 0;
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void loop_run(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct loop l = { .w = w, .dir = w->result.dir };
	struct rusage ru_end;
	uint64_t now, end;
	struct timespec wall;

	now = clock_now_ns();
	l.interval = s->series_interval_ns ? s->series_interval_ns : 1000000000ull;
	/* an engine that moves no data (cpuio, exec) runs for its runtime */
	l.time_based = s->time_based || engine_has(w->ops, ENGINE_NO_IO);
	l.bytes_target = s->io_size ? s->io_size : w->range_len;
	l.issuing = true;
	l.measure_start = now;
	l.ramp_end = now + s->ramp_ns;
	if (!s->ramp_ns)
		reset_measurement(&l, now);
	else
		l.deadline = UINT64_MAX;
	clock_gettime(CLOCK_REALTIME, &wall);
	if (s->verify_only ? loop_verify_pass(&l) : submit_reap_loop(&l)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		l.issuing = false;
		l.abandon = true;   /* what is in flight only has to come back */
		drain(&l);
	}
	end = clock_now_ns();
	report_faults(&l);
	if (!l.measuring) {   /* stopped during the ramp: nothing measured */
		w->result.ramp_ns = end - l.measure_start;
		w->result.partial = true;
		l.measure_start = end;
		getrusage(RUSAGE_THREAD, &l.ru_start);
	}
	if (l.tick.ios[DIR_READ] || l.tick.ios[DIR_WRITE] || w->result.series.nr == 0)
		close_interval(&l, end);
	w->result.runtime_ns = end - l.measure_start;
	w->result.start_unix_ms = (uint64_t)wall.tv_sec * 1000 + (uint64_t)wall.tv_nsec / 1000000
		+ w->result.ramp_ns / 1000000;
	getrusage(RUSAGE_THREAD, &ru_end);
	w->result.usr_cpu_s = timeval_s(ru_end.ru_utime) - timeval_s(l.ru_start.ru_utime);
	w->result.sys_cpu_s = timeval_s(ru_end.ru_stime) - timeval_s(l.ru_start.ru_stime);
	w->result.ctx_switches = (uint64_t)(ru_end.ru_nvcsw + ru_end.ru_nivcsw)
		- (uint64_t)(l.ru_start.ru_nvcsw + l.ru_start.ru_nivcsw);
}
