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
#include "run/buffers.h"
#include "run/pagecache.h"
#include "run/loop_log.h"
#include "run/checks_run.h"
#include "run/pacing.h"
#include "run/files.h"
#include "run/runner.h"
#include "run/shape.h"
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
		if (off + len > w->range_len) {
			off = 0;
			worker_cache_wrap(w);   /* fio's loop_cache_invalidate */
		}
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
	case RW_TRIM:
	case RW_RANDTRIM:
		return DIR_TRIM;
	default:   /* mixed; trimwrite goes through run/shape.c */
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
	if (dir == DIR_WRITE) {
		l->writes_to_sync--;   /* 0: the next I/O waits for a sync */
		buffers_write(&w->bufs, io, now);
	}
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
	} else if (w->shape) {
		if (shape_pick(l, &dir, &len, &off)) {
			w->nr_free++;
			l->issuing = false;   /* a sequence ran past the region */
			return 1;
		}
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
		verify_ctx_fill(&w->verify, io->buf, io->offset, io->len, rq->verify_seq);
	return w->ops->prep(&w->engine, io);
}

/* prep_new for a clone with several files: the file and the offset in
 * it come from files_pick (fio's get_next_file), which checks the I/O
 * against the file's own range; the worker's guard range spans them all. */
static int prep_new_files(struct loop *l, struct io *io, uint64_t now)
{
	struct worker *w = l->w;
	int dir = pick_dir(w), rc;
	uint64_t len = bs_picker_next(&w->bs[dir], &w->rng_bs), off;

	rc = files_pick(l, io, dir, len, &off);
	if (rc) {
		w->nr_free++;
		return rc;
	}
	off += w->test_offset_skew;
	if (!in_range(w, off, len))
		return guard_violation(w, off, len);
	start_request(l, io, dir, off, len, now);
	return w->ops->prep(&w->engine, io);
}

/* prep_new with a shaped pick (run/shape.c): bsrange, rw=MODE:N, strided
 * zones, trimwrite, a sequence's end. */
static __attribute__((noinline)) int
prep_new_shaped(struct loop *l, struct io *io, uint64_t now)
{
	struct worker *w = l->w;
	int dir;
	uint64_t len, off;

	if (shape_pick(l, &dir, &len, &off)) {
		w->nr_free++;
		l->issuing = false;   /* a sequence ran past the region */
		return 1;
	}
	if (!in_range(w, off, len))
		return guard_violation(w, off, len);
	start_request(l, io, dir, off, len, now);
	return w->ops->prep(&w->engine, io);
}

/* Prepares one new request on a free slot. Returns 0, 1 when a due sync
 * (loop_sync.c), verify or a shape with nothing more held the pick back
 * (the slot stays free), or -1 on error. Without verify, a shape or
 * several files the only cost of them here is the one branch on
 * special_prep. */
static inline __attribute__((always_inline)) int prep_new(struct loop *l, uint64_t now)
{
	struct worker *w = l->w;
	struct io *io;
	int dir;
	uint64_t len, off;

	if (!l->writes_to_sync)   /* a sync is due first (loop_sync) */
		return 1;
	io = w->free_ios[--w->nr_free];
	if (w->special_prep)
		return w->verifying ? prep_new_verified(l, io, now) :
		       w->shape ? prep_new_shaped(l, io, now) :   /* one file at most */
		       w->files ? prep_new_files(l, io, now) : prep_new_shaped(l, io, now);
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
		verify_ctx_fill(&w->verify, io->buf, io->offset, io->len, rq->verify_seq);
	else if (io->dir == DIR_WRITE)
		buffers_write(&w->bufs, io, now);
	return w->ops->prep(&w->engine, io);
}

/* logging: the job writes fio logs (loop_log.c); a constant in each
 * specialisation of reap_body (reap_some, reap_slow), so the path without
 * logs has no test for them. */
static inline __attribute__((always_inline))
void account(struct loop *l, struct io *io, uint64_t now, const bool logging)
{
	struct request *rq = io->owner;
	struct dir_stats *d = &l->dir[io->dir];
	uint64_t done = io->complete_ns ? io->complete_ns : now;
	uint64_t start = io->start_ns, issue = io->issue_ns, bytes = io->len;
	uint64_t offset = io->offset;

	if (rq->active) {
		start = rq->start_ns;
		issue = rq->issue_ns;
		bytes = rq->total;
		offset = rq->next_offset - rq->total;   /* the request's first byte */
		rq->active = false;
	}
	d->ios++;
	d->bytes += bytes;
	lat_add(&d->slat, issue - start);   /* dropped for ENGINE_SYNC: loop_run */
	lat_add(&d->clat, done - issue);
	lat_add(&d->lat, done - start);
	l->tick.ios[io->dir]++;
	l->tick.bytes[io->dir] += bytes;
	l->tick.lat_sum_ns[io->dir] += done - start;
	/* stamped when reaped (fio: when the sample is added), so the log's
	 * times never go back even where an engine programs completions */
	if (logging) {
		loop_log_io(l->log, io->dir, offset, bytes, issue - start, done - issue,
			    done - start, now - l->measure_start);
		/* a bw or iops log per I/O: fio samples the rate per I/O too
		 * (add_bw_sample: bytes * 10^6 / clat ns; add_iops_sample: 1) */
		if (l->rates.bw.window_ns == 0)   /* account: only while measuring */
			rate_stat_add(&l->w->result.bw_stat[io->dir], done > issue ?
				      bytes * 1000000ull / (done - issue) : 0);
		if (l->rates.iops.window_ns == 0)
			rate_stat_add(&l->w->result.iops_stat[io->dir], 1);
	}
}

static void record_error(struct loop *l, struct io *io, int err)
{
	struct dir_stats *d = &l->dir[io->dir];

	/* fill_device: a full filesystem or device is the job's end (fio
	 * clears the error); nothing more is issued, nothing is an error */
	if (l->w->spec->fill_device && io->dir == DIR_WRITE && (err == -ENOSPC || err == -EDQUOT)) {
		l->issuing = false;
		l->abandon = true;
		return;
	}
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
 * (and engine_calls) holds the counts at the start of measurement. */
_Static_assert(ENGINE_CALL_COUNTS == FAULT_CALLS, "a result counts every fault_call");

static void report_faults(struct loop *l)
{
	struct worker *w = l->w;
	uint64_t counts[FAULT_KINDS], calls[FAULT_CALLS];

	fault_engine_counts(&w->engine, counts);
	for (int k = 0; k < FAULT_KINDS; k++)
		w->result.faults_injected[k] = l->measuring ?
			counts[k] - w->result.faults_injected[k] : 0;
	fault_engine_calls(&w->engine, calls);
	for (int k = 0; k < FAULT_CALLS; k++)
		w->result.engine_calls[k] = l->measuring ?
			calls[k] - w->result.engine_calls[k] : 0;
}

/* The runtime's end; an exitall elsewhere (run/jobctl.c) may have set it
 * to 0 already, which stays. */
static void set_deadline(struct worker *w, uint64_t deadline)
{
	uint64_t old = __atomic_load_n(&w->deadline_ns, __ATOMIC_RELAXED);

	while (old && !__atomic_compare_exchange_n(&w->deadline_ns, &old, deadline, false,
						   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline uint64_t deadline_of(const struct loop *l)
{
	return __atomic_load_n(&l->w->deadline_ns, __ATOMIC_RELAXED);
}

static void reset_measurement(struct loop *l, uint64_t now)
{
	struct worker *w = l->w;

	fault_engine_counts(&w->engine, w->result.faults_injected);
	fault_engine_calls(&w->engine, w->result.engine_calls);
	for (int d = 0; d < DIR_ALL; d++) {
		memset(&w->result.dir[d], 0, sizeof(w->result.dir[d]));
		lat_stat_init(&w->result.dir[d].slat);
		lat_stat_init(&w->result.dir[d].clat);
		lat_stat_init(&w->result.dir[d].lat);
	}
	memset(&w->result.depths, 0, sizeof(w->result.depths));
	w->result.ramp_ns = now - l->measure_start;
	loop_sync_start(l);
	l->measuring = true;
	w->engine.measuring = true;
	l->measure_start = now;
	l->next_tick = now + l->interval;
	set_deadline(w, w->spec->runtime_ns ? now + w->spec->runtime_ns : UINT64_MAX);
	/* fio's bandwidth and IOPS samples start with the measured part, as
	 * fio resets bw_sample_time at the end of the ramp */
	job_result_start_rates(&w->result, &l->rates, job_rate_window_ms(w->spec, true),
			       job_rate_window_ms(w->spec, false), now, deadline_of(l));
	l->next_event = l->next_tick < l->rates.next_ns ? l->next_tick : l->rates.next_ns;
	l->bytes_issued = 0;
	memset(&l->tick, 0, sizeof(l->tick));
	getrusage(RUSAGE_THREAD, &l->ru_start);
	if (l->pace)
		pacing_restart(l, now);
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

/* Everything due by now: series intervals, bandwidth and IOPS samples;
 * then the time of the next one. */
static void tick_due(struct loop *l, uint64_t now)
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
	if (now >= l->rates.next_ns) {
		struct rates_taken taken;

		job_result_sample_rates(&l->w->result, &l->rates, now, deadline_of(l), &taken);
		if (l->log && l->measuring)
			loop_log_rates(l->log, &taken, now - l->measure_start);
	}
	l->next_event = l->next_tick < l->rates.next_ns ? l->next_tick : l->rates.next_ns;
}

/* One compare per round; the work is in tick_due. */
static inline void tick(struct loop *l, uint64_t now)
{
	if (now >= l->next_event)
		tick_due(l, now);
}

static inline __attribute__((always_inline)) bool
limits_reached(struct loop *l, uint64_t now)
{
	if (*l->w->stop) {
		l->w->result.partial = true;
		l->abandon = true;
		return true;
	}
	/* the runtime's end, or an exitall (0) */
	if (now >= deadline_of(l)) {
		l->abandon = true;
		return true;
	}
	if (!l->measuring)
		return false;
	return !l->time_based && l->bytes_issued >= l->bytes_target;
}

/* The total latency of the request io completes. */
static inline uint64_t request_latency(const struct io *io, uint64_t now)
{
	const struct request *rq = io->owner;
	uint64_t done = io->complete_ns ? io->complete_ns : now;

	return done - (rq->active ? rq->start_ns : io->start_ns);
}

/* Handles one reaped I/O: completion, next chunk, or error. Returns 1 when
 * the slot was re-queued (a continuing request), 0 when freed, -1 on a
 * guard violation. logging, paced: constants where it is inlined (see
 * reap_body): a job without logs or pacing does nothing more per
 * completion. */
static inline __attribute__((always_inline))
int complete_one(struct loop *l, struct io *io, uint64_t now, const bool logging,
		 const bool paced)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;

	if (w->verifying && io->result > 0 && verify_completed(l, io))
		return -1;
	if (io->result != (int32_t)io->len) {
		if (io->result == 0 && io->dir == DIR_TRIM) {
			io->result = (int32_t)io->len;   /* the kernel's trims say 0 */
		} else if (io->result <= 0) {
			record_error(l, io, io->result < 0 ? io->result : -EIO);
			rq->active = false;
			return 0;
		} else {
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
	if (paced)
		pacing_completed(l, io->dir, request_latency(io, now));
	if (l->measuring)
		account(l, io, now, logging);
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

/* Submits what is prepared and stamps it as issued, as fio does: after
 * the submit call for an async engine (fio stamps issue_time after the
 * commit), before it for a synchronous one (FIO_SYNCIO engines are stamped
 * before ->queue()), whose submit does the I/O, so that its device time is
 * clat and not slat. */
static inline int submit_stamped(struct loop *l, bool sync, uint64_t *issued)
{
	struct worker *w = l->w;

	if (sync) {
		*issued = clock_now_ns();
		return w->ops->submit(&w->engine) < 0 ? -1 : 0;
	}
	if (w->ops->submit(&w->engine) < 0)
		return -1;
	*issued = clock_now_ns();
	return 0;
}

/* Reaps at least min completions (fewer from an engine that models time:
 * it returns after a slice), accounts them, and submits the next chunk of
 * any request that continues on its slot. logging, paced: see
 * complete_one(). */
static inline __attribute__((always_inline))
int reap_body(struct loop *l, unsigned min, unsigned max, const bool logging,
	      const bool paced)
{
	struct worker *w = l->w;
	struct io *done[256], *again[256];
	unsigned nr_again = 0;
	int n;

	n = w->ops->reap(&w->engine, done, min, max > 256 ? 256 : max);
	if (n < 0)
		return -1;
	l->now = clock_now_ns();
	io_depths_reaped(&w->result.depths, (unsigned)n);
	for (int i = 0; i < n; i++) {
		int rc = complete_one(l, done[i], l->now, logging, paced);

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

		if (submit_stamped(l, l->sync, &issued))
			return -1;
		for (unsigned i = 0; i < nr_again; i++)
			again[i]->issue_ns = issued;
	}
	return 0;
}

/* A stopping loop, or one that writes logs or is paced: kept out of line,
 * so the common path pays one test (l->slow) for all three. */
static __attribute__((noinline)) int reap_slow(struct loop *l, unsigned min, unsigned max)
{
	if (l->abandon) {
		cancel_waiting(l);
		if (!l->inflight)
			return 0;
		if (min > l->inflight)
			min = l->inflight;
	}
	if (l->paced)
		return l->logging ? reap_body(l, min, max, true, true) :
				    reap_body(l, min, max, false, true);
	return l->logging ? reap_body(l, min, max, true, false) :
			    reap_body(l, min, max, false, false);
}

static int reap_some(struct loop *l, unsigned min, unsigned max)
{
	if (__builtin_expect(l->slow != 0, 0))
		return reap_slow(l, min, max);
	return reap_body(l, min, max, false, false);
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

void loop_restart_measurement(struct loop *l, uint64_t now)
{
	reset_measurement(l, now);
}

/* iodepth_batch_adaptive=1 (off by default: fio's batching is the default)
 * adapts the batch to what a submit costs per I/O on this target: where
 * submitting only queues work (zram's io-wq hand-off, an NVMe doorbell) one
 * call carries many I/Os and the syscall is amortised; where the submitting
 * thread does the device's work (virtio's notification exits, ~4 us per I/O
 * here) a batch would hold its first I/O back behind the others, so I/Os go
 * out one by one, as fio's default does. The batch is sized so that
 * preparing and submitting it takes about this long. */
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
 * them as issued (sync: l->sync, kept in a register by the caller).
 * Returns how many, or -1. */
static inline __attribute__((always_inline)) int
issue_batch(struct loop *l, unsigned max, uint64_t start, bool sync, uint64_t *issued,
	    const bool paced)
{
	struct worker *w = l->w;
	struct io *batch[256];
	unsigned nb = 0;

	while (nb < max && may_issue(l)) {
		int rc = prep_new(l, start);

		if (rc) {
			if (rc < 0)
				return -1;
			break;   /* a due sync or verify holds the pick (loop_sync, loop_verify_resume) */
		}
		batch[nb++] = w->free_ios[w->nr_free];
	}
	if (!nb)
		return 0;
	if (submit_stamped(l, sync, issued))
		return -1;
	io_depths_submitted(&w->result.depths, nb, l->inflight + nb);
	for (unsigned i = 0; i < nb; i++) {
		struct request *rq = batch[i]->owner;

		batch[i]->issue_ns = *issued;
		if (rq->active && !rq->issue_ns)
			rq->issue_ns = *issued;
	}
	l->inflight += nb;
	if (paced)
		pacing_issued(l, batch, nb);
	return (int)nb;
}

/* fio's submission batch: iodepth_batch_submit I/Os per submit call,
 * 0 or more than iodepth meaning iodepth. */
static unsigned fio_batch(const struct job_spec *s, unsigned cap)
{
	if (s->iodepth_batch_submit == 0 || s->iodepth_batch_submit > cap)
		return cap;
	return s->iodepth_batch_submit;
}

/* How a round's submissions are batched: fio's iodepth_batch_submit, or
 * iodepth_batch_adaptive's running cost per I/O. */
struct batching {
	bool adaptive, sync;
	unsigned cap, batch_max;
	int64_t cost_per_io_ns;       /* EWMA, starts at one syscall */
};

/* Fills every free slot, in batches of batch_max per submit; a short
 * batch means nothing more may be issued now. 0 or -1. */
static inline __attribute__((always_inline)) int
fill_slots(struct loop *l, struct batching *b, uint64_t start, const bool paced)
{
	uint64_t issued = 0;

	while (may_issue(l)) {
		unsigned max;
		int nb;

		if (b->adaptive)
			b->batch_max = adaptive_batch((uint64_t)b->cost_per_io_ns, b->cap);
		max = b->batch_max;
		if (paced && !(max = pacing_allow(l, max)))
			break;
		nb = issue_batch(l, max, start, b->sync, &issued, paced);
		if (nb < 0)
			return -1;
		if (nb == 0)
			break;
		if (b->adaptive)
			b->cost_per_io_ns += ((int64_t)((issued - start) / (unsigned)nb) -
					      b->cost_per_io_ns) / 8;
		if ((unsigned)nb < max)
			break;
		start = issued;
	}
	return 0;
}

/* The rounds of the loop. paced is a constant at each of the two call
 * sites: the plain loop has none of pacing's calls (run/pacing.c). */
static inline __attribute__((always_inline)) int rounds(struct loop *l, const bool paced)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;
	struct batching b = { .sync = l->sync, .cost_per_io_ns = 1000 };
	unsigned complete_min = s->iodepth_batch_complete_min ? s->iodepth_batch_complete_min : 1;
	/* fio reaps at most iodepth_batch_complete_min I/Os per call unless
	 * told otherwise (_max below _min is raised to it); adaptive batching
	 * reaps as many as it will submit in one batch, so a completion never
	 * waits unreaped behind more than one batch's submission
	 * (SUBMIT_BUDGET_NS). */
	unsigned complete_max = s->iodepth_batch_complete_max;

	b.cap = w->depth < 256 ? w->depth : 256;
	b.adaptive = s->measure.batch_adaptive && !b.sync;
	b.batch_max = fio_batch(s, b.cap);
	if (complete_min > w->depth)
		complete_min = w->depth;
	if (complete_max < complete_min && !(b.adaptive && !complete_max))
		complete_max = complete_min;
	l->now = clock_now_ns();
	for (;;) {
		uint64_t start = l->now;

		if (!l->measuring && l->now >= l->ramp_end)
			reset_measurement(l, l->now);
		if (paced && pacing_round(l))
			return -1;
		if ((l->issuing || !l->abandon) && limits_reached(l, l->now))
			l->issuing = false;
		if (paced)   /* pacing_round may have slept */
			start = l->now;
		if (fill_slots(l, &b, start, paced))
			return -1;
		if (l->verify_wait) {
			if (loop_verify_resume(l))
				return -1;
			continue;
		}
		if (paced && pacing_waits(l)) {
			if (pacing_wait(l))
				return -1;
			continue;
		}
		if (!l->inflight) {
			/* the writes before a due sync are done: issue it,
			 * unless nothing would follow it (as fio) */
			if (l->writes_to_sync || !may_issue(l))
				break;
			if (loop_sync(l))
				return -1;
			continue;
		}
		/* every free slot is filled, or nothing more will be issued:
		 * block for complete_min */
		if (reap_some(l, complete_min, complete_max ? complete_max :
			      adaptive_batch((uint64_t)b.cost_per_io_ns, b.cap)))
			return -1;
		if (paced && pacing_reaped(l))
			return -1;
		if (l->measuring)
			tick(l, l->now);
	}
	if (loop_sync_end(l))
		return -1;
	if (w->verifying && loop_verify_finish(l))
		return -1;
	return 0;
}

static int submit_reap_loop(struct loop *l)
{
	return l->pace ? rounds(l, true) : rounds(l, false);
}

/* fio records no submission latency for a synchronous engine (its I/O
 * has no queued stage: slat_ns is all zeros, N 0). The loop adds the
 * samples anyway, so the per-I/O path has no branch for it, and drops
 * them here. */
static void drop_slat(struct worker *w)
{
	for (int d = 0; d < DIR_ALL; d++)
		lat_stat_init(&w->result.dir[d].slat);
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void loop_run(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct loop l = { .w = w, .dir = w->result.dir, .log = w->log,
			  .logging = w->log != NULL };
	struct rusage ru_end;
	uint64_t now, end;
	struct timespec wall;

	now = clock_now_ns();
	/* a synchronous engine's I/O is done when its submit returns: one
	 * slot, as fio caps a sync engine's queue depth at 1 */
	l.sync = (w->ops->flags & ENGINE_SYNC) != 0;
	if (l.sync && w->nr_free > 1)
		w->nr_free = 1;
	l.interval = s->series_interval_ns ? s->series_interval_ns : 1000000000ull;
	/* an engine that moves no data (cpuio, exec) runs for its runtime */
	l.time_based = s->time_based || engine_has(w->ops, ENGINE_NO_IO);
	l.bytes_target = w->files ? w->files->bytes_target :
		shape_bytes_target(w, checks_bytes_target(w, s->io_size ? s->io_size :
							   w->range_len));
	l.issuing = true;
	loop_sync_start(&l);
	l.measure_start = now;
	l.ramp_end = now + s->ramp_ns;
	if (pacing_begin(&l)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		return;
	}
	l.paced = l.pace != NULL;
	if (!s->ramp_ns)
		reset_measurement(&l, now);
	clock_gettime(CLOCK_REALTIME, &wall);
	if (w->files && w->files->file_ops ? loop_fileops_pass(&l) :
	    s->verify_only ? loop_verify_pass(&l) : submit_reap_loop(&l)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		l.issuing = false;
		l.abandon = true;   /* what is in flight only has to come back */
		drain(&l);
	}
	end = clock_now_ns();
	pacing_end(&l);
	if (l.sync)
		drop_slat(w);
	report_faults(&l);
	if (!l.measuring) {   /* stopped during the ramp: nothing measured */
		w->result.ramp_ns = end - l.measure_start;
		w->result.partial = true;
		l.measure_start = end;
		getrusage(RUSAGE_THREAD, &l.ru_start);
	}
	if (l.tick.ios[DIR_READ] || l.tick.ios[DIR_WRITE] || l.tick.ios[DIR_TRIM] ||
	    w->result.series.nr == 0)
		close_interval(&l, end);
	w->result.runtime_ns = end - l.measure_start;
	if (l.log)
		loop_log_finish(l.log, end - l.measure_start);
	w->result.total_run_ns = w->result.runtime_ns;
	w->result.start_unix_ms = (uint64_t)wall.tv_sec * 1000 + (uint64_t)wall.tv_nsec / 1000000
		+ w->result.ramp_ns / 1000000;
	getrusage(RUSAGE_THREAD, &ru_end);
	w->result.usr_cpu_s = timeval_s(ru_end.ru_utime) - timeval_s(l.ru_start.ru_utime);
	w->result.sys_cpu_s = timeval_s(ru_end.ru_stime) - timeval_s(l.ru_start.ru_stime);
	w->result.ctx_switches = (uint64_t)(ru_end.ru_nvcsw + ru_end.ru_nivcsw)
		- (uint64_t)(l.ru_start.ru_nvcsw + l.ru_start.ru_nivcsw);
}
