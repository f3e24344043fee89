/* loop_verify.c - data verification inside a clone's submit/reap loop,
 * entered only when the job has verify on: claiming a request's range (or
 * holding the pick back while it overlaps I/O in flight), checking a
 * completed read and what a failure does to the job (verify_fatal,
 * continue_on_error), the verify_backlog and the verify phase after the
 * writes. The data format is verify/verify.c's. */
#include "run/loop.h"

#include <errno.h>
#include <stdio.h>

#include "run/runner.h"
#include "run/verify_dump.h"
#include "util/error.h"
#include "job/job_spec.h"

/* Whether [off, off + len) overlaps a request in flight in a way that
 * makes the data read back undefined: a write against anything, or a read
 * against a write. */
static bool verify_overlaps(const struct worker *w, int dir, uint64_t off, uint64_t len)
{
	for (unsigned i = 0; i < w->depth; i++) {
		const struct request *rq = &w->requests[i];

		if (rq->busy && (dir == DIR_WRITE || rq->dir == DIR_WRITE) &&
		    off < rq->span_offset + rq->span_len && rq->span_offset < off + len)
			return true;
	}
	return false;
}

/* Claims [off, off + len) for a new request, or holds the pick back
 * (returns 1) while it overlaps I/O in flight or the backlog is full. */
int loop_verify_claim(struct loop *l, struct request *rq, int dir,
		      uint64_t off, uint64_t len)
{
	struct worker *w = l->w;
	struct verify_ctx *v = &w->verify;

	if ((dir == DIR_WRITE && v->backlog_cap && v->backlog_nr >= v->backlog_cap) ||
	    verify_overlaps(w, dir, off, len)) {
		l->held = true;
		l->held_dir = dir;
		l->held_len = len;
		l->held_offset = off;
		l->verify_wait = true;
		return 1;
	}
	rq->busy = true;
	rq->dir = (uint8_t)dir;
	rq->verify_read = false;
	rq->span_offset = off;
	rq->span_len = len;
	if (dir == DIR_WRITE) {
		rq->verify_seq = verify_next_seq(v);
		if (v->backlog_cap) {
			v->backlog_offset[v->backlog_nr] = off;
			v->backlog_len[v->backlog_nr++] = len;
		}
	}
	return 0;
}

/* Reads [off, off + len) back in slot-sized pieces (whole units), up to
 * iodepth at once; the completions are checked in loop.c (complete_one) and
 * counted as reads. */
static int verify_read_range(struct loop *l, uint64_t off, uint64_t len)
{
	struct worker *w = l->w;
	uint64_t slot = w->buf_size, piece_max;

	/* no larger than one command of an NVMe character device carries */
	if (w->target->max_io_bytes && slot > w->target->max_io_bytes)
		slot = w->target->max_io_bytes;
	piece_max = slot / w->verify.unit * w->verify.unit;
	if (!piece_max)
		piece_max = w->buf_size / w->verify.unit * w->verify.unit;

	while (len) {
		struct io *io;
		struct request *rq;
		uint64_t piece = len < piece_max ? len : piece_max;

		while (!w->nr_free && !l->abandon && !*w->stop)
			if (loop_reap(l, 1, l->inflight))
				return -1;
		if (*w->stop)
			w->result.partial = true;
		if (l->abandon || *w->stop)
			return 0;
		io = w->free_ios[--w->nr_free];
		rq = io->owner;
		rq->active = false;
		rq->verify_read = true;
		io->dir = DIR_READ;
		io->offset = off;
		io->len = (uint32_t)piece;
		io->start_ns = clock_now_ns();
		io->complete_ns = 0;
		if (w->ops->prep(&w->engine, io) || w->ops->submit(&w->engine) < 0)
			return -1;
		io->issue_ns = clock_now_ns();
		l->inflight++;
		off += piece;
		len -= piece;
		if (l->measuring)
			loop_tick(l, l->now);
	}
	return 0;
}

/* What a failure does to the job, as fio's options say: verify_fatal
 * stops everything at once, checks included; continue_on_error=verify
 * lets the job go on; otherwise the job ends with EILSEQ (no new I/O of
 * its workload), but every check already due goes on to the end. */
static void verify_failure_found(struct loop *l)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;

	if (s->verify_fatal) {
		w->result.verify_stopped = true;
		l->verify_stopped = true;
		l->abandon = true;
	} else if (s->continue_on_error & ERROR_CLASS_VERIFY) {
		return;
	}
	if (!w->result.error)
		w->result.error = -EILSEQ;   /* fio's verify error */
	l->issuing = false;
}

int loop_verify_checked(struct loop *l, struct io *io)
{
	struct worker *w = l->w;
	struct request *rq = io->owner;
	unsigned kept = w->result.nr_verify_failures;
	int failures;

	if (l->verify_stopped)   /* verify_fatal: nothing is checked after it */
		return 0;
	failures = verify_check_read(&w->verify, io->buf, io->offset, (uint64_t)io->result,
				     rq->verify_read, &w->result);
	if (failures < 0)
		return -1;
	/* a dump that cannot be written fails the run, after the I/O in
	 * flight is back (an error return here would leave this slot taken) */
	if (failures && w->spec->checks.verify_dump && !w->run_failed &&
	    verify_dump_failures(w, io, kept)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
		l->issuing = false;
		l->abandon = true;
		l->verify_stopped = true;
	}
	if (failures)
		verify_failure_found(l);
	return 0;
}

static bool pass_cut_short(const struct loop *l)
{
	return l->abandon || *l->w->stop || l->verify_stopped;
}

/* drivebench verify of a file shorter than the region: once everything
 * there was checked, the rest is one failure naming the missing range.
 * Its units get their verdict without a read, so they count as checked. */
static int verify_report_missing(struct loop *l)
{
	struct worker *w = l->w;
	struct verify_failure f;

	if (pass_cut_short(l) || !verify_missing(&w->verify, &f))
		return 0;
	w->result.verify_checked += f.units;
	if (verify_result_add(&w->result, &f))
		return -1;
	verify_failure_found(l);
	return 0;
}

/* The verify phase after the writes: every unit this run wrote (runs of
 * consecutive written units as one read each), or, for drivebench verify
 * (no map), the whole range up to the end of the target's data. Every
 * unit is counted as due first, so a pass cut short says how much of it
 * was checked. */
int loop_verify_pass(struct loop *l)
{
	struct worker *w = l->w;
	struct verify_ctx *v = &w->verify;
	uint64_t k = 0, end = v->map ? v->nr_units : verify_present_units(v);

	w->result.verify_units += v->map ?
		verify_due_units(v, v->base, v->nr_units * v->unit) : v->nr_units;
	while (k < end && !pass_cut_short(l)) {
		uint64_t first;

		while (v->map && k < end && !v->map[k])
			k++;
		first = k;
		while (k < end && (!v->map || v->map[k]))
			k++;
		if (k > first &&
		    verify_read_range(l, v->base + first * v->unit, (k - first) * v->unit))
			return -1;
	}
	if (loop_drain(l))
		return -1;
	return verify_report_missing(l);
}

/* verify_backlog: waits for the logged writes, then reads them back. */
static int verify_backlog_pass(struct loop *l)
{
	struct verify_ctx *v = &l->w->verify;

	if (loop_drain(l))
		return -1;
	for (unsigned i = 0; i < v->backlog_nr; i++)
		l->w->result.verify_units +=
			verify_due_units(v, v->backlog_offset[i], v->backlog_len[i]);
	for (unsigned i = 0; i < v->backlog_nr; i++)
		if (verify_read_range(l, v->backlog_offset[i], v->backlog_len[i]))
			return -1;
	v->backlog_nr = 0;
	return loop_drain(l);
}

/* A pick was held back: run the full backlog, or wait for a completion
 * (the overlapping I/O) before the pick is tried again. */
int loop_verify_resume(struct loop *l)
{
	struct verify_ctx *v = &l->w->verify;

	l->verify_wait = false;
	if (v->backlog_cap && v->backlog_nr >= v->backlog_cap)
		return verify_backlog_pass(l);
	if (!l->inflight) {   /* nothing to wait for: drop the pick */
		l->held = false;
		return 0;
	}
	if (loop_reap(l, 1, l->inflight))
		return -1;
	if (l->measuring)
		loop_tick(l, l->now);
	return 0;
}

/* Whether an I/O error stopped the job (an error of a direction that
 * continue_on_error does not cover). */
static bool io_error_stopped(const struct worker *w)
{
	return (w->result.dir[DIR_READ].errors || w->result.dir[DIR_WRITE].errors) &&
	       !(w->spec->continue_on_error & ERROR_CLASS_IO);
}

/* After the loop: what is left of the backlog, or the verify phase
 * (do_verify) of a job that wrote; skipped after a stop, a verify_fatal
 * stop or an I/O error that stopped the job. A verify failure in the
 * workload's reads or the backlog (without verify_fatal) ends the
 * workload, not the check: every unit written is still checked. */
int loop_verify_finish(struct loop *l)
{
	struct worker *w = l->w;
	const struct job_spec *s = w->spec;

	if (*w->stop || l->verify_stopped || io_error_stopped(w))
		return 0;
	l->abandon = false;   /* a deadline ended the writes, not the check */
	if (w->verify.backlog_cap)
		return verify_backlog_pass(l);
	if (s->do_verify && w->verify.map)
		return loop_sync_before_verify(l) ? -1 : loop_verify_pass(l);
	return 0;
}
