/* shape.c - where and how large a clone's next I/O is when the job
 * reshapes fio's plain patterns: bsrange sizes, rw=MODE:N offset modifiers
 * with rw_sequencer, the sequence distribution's end, zonemode=strided
 * zones and trimwrite's trim-then-write pairs. Offsets are relative to the
 * job's range here; loop.c adds the range start and guards the result.
 * Only clones with a shape come here (w->special_prep); the plain path in
 * loop.c never does. */
#include "run/shape.h"

#include <stdlib.h>
#include <string.h>

#include "run/files.h"
#include "run/loop.h"
#include "run/zbd_run.h"
#include "util/error.h"
#include "job/random.h"

/* the offset generator of a strided job's zone (job/random.h's
 * streams are 0..3) */
#define STREAM_ZONE 0x52

struct shape {
	/* bsrange per direction; range[d] false = the bs picker */
	bool range[DIR_ALL];
	uint64_t bs_min[DIR_ALL], bs_max[DIR_ALL];
	/* rw=MODE:N */
	int64_t seq_add;
	bool wrap;                    /* past the range's end: start over, or the job ends */
	uint64_t rand_seq_nr, picks;
	enum rw_sequencer sequencer;
	bool have_last[DIR_ALL];
	uint64_t last_start[DIR_ALL], last_end[DIR_ALL];
	/* zonemode=strided */
	bool strided;
	uint64_t zone_size, zone_range, zone_skip;
	uint64_t zone_start, zone_bytes;
	struct offset_gen zone_gen;   /* random offsets inside a zone */
	/* trimwrite: the write that follows a trim */
	bool trimwrite, write_next;
	uint64_t pair_offset, pair_len;
	/* zonemode=zbd: writes at the zones' write pointers (run/zbd.h) */
	struct zbd *zbd;
};

bool shape_needed(const struct job_spec *s)
{
	bool mixed = s->rw == RW_READWRITE || s->rw == RW_RANDRW;

	for (int d = 0; d < DIR_ALL; d++)
		if (s->pacing.bs_max[d] ||
		    /* the rate limiter picks a mixed job's next direction */
		    (mixed && (s->pacing.rate[d] || s->pacing.rate_iops[d])))
			return true;
	return pacing_shaped(s) || s->distribution.kind == DIST_SEQUENCE;
}

int shape_init(struct worker *w)
{
	const struct job_spec *s = w->spec;
	const struct job_pacing *p = &s->pacing;
	struct shape *sh;

	if (!shape_needed(s))
		return 0;
	/* each of several files has its own offsets (run/files.c); a shape
	 * picks within one range */
	if (w->files && (w->files->nr > 1 || w->files->file_ops))
		return err_set("job '%s': bsrange, rw=MODE:N, sequence, strided zones and "
			       "trimwrite are not supported with several files (nrfiles, "
			       "filename=a:b) or a file-ops engine", s->name);
	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return err_set("job '%s': out of memory", s->name);
	for (int d = 0; d < DIR_ALL; d++) {
		sh->range[d] = p->bs_max[d] != 0;
		sh->bs_min[d] = p->bs_min[d];
		sh->bs_max[d] = p->bs_max[d];
	}
	sh->seq_add = p->seq_add;
	/* fio starts over at the end of the range when the job runs on
	 * (time_based, io_size above it); else the file is done and the job
	 * ends (rw=read:8k in 1 MiB: 86 reads, not 1 MiB of them). loops=N
	 * passes still start over here (pacing counts them in bytes). */
	sh->wrap = s->time_based || s->io_size > w->range_len || p->loops > 1;
	sh->rand_seq_nr = p->rand_seq_nr ? p->rand_seq_nr : 1;
	sh->sequencer = p->rw_sequencer;
	sh->trimwrite = s->rw == RW_TRIMWRITE || s->rw == RW_RANDTRIMWRITE;
	sh->strided = pacing_zone_strided(s);
	w->shape = sh;
	if (pacing_zone_zbd(s) && !(sh->zbd = zbd_run_init(w)))
		return -1;
	if (sh->strided) {
		sh->zone_size = p->zonesize;
		/* fio: zonerange defaults to zonesize */
		sh->zone_range = p->zonerange ? p->zonerange : p->zonesize;
		sh->zone_skip = p->zoneskip;
		if (sh->zone_range > w->range_len)
			sh->zone_range = w->range_len;
		if (sh->zone_range < w->align)
			return err_set("job '%s': zonerange %llu holds no block of %llu bytes",
				       s->name, (unsigned long long)sh->zone_range,
				       (unsigned long long)w->align);
		if (w->random_offsets &&
		    offset_gen_init_unit(&sh->zone_gen, s, sh->zone_range / w->align, w->align,
					 job_seed(s, w->clone, STREAM_ZONE)))
			return err_prefix("job '%s'", s->name);
	}
	w->special_prep = true;
	return 0;
}

void shape_free(struct worker *w)
{
	if (w->shape)
		zbd_run_free(w->shape->zbd);
	free(w->shape);
	w->shape = NULL;
}

void shape_restart(struct worker *w)
{
	struct shape *sh = w->shape;

	for (int d = 0; d < DIR_ALL; d++)
		w->seq_pos[d] = 0;
	if (!sh)
		return;
	if (sh->zbd)
		zbd_restart(sh->zbd);
	memset(sh->have_last, 0, sizeof(sh->have_last));
	sh->picks = 0;
	sh->zone_start = sh->zone_bytes = 0;
	sh->write_next = false;
}

uint64_t shape_bytes_target(const struct worker *w, uint64_t bytes)
{
	/* fio: trimwrite trims io_size and writes it again */
	return w->shape && w->shape->trimwrite ? bytes * 2 : bytes;
}

uint64_t shape_range_size(uint64_t lo, uint64_t hi, double u)
{
	uint64_t len = lo + (uint64_t)((double)hi * u);

	if ((lo & (lo - 1)) == 0)
		len &= ~(lo - 1);
	else
		len -= len % lo;
	return len > hi ? hi : len;
}

static uint64_t range_len(struct shape *sh, struct worker *w, int dir)
{
	return shape_range_size(sh->bs_min[dir], sh->bs_max[dir], rng_unit(&w->rng_bs));
}

static int pick_direction(struct loop *l)
{
	if (l->pace_dir >= 0) {          /* the rate limiter chose it */
		int dir = l->pace_dir;

		l->pace_dir = -1;
		return dir;
	}
	return worker_pick_dir(l->w);
}

/* zonemode=strided: after zonesize bytes the next zone starts zonerange +
 * zoneskip further on (from the start again past the end); a zone smaller
 * than zonesize is gone over again. */
static void strided_zone(struct shape *sh, struct worker *w, int dir)
{
	if (sh->zone_bytes >= sh->zone_size) {
		sh->zone_bytes = 0;
		sh->zone_start += sh->zone_range + sh->zone_skip;
		if (sh->zone_start >= w->range_len)
			sh->zone_start = 0;
		w->seq_pos[dir] = sh->zone_start;
	}
	if (w->seq_pos[dir] < sh->zone_start ||
	    w->seq_pos[dir] >= sh->zone_start + sh->zone_range)
		w->seq_pos[dir] = sh->zone_start;
}

/* fio's sequential offset with a modifier: after each I/O, seq_add more
 * bytes (negative: back); past either end it wraps, backwards to the end
 * of the range. Past the end going forward with no wrap (sh->wrap false;
 * a strided zone always wraps): 1, the job is done. */
static int sequential(struct shape *sh, struct worker *w, int dir, uint64_t len,
		      uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t pos = w->seq_pos[dir];
	bool wrap = sh->wrap || sh->strided;

	if (sh->seq_add && sh->have_last[dir]) {
		int64_t next = (int64_t)pos + sh->seq_add;

		if (next < (int64_t)lo || (uint64_t)next >= hi) {
			if (sh->seq_add > 0 && !wrap)
				return 1;
			next = sh->seq_add > 0 ? (int64_t)lo : (int64_t)hi + sh->seq_add;
		}
		if (next < (int64_t)lo)
			next = (int64_t)lo;
		pos = (uint64_t)next;
	}
	if (pos + len > hi) {
		if (!wrap && sh->seq_add > 0)
			return 1;
		pos = lo;
	}
	*out = pos;
	return 0;
}

/* The random offset of a shaped job: the zone's own generator when
 * strided, else the job's; 1 when a sequence distribution has ended. */
static int random_offset(struct shape *sh, struct worker *w, uint64_t len,
			 uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t idx = sh->strided ? offset_gen_next(&sh->zone_gen) :
		offset_gen_next(&w->offsets);
	uint64_t off;

	if (idx == OFFSET_SEQUENCE_END)
		return 1;
	off = lo + idx * w->align;
	if (off + len > hi)
		off = lo + (hi - lo - len) / w->align * w->align;
	*out = off;
	return 0;
}

/* zonemode=zbd: a write goes to a zone's write pointer; 2 when a zone
 * reset or finish waits for the I/O in flight */
static int zbd_pick(struct loop *l, struct shape *sh, int *dir_out, uint64_t len,
		    uint64_t *len_out, uint64_t *off_out)
{
	struct worker *w = l->w;
	uint64_t pick = 0, off;
	/* the slots in use besides this one: in flight or in this batch */
	bool busy = w->depth - w->nr_free > 1;
	int rc;

	if (w->random_offsets && random_offset(sh, w, len, 0, w->range_len, &pick))
		return 1;
	rc = zbd_write(sh->zbd, w->range_start + pick, len, busy, &off);
	if (rc < 0)
		return -1;
	if (rc)
		return 2;
	*dir_out = DIR_WRITE;
	*len_out = len;
	*off_out = off;
	return 0;
}

int shape_pick(struct loop *l, int *dir_out, uint64_t *len_out, uint64_t *off_out)
{
	struct worker *w = l->w;
	struct shape *sh = w->shape;
	uint64_t lo = 0, hi = w->range_len, len, off;
	int dir;

	if (sh->write_next) {            /* trimwrite: write what was trimmed */
		sh->write_next = false;
		*dir_out = DIR_WRITE;
		*len_out = sh->pair_len;
		*off_out = w->range_start + sh->pair_offset + w->test_offset_skew;
		return 0;
	}
	dir = pick_direction(l);
	len = sh->range[dir] ? range_len(sh, w, dir) : bs_picker_next(&w->bs[dir], &w->rng_bs);
	if (len > w->range_len)
		len = w->range_len;
	if (sh->strided) {
		strided_zone(sh, w, dir);
		lo = sh->zone_start;
		hi = lo + sh->zone_range < w->range_len ? lo + sh->zone_range : w->range_len;
		if (len > hi - lo)
			len = hi - lo;
	}
	if (sh->zbd && dir == DIR_WRITE)
		return zbd_pick(l, sh, dir_out, len, len_out, off_out);
	if (!w->random_offsets) {
		if (sequential(sh, w, dir, len, lo, hi, &off))
			return 1;
	} else if (sh->rand_seq_nr > 1 && sh->picks++ % sh->rand_seq_nr) {
		/* rw=randread:N: a new random offset every N I/Os, the first
		 * one too (fio 3.33: 25 26 27 28 209 ...), rw_sequencer in
		 * between */
		off = sh->sequencer == RW_SEQ_IDENTICAL ?
			(sh->have_last[dir] ? sh->last_start[dir] : lo) :
			(sh->have_last[dir] ? sh->last_end[dir] : lo);
		if (off < lo || off + len > hi)
			off = lo;
	} else if (random_offset(sh, w, len, lo, hi, &off)) {
		return 1;
	}
	sh->have_last[dir] = true;
	sh->last_start[dir] = off;
	sh->last_end[dir] = off + len;
	w->seq_pos[dir] = off + len;
	if (sh->strided)
		sh->zone_bytes += len;
	if (sh->trimwrite) {
		sh->write_next = true;
		sh->pair_offset = off;
		sh->pair_len = len;
	}
	*dir_out = dir;
	*len_out = len;
	*off_out = w->range_start + off + w->test_offset_skew;
	return 0;
}
