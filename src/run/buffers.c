/* buffers.c - the contents of a clone's write buffers (buffers.h): which
 * mode fio's options give a job, the first fill of the slots, and the
 * refill of a buffer for a write, shaped as fio's fill_io_buffer does
 * (compressible chunks, dedupe repeats and working sets, the pattern).
 * Data comes from a stream of chunk seeds per clone, so a repeat or a
 * working-set page is regenerated from its position, never stored. */
#include "run/buffers.h"

#include <string.h>

/* Eight independent lanes of a 64-bit linear congruential generator, each
 * output folded (high bits into low) so no byte has a short period: one
 * multiply, one add and a shift-xor a word, and nothing a compressor or a
 * dedupe engine finds. */
#define LANES 8
#define LCG_MUL 0xd1342543de82ef95ull   /* an LCG multiplier (Steele & Vigna) */

static inline uint64_t lane_next(uint64_t *s)
{
	*s = *s * LCG_MUL + 0x9e3779b97f4a7c15ull;
	return *s ^ (*s >> 29);
}

void buffers_random(void *buf, uint64_t len, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t s[LANES], w[LANES];

	for (int i = 0; i < LANES; i++)
		s[i] = mix64(seed + (uint64_t)i * 0x9e3779b97f4a7c15ull);
	/* the lanes are independent, so the multiplies overlap */
	for (; len >= sizeof(w); len -= sizeof(w), p += sizeof(w)) {
		w[0] = lane_next(&s[0]);
		w[1] = lane_next(&s[1]);
		w[2] = lane_next(&s[2]);
		w[3] = lane_next(&s[3]);
		w[4] = lane_next(&s[4]);
		w[5] = lane_next(&s[5]);
		w[6] = lane_next(&s[6]);
		w[7] = lane_next(&s[7]);
		memcpy(p, w, sizeof(w));
	}
	for (int i = 0; len; i++) {
		uint64_t z = mix64(s[i] + 1);
		size_t n = len < 8 ? (size_t)len : 8;

		memcpy(p, &z, n);
		p += n;
		len -= n;
	}
}

/* The seed of chunk pos of a stream. */
static inline uint64_t chunk_seed(uint64_t key, uint64_t pos)
{
	return mix64(key ^ (pos * 0xd1b54a32d192ed03ull + 0x632be59bd9b4e019ull));
}

static void fill_pattern(unsigned char *p, uint64_t len, const unsigned char *pat,
			 unsigned plen)
{
	uint64_t done = plen < len ? plen : len;

	memcpy(p, pat, (size_t)done);
	/* double what is there until it is full */
	while (done < len) {
		uint64_t n = done < len - done ? done : len - done;

		memcpy(p + done, p, (size_t)n);
		done += n;
	}
}

/* The fixed part of a chunk: the pattern, else zeros. */
static void fill_fixed(const struct buffers *b, unsigned char *p, uint64_t len)
{
	if (b->pattern_len)
		fill_pattern(p, len, b->pattern, b->pattern_len);
	else
		memset(p, 0, (size_t)len);
}

/* One chunk: (100 - compress_pct)% random, the rest fixed (fio's
 * __fill_random_buf_percentage with one segment a chunk). */
static void fill_chunk(const struct buffers *b, unsigned char *p, uint64_t len,
		       uint64_t seed)
{
	uint64_t random_len = len * (100 - b->compress_pct) / 100;

	buffers_random(p, random_len, seed);
	fill_fixed(b, p + random_len, len - random_len);
}

/* Where a shaped buffer's seeds start: the next unique ones, the last
 * unique buffer again (dedupe repeat), or a working-set page. Sets
 * *unique for the first. */
static struct buffer_source pick_source(struct buffers *b, bool *unique)
{
	struct buffer_source s = b->next;
	uint64_t page, owner;

	*unique = !b->dedupe_pct || rng_below(&b->dedupe_rng, 100) >= b->dedupe_pct;
	if (*unique)
		return s;
	if (!b->working_set) {
		/* before any unique buffer, the next one is repeated (fio) */
		if (b->have_prev)
			s.pos = b->prev_pos;
		return s;
	}
	page = rng_below(&b->ws_rng, b->ws_pages);
	if (b->nr_ws_keys) {
		owner = (b->ws_self + page / b->ws_per_key) % b->nr_ws_keys;
		s.key = b->ws_keys[owner];
	}
	s.pos = page % b->ws_per_key * b->ws_advance;
	return s;
}

/* fio's fill_io_buffer with compression or dedupe on: the buffer is one
 * unique or dedupe choice, filled in chunks of min(smallest write,
 * buffer_compress_chunk), each from a seed of its own. */
static void fill_shaped(struct buffers *b, unsigned char *p, uint64_t len)
{
	bool unique;
	struct buffer_source s = pick_source(b, &unique);
	uint64_t min_write = b->min_write, start = s.pos;

	while (len) {
		uint64_t n;

		if (min_write > len)
			min_write = len;
		n = b->chunk && b->chunk < min_write ? b->chunk : min_write;
		fill_chunk(b, p, n, chunk_seed(s.key, s.pos++));
		p += n;
		len -= n;
	}
	if (unique) {
		b->prev_pos = start;
		b->have_prev = true;
		b->next.pos = s.pos;
	}
}

void buffers_refill(struct buffers *b, void *buf, uint64_t len)
{
	if (b->shaped)
		fill_shaped(b, buf, len);
	else if (b->pattern_len)
		fill_pattern(buf, len, b->pattern, b->pattern_len);
	else if (b->zero)
		memset(buf, 0, (size_t)len);
	else
		buffers_random(buf, len, chunk_seed(b->next.key, b->next.pos++));
}

void buffers_fill_slots(struct buffers *b, void *base, unsigned nr, uint64_t slot_size)
{
	for (unsigned i = 0; i < nr; i++)
		buffers_refill(b, (char *)base + (size_t)i * slot_size, slot_size);
}

/* fio's refill default: given refill_buffers wins; else dedupe refills,
 * compression short of 100% refills, and a pattern refills when reads (or
 * compression) could spoil it. */
static bool refills(const struct job_spec *spec)
{
	const struct job_buffering *o = &spec->buffering;

	if (o->refill_set)
		return o->refill_buffers;
	if (o->dedupe_refill || (o->compress_pct && o->compress_pct < 100))
		return true;
	return o->pattern_len && (job_spec_reads(spec) || o->compress_pct);
}

enum buffer_mode buffers_mode_of(const struct job_spec *spec)
{
	const struct job_buffering *o = &spec->buffering;
	bool scramble;

	if (spec->verify != VERIFY_NONE)
		return BUFFER_FIXED;
	if (refills(spec))
		return BUFFER_REFILL;
	/* an explicit zero_buffers turns the default scrambling off; shaped
	 * buffers (compression or dedupe asked for) are never scrambled */
	scramble = o->scramble_buffers && (o->scramble_set || !(o->zero_buffers && o->zero_set));
	return scramble && !o->compress_given ? BUFFER_SCRAMBLE : BUFFER_FIXED;
}

/* fio's min_bs[DDIR_WRITE]: the smallest write bs or bssplit gives. */
static uint64_t smallest_write(const struct job_spec *spec)
{
	uint64_t min = 0;

	for (unsigned i = 0; i < spec->bssplit_nr[DIR_WRITE]; i++) {
		const struct bssplit_entry *e = &spec->bssplit[DIR_WRITE][i];

		if (e->pct > 0 && e->bs && (!min || e->bs < min))
			min = e->bs;
	}
	if (!min)
		min = spec->bs[DIR_WRITE];
	return min ? min : 4096;
}

static void setup_working_set(struct buffers *b, const struct job_spec *spec,
			      uint64_t range_len, const struct buffer_keys *global,
			      unsigned self)
{
	const struct job_buffering *o = &spec->buffering;
	/* fio's size * share / 100 / bs, without overflowing */
	uint64_t ws_bytes = range_len / 100 * o->dedupe_ws_pct +
			    range_len % 100 * o->dedupe_ws_pct / 100;
	uint64_t pages = ws_bytes / b->min_write;

	b->working_set = true;
	/* the seeds one smallest write takes: its chunks */
	b->ws_advance = b->chunk && b->chunk < b->min_write ?
		(b->min_write + b->chunk - 1) / b->chunk : 1;
	b->ws_pages = pages ? pages : 1;
	b->ws_per_key = b->ws_pages;
	if (o->dedupe_global && global && global->nr > 1) {
		/* fio spreads the pages evenly over the participants */
		b->ws_keys = global->keys;
		b->nr_ws_keys = global->nr;
		b->ws_self = self;
		b->ws_per_key = b->ws_pages / global->nr ? b->ws_pages / global->nr : 1;
	}
	rng_seed(&b->ws_rng, mix64(b->next.key ^ 0x3ea51ce7ull));
}

void buffers_setup(struct buffers *b, const struct job_spec *spec, uint64_t key,
		   uint64_t range_len, const struct buffer_keys *global, unsigned self)
{
	const struct job_buffering *o = &spec->buffering;

	memset(b, 0, sizeof(*b));
	b->mode = buffers_mode_of(spec);
	b->next.key = key;
	b->min_write = smallest_write(spec);
	b->chunk = o->compress_chunk;
	b->compress_pct = o->compress_pct;
	b->dedupe_pct = o->dedupe_pct;
	/* fio: 100% compressible is all zeros (or the pattern) */
	b->zero = o->zero_buffers || o->compress_pct == 100;
	b->shaped = (o->compress_pct && o->compress_pct < 100) || o->dedupe_pct;
	if (o->pattern_len) {
		b->pattern = o->pattern;
		b->pattern_len = o->pattern_len;
	}
	rng_seed(&b->dedupe_rng, mix64(key ^ 0xd3d0e5eedull));
	if (o->dedupe_pct && o->dedupe_mode == DEDUPE_WORKING_SET)
		setup_working_set(b, spec, range_len, global, self);
}
