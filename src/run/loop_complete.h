/* loop_complete.h - private to loop.c: the completion accounting of the
 * submit/reap loop, what a reaped I/O becomes (counted, continued, or an
 * error) and how its slot is freed. Definitions, not declarations, for the
 * reason in loop_issue.h; include it nowhere else. */
#ifndef DRIVEBENCH_RUN_LOOP_COMPLETE_H
#define DRIVEBENCH_RUN_LOOP_COMPLETE_H

#include <errno.h>

#include "run/loop.h"
#include "run/loop_issue.h"
#include "run/loop_log.h"
#include "run/pacing.h"

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

#endif
