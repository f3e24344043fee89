/* loop_issue.h - private to loop.c: the issue decisions of the submit/reap
 * loop, what each new I/O is (direction, size, offset), the range guard,
 * and the preparation of a request and of its next chunk. Definitions, not
 * declarations: the per-I/O path stays in loop.c's one translation unit,
 * so the compiler inlines it there as before; include it nowhere else. */
#ifndef DRIVEBENCH_RUN_LOOP_ISSUE_H
#define DRIVEBENCH_RUN_LOOP_ISSUE_H

#include "run/buffers.h"
#include "run/files.h"
#include "run/loop.h"
#include "run/pagecache.h"
#include "run/shape.h"
#include "util/error.h"

/* fio's random map (run/block_map.h): the next block the offsets give
 * that is not done yet, from idx, and *len cut at the first done block. */
static __attribute__((noinline)) uint64_t map_pick(struct worker *w, uint64_t idx,
						   uint64_t *len)
{
	uint64_t want = (*len + w->align - 1) / w->align, n;

	if (block_map_full(&w->map))
		block_map_clear(&w->map);   /* a new pass (time_based, io_size) */
	while (block_map_is_done(&w->map, idx))
		idx = offset_gen_next(&w->offsets);
	n = block_map_take(&w->map, idx, want);
	if (n < want)
		*len = n * w->align;
	return idx;
}

static inline uint64_t pick_offset(struct loop *l, int dir, uint64_t *len)
{
	struct worker *w = l->w;
	uint64_t off;

	if (w->random_offsets) {
		uint64_t idx = offset_gen_next(&w->offsets);

		if (w->map.bits)
			idx = map_pick(w, idx, len);
		off = idx * w->align;
		if (off + *len > w->range_len)
			off = (w->range_len - *len) / w->align * w->align;
	} else {
		off = w->seq_pos[dir];
		if (off + *len > w->range_len) {
			off = 0;
			worker_cache_wrap(w);   /* fio's loop_cache_invalidate */
		}
		w->seq_pos[dir] = off + *len;
	}
	return w->range_start + off;
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
	/* the ramp's I/O counts: as fio's io_issue_bytes, which its ramp
	 * does not reset, a job bound by size does size bytes in all */
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
		dir = worker_pick_dir(w);
		len = bs_picker_next(&w->bs[dir], &w->rng_bs);
		off = pick_offset(l, dir, &len) + w->test_offset_skew;
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
	int dir = worker_pick_dir(w), rc;
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

	int rc = shape_pick(l, &dir, &len, &off);

	if (rc) {
		if (rc < 0)
			return -1;
		w->nr_free++;
		if (rc == 1)
			l->issuing = false;   /* a sequence ran past the region */
		return 1;             /* 2: a zone reset waits for the I/O in flight */
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
	dir = worker_pick_dir(w);
	len = bs_picker_next(&w->bs[dir], &w->rng_bs);
	off = pick_offset(l, dir, &len) + w->test_offset_skew;
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

#endif
