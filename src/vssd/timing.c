/* timing.c - the virtual SSD's clock (see the header). A die is a "free
 * from" time: its operations start at max(ready, free from) and queue in
 * the order they are scheduled, as a die takes its commands. A channel
 * and the host link are timelines (timeline.c) that fill gaps, since the
 * dies sharing them become ready out of booking order. The write buffer
 * is a min-heap of (drain time, bytes): a write is acknowledged when the
 * bytes still buffered at that time leave room for it. A host read with
 * suspend goes ahead of the die's queue (its own "host reads free from"
 * time) and pushes the queue's end back by what it held the die. */
#include "vssd/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "vssd/timeline.h"

#define TIMING_DIES_MAX 65536u
#define TIMING_PLANES_MAX 16u
#define DRAIN_HEAP_MAX (1u << 20)   /* pending buffered chunks, at most */
#define ACK_HEAP_MAX (1u << 21)     /* writes held that write_ack_queued_ns counts */

struct drain {
	uint64_t at_ns;
	uint64_t bytes;
};

/* A min-heap of drains by at_ns, growing to max entries. */
struct time_heap {
	struct drain *v;
	uint32_t n, cap, max;
};

struct timing {
	struct timing_params p;
	uint32_t planes;                /* per die, at least 1 */
	uint64_t *die_free;             /* every operation booked on the die ends */
	uint64_t *work_free;            /* its programs and erases end (<= die_free) */
	uint64_t *plane_free;           /* per die and plane: its reads end */
	uint64_t *host_read_free;       /* ... the host reads booked on it end */
	uint64_t *erase_owed;           /* erase time its next programs run in slices */
	struct timeline *channel;
	struct timeline link;
	uint64_t controller_free;
	uint64_t *queue_free;           /* per submission queue (queue_ns set) */
	uint64_t *queue_write_free;     /* ... (queue_write_bytes_per_ns set) */
	uint64_t write_path_free;       /* the buffer's intake is free from */
	uint64_t intake_free;           /* ... for data (write_intake_bytes_per_ns) */
	uint64_t now;                   /* the latest submission: before it, nothing is pending */
	uint64_t page_xfer_ns;          /* a page over a channel */
	uint64_t command_gap_ns;        /* between commands the controller takes */
	uint64_t jitter_state;          /* program_jitter's sequence (xorshift64) */
	uint64_t retry_state;           /* read_retry_rate's sequence */
	uint64_t retry_max_ns;          /* the longest retry since timing_take_retry */
	struct time_heap drains;        /* buffered bytes, by when they leave */
	struct time_heap acks;          /* the writes held, by their ack (bytes 0) */
	uint64_t reserved;              /* acknowledged, not yet programmed */
	uint64_t draining;              /* programmed, leaving at heap times */
	struct timing_stats stats;
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ns to move bytes at rate (bytes per ns), rounded up. */
static uint64_t transfer_ns(uint64_t bytes, double rate)
{
	return (uint64_t)ceil((double)bytes / rate);
}

struct timing *timing_create(const struct timing_params *p)
{
	struct timing *t;
	uint64_t dies = (uint64_t)p->channels * p->dies_per_channel;
	uint32_t planes;

	if (!p->channels || !p->dies_per_channel || dies > TIMING_DIES_MAX) {
		err_set("vssd timing: %u channels x %u dies (1..%u dies in all)",
			p->channels, p->dies_per_channel, TIMING_DIES_MAX);
		return NULL;
	}
	if (!p->page_bytes || !p->write_buffer_bytes || p->write_buffer_bytes < p->page_bytes) {
		err_set("vssd timing: the page (%u bytes) and a write buffer of at least "
			"a page are needed", p->page_bytes);
		return NULL;
	}
	if (!(p->channel_bytes_per_ns > 0) || !(p->link_bytes_per_ns > 0) ||
	    !(p->commands_per_ns > 0) || !isfinite(p->channel_bytes_per_ns) ||
	    !isfinite(p->link_bytes_per_ns) || !isfinite(p->commands_per_ns)) {
		err_set("vssd timing: channel, link and command rates must be above 0");
		return NULL;
	}
	for (int m = 0; m < NAND_MODES; m++)
		if (!p->read_ns[m] || !p->program_ns[m]) {
			err_set("vssd timing: read and program times must be above 0");
			return NULL;
		}
	if (!(p->read_retry_rate >= 0 && p->read_retry_rate < 1)) {
		err_set("vssd timing: read_retry_rate must be in [0, 1)");
		return NULL;
	}
	if (!(p->program_jitter >= 0 && p->program_jitter < 1)) {
		err_set("vssd timing: program_jitter must be in [0, 1)");
		return NULL;
	}
	if (!p->erase_ns) {
		err_set("vssd timing: the erase time must be above 0");
		return NULL;
	}
	if (p->planes > TIMING_PLANES_MAX) {
		err_set("vssd timing: %u planes per die (at most %u)", p->planes, TIMING_PLANES_MAX);
		return NULL;
	}
	planes = p->planes ? p->planes : 1;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->die_free = calloc(dies, sizeof(*t->die_free))) ||
	    !(t->work_free = calloc(dies, sizeof(*t->work_free))) ||
	    !(t->erase_owed = calloc(dies, sizeof(*t->erase_owed))) ||
	    !(t->plane_free = calloc(dies * planes, sizeof(*t->plane_free))) ||
	    !(t->host_read_free = calloc(dies * planes, sizeof(*t->host_read_free))) ||
	    !(t->channel = calloc(p->channels, sizeof(*t->channel))) ||
	    (p->queue_ns && !(t->queue_free = calloc(TIMING_QUEUES, sizeof(*t->queue_free)))) ||
	    (p->queue_write_bytes_per_ns > 0 &&
	     !(t->queue_write_free = calloc(TIMING_QUEUES, sizeof(*t->queue_write_free))))) {
		timing_destroy(t);
		err_set("vssd timing: out of memory");
		return NULL;
	}
	t->p = *p;
	t->planes = planes;
	t->drains.max = DRAIN_HEAP_MAX;
	t->acks.max = ACK_HEAP_MAX;
	t->jitter_state = 0x9e3779b97f4a7c15ull;
	t->retry_state = 0xd1b54a32d192ed03ull;
	t->page_xfer_ns = transfer_ns(p->page_bytes, p->channel_bytes_per_ns);
	t->command_gap_ns = transfer_ns(1, p->commands_per_ns);
	return t;
}

void timing_destroy(struct timing *t)
{
	if (!t)
		return;
	free(t->die_free);
	free(t->work_free);
	free(t->plane_free);
	free(t->erase_owed);
	free(t->host_read_free);
	free(t->queue_free);
	free(t->queue_write_free);
	for (uint32_t c = 0; t->channel && c < t->p.channels; c++)
		timeline_free(&t->channel[c]);
	free(t->channel);
	timeline_free(&t->link);
	free(t->drains.v);
	free(t->acks.v);
	free(t);
}

static uint32_t die_index(const struct timing *t, uint32_t die)
{
	return die % (t->p.channels * t->p.dies_per_channel);
}

/* The plane a read of block on die uses: planes interleave by block, as
 * NAND addresses them. */
static uint32_t plane_index(const struct timing *t, uint32_t die, uint32_t block)
{
	return die_index(t, die) * t->planes + block % t->planes;
}

/* A read's data leaves the die's register over its channel once tR ends
 * at read_end: returns when it is out. */
static uint64_t read_data_out(struct timing *t, uint32_t die, uint32_t bytes, uint64_t read_end)
{
	struct timeline *ch = &t->channel[(die / t->p.dies_per_channel) % t->p.channels];
	uint64_t xfer = t->page_xfer_ns;

	if (bytes && bytes < t->p.page_bytes)
		xfer = transfer_ns(bytes, t->p.channel_bytes_per_ns);
	timeline_prune(ch, t->now);
	return timeline_book(ch, read_end, xfer) + xfer;
}

/* The next of a fixed sequence (xorshift64) in [0, 1). */
static double next_unit(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return (double)(x >> 11) / (double)(1ull << 53);
}

/* tPROG of mode for the next program, with program_jitter applied. */
static uint64_t program_time(struct timing *t, enum nand_mode mode)
{
	uint64_t ns = t->p.program_ns[mode];

	if (!(t->p.program_jitter > 0))
		return ns;
	return (uint64_t)((double)ns * (1 + (2 * next_unit(&t->jitter_state) - 1) *
					    t->p.program_jitter));
}

/* tR of mode for the next read of bytes (0: a page), with a retry when
 * one of its 4 KiB fails its first decode (read_retry_rate). */
static uint64_t read_time(struct timing *t, enum nand_mode mode, uint32_t bytes)
{
	uint64_t ns = t->p.read_ns[mode];
	uint32_t units;

	if (!(t->p.read_retry_rate > 0))
		return ns;
	units = ((bytes ? bytes : t->p.page_bytes) + 4095) / 4096;
	if (next_unit(&t->retry_state) < 1 - pow(1 - t->p.read_retry_rate, units)) {
		t->stats.read_retries++;
		ns += t->p.read_retry_ns;
		t->retry_max_ns = t->p.read_retry_ns;
	}
	return ns;
}

/* Holds die (and, for transfers, its channel) in the order the operation
 * uses them. */
uint64_t timing_nand_op(struct timing *t, enum nand_op_kind kind, enum nand_mode mode,
			uint32_t die, uint32_t block, uint32_t bytes, uint64_t ready_ns)
{
	uint32_t channel = (die / t->p.dies_per_channel) % t->p.channels;
	uint32_t di = die_index(t, die);
	uint64_t *dfree = &t->die_free[di], *plane;
	struct timeline *ch = &t->channel[channel];
	uint64_t xfer = t->page_xfer_ns;
	uint64_t start, end, slice, prog;

	if (mode >= NAND_MODES)
		mode = NAND_NATIVE;
	t->stats.nand_ops[kind <= NAND_ERASE ? kind : NAND_READ]++;
	switch (kind) {
	case NAND_READ:   /* its plane, once the die's programs and erases are done */
		plane = &t->plane_free[plane_index(t, die, block)];
		start = max_u64(max_u64(ready_ns, *plane), t->work_free[di]);
		slice = read_time(t, mode, bytes);
		end = *plane = start + slice;
		*dfree = max_u64(*dfree, end);
		t->stats.die_busy_ns += slice;
		return read_data_out(t, die, bytes, end);
	case NAND_PROGRAM:
		/* the page goes over the channel into the die's register while
		 * the die may still be busy; the program needs both done */
		timeline_prune(ch, t->now);
		start = timeline_book(ch, ready_ns, xfer) + xfer;
		start = max_u64(start, *dfree);
		/* a slice of an owed erase runs first (erase_slices) */
		slice = t->p.erase_slices > 1 ? t->p.erase_ns / t->p.erase_slices : 0;
		slice = slice < t->erase_owed[di] ? slice : t->erase_owed[di];
		t->erase_owed[di] -= slice;
		prog = program_time(t, mode);
		end = *dfree = t->work_free[di] = start + slice + prog;
		t->stats.die_busy_ns += slice + prog;
		return end;
	case NAND_ERASE:
	default:
		start = max_u64(ready_ns, *dfree);
		if (t->p.erase_slices > 1) {   /* run between the programs to come */
			t->erase_owed[di] += t->p.erase_ns;
			return start;
		}
		end = *dfree = t->work_free[di] = start + t->p.erase_ns;
		t->stats.die_busy_ns += t->p.erase_ns;
		return end;
	}
}

uint64_t timing_host_read(struct timing *t, enum nand_mode mode, uint32_t die, uint32_t block,
			  uint32_t bytes, uint64_t ready_ns)
{
	uint32_t di = die_index(t, die), pi = plane_index(t, die, block);
	uint64_t start = max_u64(ready_ns, t->host_read_free[pi]), held;

	if (mode >= NAND_MODES)
		mode = NAND_NATIVE;
	/* an idle plane (or no suspend): an ordinary read, in booking order */
	if (!t->p.suspend_ns || max_u64(t->plane_free[pi], t->work_free[di]) <= start) {
		uint64_t done = timing_nand_op(t, NAND_READ, mode, die, block, bytes, ready_ns);

		t->host_read_free[pi] = t->plane_free[pi];
		return done;
	}
	/* the die is busy at start: its operation is suspended, the read
	 * runs, and what was booked on the die (and this plane) resumes
	 * later by the time it held */
	held = t->p.suspend_ns + read_time(t, mode, bytes);
	t->host_read_free[pi] = start + held;
	t->die_free[di] += held;
	if (t->work_free[di] > start)
		t->work_free[di] += held;
	if (t->plane_free[pi] > start)
		t->plane_free[pi] += held;
	t->stats.nand_ops[NAND_READ]++;
	t->stats.suspends++;
	t->stats.die_busy_ns += held;
	return read_data_out(t, die, bytes, start + held);
}

uint64_t timing_take_retry(struct timing *t)
{
	uint64_t r = t->retry_max_ns;

	t->retry_max_ns = 0;
	return r;
}

uint64_t timing_command_start(struct timing *t, uint32_t queue, uint64_t submit_ns)
{
	uint64_t start = max_u64(submit_ns, t->controller_free);

	if (submit_ns > t->now)
		t->now = submit_ns;
	t->controller_free = start + t->command_gap_ns;
	/* after the shared intake, so a queue's backlog delays its own
	 * commands only, never another queue's */
	if (t->p.queue_ns) {
		uint64_t *qfree = &t->queue_free[queue % TIMING_QUEUES];

		start = max_u64(start, *qfree);
		*qfree = start + t->p.queue_ns;
	}
	return start + t->p.command_ns;
}

static uint64_t link_move(struct timing *t, uint64_t bytes, uint64_t ready_ns)
{
	uint64_t len = transfer_ns(bytes, t->p.link_bytes_per_ns);

	timeline_prune(&t->link, t->now);
	t->stats.link_bytes += bytes;
	return timeline_book(&t->link, ready_ns, len) + len;
}

uint64_t timing_read_out(struct timing *t, uint64_t bytes, uint64_t nand_done_ns)
{
	return link_move(t, bytes, nand_done_ns);
}

uint64_t timing_write_in(struct timing *t, uint64_t bytes, uint64_t start_ns)
{
	return link_move(t, bytes, start_ns);
}

/* ---- the write buffer: a min-heap of drains ------------------------------ */

/* Takes the heap's soonest entry off it (the heap is not empty). */
static struct drain heap_take(struct time_heap *h)
{
	struct drain top = h->v[0], last = h->v[--h->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t child = 2 * i + 1;

		if (child >= h->n)
			break;
		if (child + 1 < h->n && h->v[child + 1].at_ns < h->v[child].at_ns)
			child++;
		if (h->v[child].at_ns >= last.at_ns)
			break;
		h->v[i] = h->v[child];
		i = child;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/* Adds x; -1 when the heap is at its most entries (or out of memory). */
static int heap_put(struct time_heap *h, struct drain x)
{
	uint32_t i;

	if (h->n == h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 1024;
		struct drain *grown;

		if (cap > h->max || !(grown = realloc(h->v, cap * sizeof(*grown))))
			return -1;
		h->v = grown;
		h->cap = cap;
	}
	i = h->n++;
	while (i > 0 && h->v[(i - 1) / 2].at_ns > x.at_ns) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
	return 0;
}

/* The buffer's soonest chunk leaves. */
static void drain_one(struct timing *t)
{
	t->draining -= heap_take(&t->drains).bytes;
}

/* Drains whatever left the buffer by now_ns. */
static void drain_until(struct timing *t, uint64_t now_ns)
{
	while (t->drains.n && t->drains.v[0].at_ns <= now_ns)
		drain_one(t);
}

/* A write's data through a stage that moves bytes at rate, one write
 * after another (*free: when the stage is free), begun with the link
 * transfer that ended at in_ns: when the data is through. */
static uint64_t rate_stage(const struct timing *t, uint64_t *free_ns, double rate, uint64_t bytes,
			   uint64_t in_ns)
{
	uint64_t link = transfer_ns(bytes, t->p.link_bytes_per_ns);
	uint64_t begin = max_u64(in_ns > link ? in_ns - link : 0, *free_ns);

	*free_ns = begin + transfer_ns(bytes, rate);
	return max_u64(in_ns, *free_ns);
}

uint64_t timing_queue_write(struct timing *t, uint32_t queue, uint64_t bytes, uint64_t in_ns)
{
	if (t->p.queue_write_bytes_per_ns > 0)
		in_ns = rate_stage(t, &t->queue_write_free[queue % TIMING_QUEUES],
				   t->p.queue_write_bytes_per_ns, bytes, in_ns);
	if (t->p.write_intake_bytes_per_ns > 0)
		in_ns = rate_stage(t, &t->intake_free, t->p.write_intake_bytes_per_ns, bytes, in_ns);
	return in_ns;
}

/* ---- the partial writes the drive holds (write_ack_queued_ns) ------------ */

/* How many partial writes are still held at now_ns (acknowledged later). */
static uint32_t acks_held(struct timing *t, uint64_t now_ns)
{
	while (t->acks.n && t->acks.v[0].at_ns <= now_ns)
		heap_take(&t->acks);
	return t->acks.n;
}

uint64_t timing_write_ack(struct timing *t, const struct write_arrival *w)
{
	uint64_t at = w->in_ns, room = t->p.write_buffer_bytes, bytes = w->bytes;
	bool queued = t->p.write_ack_queued_ns && w->partial;

	/* the buffer's intake handles writes one after another, from when
	 * each command starts (beside its data's move over the link), and
	 * acknowledges none before its data is in: write_ack_ns each, and
	 * for a partial write write_ack_queued_ns per partial write held */
	if (t->p.write_ack_ns || queued) {
		uint64_t cost = t->p.write_ack_ns;

		if (queued)
			cost += t->p.write_ack_queued_ns * acks_held(t, w->start_ns);
		t->write_path_free = max_u64(w->start_ns, t->write_path_free) + cost;
		at = max_u64(at, t->write_path_free);
	}
	drain_until(t, w->in_ns);
	/* a write larger than the buffer waits for it to empty */
	if (bytes > room)
		bytes = room;
	while (t->reserved + t->draining + bytes > room && t->drains.n) {
		at = max_u64(at, t->drains.v[0].at_ns);
		drain_one(t);
	}
	t->reserved += bytes;   /* held until a program drains it */
	/* past the heap's most, a write is not counted: that errs toward a
	 * faster write path */
	if (queued)
		(void)heap_put(&t->acks, (struct drain){ at, 0 });
	return at;
}

void timing_write_drained(struct timing *t, uint64_t bytes, uint64_t done_ns)
{
	if (bytes > t->reserved)
		bytes = t->reserved;
	if (!bytes)
		return;
	t->reserved -= bytes;
	/* a full heap (or no memory) lets its soonest chunk leave now: that
	 * errs toward a faster buffer, never an unbounded one */
	if (heap_put(&t->drains, (struct drain){ done_ns, bytes })) {
		if (!t->drains.n)
			return;
		drain_one(t);
		if (heap_put(&t->drains, (struct drain){ done_ns, bytes }))
			return;
	}
	t->draining += bytes;
}

void timing_get_stats(const struct timing *t, struct timing_stats *s)
{
	*s = t->stats;
}
