/* offsets.h - where a random job's next I/O lands (a block index chosen by
 * fio's random_distribution / norandommap / random_generator) and which
 * block size it uses (bssplit). O(1) memory, no allocation; one call per
 * I/O. See docs/random.md. */
#ifndef DRIVEBENCH_OFFSETS_H
#define DRIVEBENCH_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job_spec.h"
#include "job/random.h"

enum offset_kind {
	OFFSET_UNIFORM,      /* random + norandommap: independent draws */
	OFFSET_PERMUTATION,  /* random with the map, or lfsr: each block once per pass */
	OFFSET_ZIPF,
	OFFSET_PARETO,
	OFFSET_NORMAL,
	OFFSET_ZONED,        /* zoned and zoned_abs */
	OFFSET_SPRANDOM,     /* sprandom=1 (job/sprandom_job.h) */
	OFFSET_SEQUENCE,     /* sequence:B1,B2,...: the list in order */
};

#define FEISTEL_ROUNDS 6

/* A keyed bijection of [0, n) (a Feistel network over a rows x cols grid,
 * see offsets.c). */
struct feistel {
	uint64_t n;
	uint64_t rows, cols;         /* rows * cols >= n, both <= 2^32 */
	uint64_t last_row_len;       /* cells of the last row inside [0, n) */
	uint64_t keys[FEISTEL_ROUNDS];
};

/* Fields are private to offsets.c; the struct is public so the runner can
 * keep it by value. */
struct offset_gen {
	enum offset_kind kind;
	uint64_t nr_blocks;
	struct rng rng;

	/* OFFSET_PERMUTATION: position in the current pass */
	struct feistel pass_order;
	uint64_t pass_position;
	uint64_t pass_row, pass_col;  /* pass_position as a grid cell */
	uint64_t passes;             /* completed passes */
	/* called as each new pass begins (offset_gen_on_pass_end) */
	void (*on_pass_end)(void *arg);
	void *on_pass_arg;

	/* ZIPF / PARETO / NORMAL: rank -> block, fixed for a given nr_blocks */
	struct feistel scatter;

	/* OFFSET_ZIPF: rejection-inversion constants (Hoermann & Derflinger) */
	double zipf_theta, zipf_h_x1, zipf_h_n, zipf_s;
	/* OFFSET_PARETO: exponent log(h) / log(1 - h) */
	double pareto_power;
	/* OFFSET_NORMAL: centre and standard deviation in blocks; the polar
	 * method yields pairs, the second is kept for the next call */
	double normal_centre, normal_sigma, normal_spare;
	int normal_has_spare;

	/* OFFSET_ZONED: zone chosen by a 53-bit draw against cumulative
	 * thresholds, then uniform in [zone_start, zone_start + zone_len) */
	unsigned nr_zones;
	uint64_t zone_threshold[ZONES_MAX];
	uint64_t zone_start[ZONES_MAX];
	uint64_t zone_len[ZONES_MAX];

	/* OFFSET_SPRANDOM: the sequence, owned by whoever set it */
	struct spr_gen *spr;
	/* OFFSET_SEQUENCE: the job's list (spec->pacing.sequence), the draws
	 * so far; with stride each pass over the list moves nr_sequence blocks
	 * on. Past the last block it returns OFFSET_SEQUENCE_END. */
	const uint32_t *sequence;
	unsigned nr_sequence;
	bool sequence_stride;
	uint64_t sequence_count;
};

#define OFFSET_SEQUENCE_END UINT64_MAX

/* The size of one block index for a job: blockalign, else the smallest
 * block size, of the directions the job uses (fio's ba[]). The runner
 * should compute nr_blocks = range / this, and offset = index * this. */
uint64_t offset_block_bytes(const struct job_spec *spec);

/* Prepares g to pick block indexes in [0, nr_blocks) for spec's
 * random_distribution, norandommap and random_generator; seed comes from
 * job_seed(spec, clone, RNG_STREAM_OFFSETS). zoned_abs sizes are converted
 * with offset_block_bytes(spec). Returns 0, or -1 with err_msg on bad
 * parameters (nr_blocks 0, theta <= 0, h outside (0,1), sigma <= 0, zone
 * shares not adding up to 100, zoned_abs sizes beyond the range ...). */
int offset_gen_init(struct offset_gen *g, const struct job_spec *spec,
		    uint64_t nr_blocks, uint64_t seed);

/* The same, with the bytes per block index given (for zoned_abs). */
int offset_gen_init_unit(struct offset_gen *g, const struct job_spec *spec,
			 uint64_t nr_blocks, uint64_t block_bytes, uint64_t seed);

/* Calls fn(arg) each time a permutation pass ends, before the first
 * index of the next (the runner drops the page cache there, as fio does
 * when its random map is full). Other kinds have no passes. */
void offset_gen_on_pass_end(struct offset_gen *g, void (*fn)(void *), void *arg);

/* The next block index, in [0, nr_blocks) (a sequence may end instead:
 * OFFSET_SEQUENCE_END). */
uint64_t offset_gen_next(struct offset_gen *g);

/* zipf, pareto, normal: the next rank itself (0 = hottest), before the
 * scatter over the range; what a choice among files needs (fio picks
 * files by rank, without its hash). Other kinds: offset_gen_next. */
uint64_t offset_gen_next_rank(struct offset_gen *g);

/* A permutation (random with the map) that has given every block of its
 * pass: fio's "file done" for a random job. False for other kinds. */
bool offset_gen_pass_done(const struct offset_gen *g);

/* The fixed bijection of [0, nr_blocks) that spreads the ranks of zipf,
 * pareto and normal (rank 0 = hottest / centre) over the range, so hot
 * blocks are not adjacent. For tests and for reports naming hot blocks;
 * only meaningful for those kinds. */
uint64_t offset_gen_scatter(const struct offset_gen *g, uint64_t rank);

/* Block-size choice for one direction: bssplit weights (fractions kept),
 * or one fixed size. */
struct bs_picker {
	unsigned nr;
	uint64_t bs[BSSPLIT_MAX];
	uint64_t threshold[BSSPLIT_MAX]; /* cumulative share, scaled to 2^53 */
};

/* nr == 0 -> always fixed_bs. Entries are weighted by pct, which must not
 * be negative and must add up to 100 (within 0.01). Returns 0, or -1 with
 * err_msg (bs 0, bad pct, too many entries). */
int bs_picker_init(struct bs_picker *p, const struct bssplit_entry *e,
		   unsigned nr, uint64_t fixed_bs);

/* The next block size; does not touch r when only one size is possible. */
static inline uint64_t bs_picker_next(struct bs_picker *p, struct rng *r)
{
	if (p->nr == 1)
		return p->bs[0];
	uint64_t draw = rng_next(r) >> 11;
	unsigned i = 0;

	/* entries are sorted by descending share, so the scan is short */
	while (draw >= p->threshold[i])
		i++;
	return p->bs[i];
}

#endif
