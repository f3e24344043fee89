/* buffers.h - what a clone's writes carry, as fio fills its buffers:
 * random data filled once per slot and, by default, scrambled for every
 * write (the offset and the time stamped into each 512 bytes, so no two
 * written blocks are alike); or refilled for every write, shaped by
 * buffer_compress_percentage / buffer_compress_chunk (random, then zeros or
 * the pattern), dedupe_percentage (a share of the buffers repeat an
 * earlier one, or a page of the working set) and buffer_pattern; or left
 * as filled (zero_buffers, scramble_buffers=0). Verification writes its
 * own headers and payloads and wins over all of these. */
#ifndef DRIVEBENCH_RUN_BUFFERS_H
#define DRIVEBENCH_RUN_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "io/engine.h"
#include "job/job_spec.h"
#include "job/random.h"

/* What a write does to its slot's buffer. */
enum buffer_mode {
	BUFFER_FIXED,      /* nothing: filled once (or verify fills it) */
	BUFFER_SCRAMBLE,   /* fio's default: offset and time in every 512 bytes */
	BUFFER_REFILL,     /* new contents for every write */
};

/* Where the next unique data comes from: a clone's stream of chunk seeds. */
struct buffer_source {
	uint64_t key;      /* the clone's data stream */
	uint64_t pos;      /* index of the next chunk seed in it */
};

struct buffers {
	enum buffer_mode mode;
	uint64_t write_seq;           /* writes scrambled so far */
	struct buffer_source next;    /* the next unique buffer */
	uint64_t prev_pos;            /* start of the last unique buffer */
	bool have_prev;
	/* shaped contents (buffer_compress_percentage, dedupe_percentage) */
	bool shaped;
	unsigned compress_pct, dedupe_pct;
	uint64_t min_write;           /* the smallest write: one region a chunk */
	uint64_t chunk;               /* buffer_compress_chunk; 0 = min_write */
	bool zero;
	const unsigned char *pattern; /* the job's buffer_pattern, or NULL */
	unsigned pattern_len;
	struct rng dedupe_rng;        /* unique or dedupe, per buffer */
	/* dedupe_mode=working_set: ws_pages pages of ws_advance seeds each,
	 * taken from this clone's stream, or (nr_ws_keys > 0) from the
	 * streams ws_keys[] of every clone with dedupe_global, ws_per_key
	 * pages each, from ws_self on */
	bool working_set;
	uint64_t ws_pages, ws_advance, ws_per_key;
	const uint64_t *ws_keys;
	unsigned nr_ws_keys, ws_self;
	struct rng ws_rng;
};

/* The dedupe_global participants of a run: the data key of every clone
 * whose job sets dedupe_global, in clone order. */
struct buffer_keys {
	uint64_t *keys;
	unsigned nr;
};

/* Sets b up for a clone of spec writing range_len bytes, its data stream
 * key (job_seed(..., RNG_STREAM_DATA), drawn once) and, with
 * dedupe_global, the run's participants (self: its index there). */
void buffers_setup(struct buffers *b, const struct job_spec *spec, uint64_t key,
		   uint64_t range_len, const struct buffer_keys *global, unsigned self);

/* The first contents of nr slots of slot_size bytes each, as fio fills
 * its buffers before the job starts. */
void buffers_fill_slots(struct buffers *b, void *base, unsigned nr, uint64_t slot_size);

/* New contents for len bytes at buf (BUFFER_REFILL). */
void buffers_refill(struct buffers *b, void *buf, uint64_t len);

/* Fills len bytes with data no compressor can shrink, from seed. */
void buffers_random(void *buf, uint64_t len, uint64_t seed);

/* fio's small_content_scramble: for every 512 bytes, the write's offset at
 * one of the first eight 64-byte lines (picked by offset and time), and
 * the time and the write's number at the end of the first line. */
static inline void buffers_scramble(struct buffers *b, struct io *io, uint64_t now)
{
	char *p = io->buf;
	uint64_t off = io->offset, seq = b->write_seq++;
	unsigned line = (unsigned)((now ^ off) & 7) << 6;

	for (uint32_t done = 512; done <= io->len; done += 512, p += 512, off += 512) {
		memcpy(p + line, &off, sizeof(off));
		memcpy(p + 48, &now, sizeof(now));
		memcpy(p + 56, &seq, sizeof(seq));
	}
}

/* What a write does to its buffer before it is queued. */
static inline void buffers_write(struct buffers *b, struct io *io, uint64_t now)
{
	if (b->mode == BUFFER_SCRAMBLE)
		buffers_scramble(b, io, now);
	else if (b->mode == BUFFER_REFILL)
		buffers_refill(b, io->buf, io->len);
}

/* The mode spec's options give a job (verify or not), for tests and docs. */
enum buffer_mode buffers_mode_of(const struct job_spec *spec);

#endif
