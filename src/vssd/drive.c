/* drive.c - one modelled drive: the FTL says which NAND operations a
 * command causes, the clock (timing.c) when they and the command end
 * (see the header; docs/vssd.md "The clock"). */
#include "vssd/drive.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "vssd/timing.h"

#define VDRIVE_OPS 4096u   /* NAND operations per FTL call */

struct vdrive {
	struct vssd_model model;
	struct ftl *ftl;
	struct timing *timing;
	uint64_t unprogrammed;           /* host bytes acknowledged, page not written */
	uint64_t last_done_ns;           /* the latest completion booked */
	uint64_t gc_step_ns;             /* idle time a background GC step needs */
	uint64_t nand_busy_ns;           /* the latest NAND operation's end booked */
	struct ftl_op op[VDRIVE_OPS];
	/* per die, within one time_ops call: its reads' and programs' ends
	 * (a call's stamp says which entries are this call's) */
	struct die_deps { uint64_t read_done, prog_done; uint32_t call; } *deps;
	uint32_t call;
};

/* The longest one GC step can hold a die: a whole block's pages read and
 * programmed, and its erase. */
static uint64_t gc_step_ns(const struct vssd_model *m)
{
	const struct timing_params *t = &m->timing;

	return (uint64_t)m->geometry.pages_per_block *
	       (t->read_ns[NAND_NATIVE] + t->program_ns[NAND_NATIVE]) + t->erase_ns;
}

struct vdrive *vdrive_create(const struct vssd_model *m)
{
	return vdrive_create_until(m, NULL);
}

struct vdrive *vdrive_create_until(const struct vssd_model *m, const volatile sig_atomic_t *stop)
{
	struct vdrive *d = calloc(1, sizeof(*d));

	if (!d) {
		err_set("vssd: out of memory");
		return NULL;
	}
	d->model = *m;
	d->gc_step_ns = gc_step_ns(m);
	d->deps = calloc((size_t)m->geometry.channels * m->geometry.dies_per_channel,
			 sizeof(*d->deps));
	if (!d->deps || !(d->ftl = ftl_create_until(&m->geometry, stop)) ||
	    !(d->timing = timing_create(&m->timing))) {
		if (!d->deps)
			err_set("vssd: out of memory");
		vdrive_destroy(d);
		return NULL;
	}
	return d;
}

void vdrive_destroy(struct vdrive *d)
{
	if (!d)
		return;
	ftl_destroy(d->ftl);
	timing_destroy(d->timing);
	free(d->deps);
	free(d);
}

const struct vssd_model *vdrive_model(const struct vdrive *d)
{
	return &d->model;
}

uint64_t vdrive_last_done(const struct vdrive *d)
{
	return d->last_done_ns;
}

void vdrive_format(struct vdrive *d)
{
	ftl_format(d->ftl);
	d->unprogrammed = 0;
}

void vdrive_stats(const struct vdrive *d, struct ftl_stats *s)
{
	ftl_get_stats(d->ftl, s);
}

void vdrive_reset_waf(struct vdrive *d)
{
	ftl_reset_waf(d->ftl);
}

unsigned vdrive_state_segments(struct vdrive *d, struct ftl_segment *seg, unsigned max)
{
	d->unprogrammed = 0;
	return ftl_state_segments(d->ftl, seg, max);
}

struct vdrive *vdrive_clone(const struct vdrive *d)
{
	struct ftl_segment from[FTL_STATE_SEGMENTS], to[FTL_STATE_SEGMENTS];
	struct vdrive *c = vdrive_create(&d->model);
	unsigned n;

	if (!c)
		return NULL;
	/* the source's segments name its memory; reading them changes nothing */
	n = ftl_state_segments(d->ftl, from, FTL_STATE_SEGMENTS);
	ftl_state_segments(c->ftl, to, FTL_STATE_SEGMENTS);
	for (unsigned i = 0; i < n; i++)
		memcpy(to[i].ptr, from[i].ptr, from[i].len);
	return c;
}

static struct ftl_ops op_list(struct vdrive *d)
{
	return (struct ftl_ops){ .op = d->op, .cap = VDRIVE_OPS, .n = 0 };
}

/* Times ops[0, n) from ready; a program waits for the reads listed before
 * it (GC moves), an erase for the programs. host: the reads are the
 * host's (they may suspend a program or erase; GC's do not). *programmed:
 * the last program's end (0 if none). Returns when the last op ends. */
static uint64_t time_ops(struct vdrive *d, const struct ftl_ops *ops, bool host,
			 uint32_t read_bytes, uint64_t ready, uint64_t *programmed)
{
	uint64_t last = ready;

	/* A GC step reads, programs and erases on one die, so a program waits
	 * for the reads listed before it on its die and an erase for the
	 * programs there; waiting for every die's made one call's steps a
	 * chain across the dies (1M writes after random 4K ones: 2 MB/s). */
	if (++d->call == 0)
		d->call = 1;
	for (uint32_t i = 0; i < ops->n; i++) {
		const struct ftl_op *op = &ops->op[i];
		enum nand_mode mode = op->mode == FTL_MODE_SLC ? NAND_SLC : NAND_NATIVE;
		struct die_deps *dep = &d->deps[op->die];
		uint64_t end;

		if (dep->call != d->call)
			*dep = (struct die_deps){ ready, ready, d->call };
		if (op->kind == FTL_OP_READ) {
			end = host ? timing_host_read(d->timing, mode, op->die, op->block,
						      read_bytes, ready)
				   : timing_nand_op(d->timing, NAND_READ, mode, op->die, op->block,
						    read_bytes, ready);
			dep->read_done = end > dep->read_done ? end : dep->read_done;
		} else if (op->kind == FTL_OP_PROGRAM) {
			end = timing_nand_op(d->timing, NAND_PROGRAM, mode, op->die, 0, 0,
					     dep->read_done);
			dep->prog_done = end > dep->prog_done ? end : dep->prog_done;
			if (end > *programmed)
				*programmed = end;
		} else {
			end = timing_nand_op(d->timing, NAND_ERASE, mode, op->die, 0, 0, dep->prog_done);
		}
		last = end > last ? end : last;
	}
	if (last > d->nand_busy_ns)
		d->nand_busy_ns = last;
	return last;
}

/* When the drive last had work: its last completion, or the end of the
 * NAND work booked after it (acknowledged writes are programmed later). */
static uint64_t idle_since(const struct vdrive *d)
{
	return d->last_done_ns > d->nand_busy_ns ? d->last_done_ns : d->nand_busy_ns;
}

/* Idle time (no command outstanding) lets the drive collect garbage and
 * fold its SLC cache in the background, as drives do between bursts, in
 * whole steps that fit in the idle time: a short gap (a runner between
 * two rounds, a process descheduled) books none, or the commands after it
 * would wait behind a step far longer than the gap, their completions
 * bunch, and the next gap books another (a stall that feeds itself). */
static void background_gc(struct vdrive *d, uint64_t now)
{
	uint64_t from = idle_since(d), programmed = 0;
	struct ftl_ops ops;

	while (from + d->gc_step_ns <= now) {
		ops = op_list(d);
		if (ftl_background_gc(d->ftl, VDRIVE_OPS, &ops) <= 0)
			return;
		from = time_ops(d, &ops, false, 0, from, &programmed);
	}
}

static int model_read(struct vdrive *d, uint64_t first, uint64_t count, uint32_t len,
		      uint64_t start, uint64_t *done)
{
	uint32_t page = d->model.timing.page_bytes;
	uint64_t nand = start, unused = 0, retry, ready;

	timing_take_retry(d->timing);
	while (count) {
		struct ftl_ops ops = op_list(d);
		int64_t n = ftl_read(d->ftl, first, count, &ops);

		if (n <= 0)
			return n < 0 ? -1 : err_set("vssd: the FTL read nothing");
		uint64_t end = time_ops(d, &ops, true, len < page ? len : page, start, &unused);
		nand = end > nand ? end : nand;
		first += (uint64_t)n;
		count -= (uint64_t)n;
	}
	/* the data path (decode) runs in parallel engines after the die. A
	 * read that retried loses its place for the link: the data of the
	 * reads ready before it goes first, so it completes the retry later
	 * than it would have (its slot is booked where it was, the link's
	 * time the same); booked at its NAND's end, a link busy further
	 * ahead than the retry would hide it */
	retry = timing_take_retry(d->timing);
	ready = nand - retry > start ? nand - retry : start;
	*done = timing_read_out(d->timing, len, ready + d->model.timing.decode_ns) + retry;
	return 0;
}

static int model_write(struct vdrive *d, uint32_t queue, uint64_t offset, uint32_t len,
		       uint64_t first, uint64_t count, uint64_t start, uint64_t *done)
{
	uint32_t iu = d->model.geometry.iu_bytes;
	uint64_t in = timing_queue_write(d->timing, queue, len,
					 timing_write_in(d->timing, len, start));
	uint64_t ack, rmw = in;
	uint64_t programmed = 0;
	bool partial = ftl_needs_rmw(iu, offset, len);

	/* a write that leaves part of an IU reads the rest of it before the
	 * program (read-modify-write), but the host is acknowledged from the
	 * write buffer, where the partial unit merges: the read delays the
	 * program, not the command (issue 29.3; it delayed both, 107 us for a
	 * 4K QD1 write on 8K units) */
	if (partial && model_read(d, first, 1, iu, in, &rmw))
		return -1;
	ack = timing_write_ack(d->timing, &(struct write_arrival){ len, start, in, partial });
	while (count) {
		struct ftl_ops ops = op_list(d);
		int64_t n = ftl_write(d->ftl, first, count, &ops);

		if (n <= 0)
			return n < 0 ? -1 : err_set("vssd: the FTL wrote nothing");
		time_ops(d, &ops, false, 0, rmw, &programmed);
		first += (uint64_t)n;
		count -= (uint64_t)n;
	}
	d->unprogrammed += len;
	if (programmed) {   /* the pages written drain the buffer when programmed */
		timing_write_drained(d->timing, d->unprogrammed, programmed);
		d->unprogrammed = 0;
	}
	*done = ack;
	return 0;
}

/* When the command completes if submitted at now. */
static int model_io(struct vdrive *d, uint32_t queue, enum vdrive_dir dir, uint64_t offset,
		    uint32_t len, uint64_t now, uint64_t *done)
{
	uint32_t iu = d->model.geometry.iu_bytes;
	uint64_t first = offset / iu;
	uint64_t count = (offset + len + iu - 1) / iu - first;
	uint64_t start;

	if (d->last_done_ns && now >= idle_since(d) + d->gc_step_ns)
		background_gc(d, now);
	start = timing_command_start(d->timing, queue, now);
	switch (dir) {
	case VDRIVE_READ:
		return model_read(d, first, count, len, start, done);
	case VDRIVE_WRITE:
		return model_write(d, queue, offset, len, first, count, start, done);
	default:   /* a trim: the map only */
		*done = start;
		return ftl_trim(d->ftl, first, count);
	}
}

int vdrive_write_untimed(struct vdrive *d, uint64_t offset, uint32_t len)
{
	uint32_t iu = d->model.geometry.iu_bytes;
	uint64_t first = offset / iu, count = (offset + len + iu - 1) / iu - first;

	while (count) {
		struct ftl_ops ops = op_list(d);
		int64_t n = ftl_write(d->ftl, first, count, &ops);

		if (n <= 0)
			return n < 0 ? -1 : err_set("vssd: the FTL wrote nothing");
		first += (uint64_t)n;
		count -= (uint64_t)n;
	}
	return 0;
}

int vdrive_io(struct vdrive *d, uint32_t queue, enum vdrive_dir dir, uint64_t offset,
	      uint32_t len, uint64_t submit_ns, uint64_t *done_ns)
{
	int rc = model_io(d, queue, dir, offset, len, submit_ns, done_ns);

	if (*done_ns > d->last_done_ns)
		d->last_done_ns = *done_ns;
	return rc;
}
