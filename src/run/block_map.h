/* block_map.h - fio's random map for a random job whose I/O sizes vary
 * (bssplit, a block size per direction): a bit per smallest block, so each
 * block of the range is done once a pass. An I/O drawn at a free block
 * takes the free blocks from there up to its size and is cut short at the
 * first one already done, as fio's mark_random_map cuts it; a block an
 * earlier, larger I/O covered is skipped when the offsets reach it. So a
 * size-bound job does its size exactly, each block once (it wrote some
 * twice and left others, and more bytes than its size). */
#ifndef DRIVEBENCH_RUN_BLOCK_MAP_H
#define DRIVEBENCH_RUN_BLOCK_MAP_H

#include <stdbool.h>
#include <stdint.h>

/* the largest map made: 2^32 blocks (512 MiB of bits; 16 TiB of 4 KiB
 * blocks); a larger range runs without one, its I/Os free to overlap */
#define BLOCK_MAP_MAX_BLOCKS (1ull << 32)

struct block_map {
	uint64_t *bits;      /* NULL: no map */
	uint64_t blocks, done;
};

/* A map of blocks blocks, all free. 0; 1 when the range is above
 * BLOCK_MAP_MAX_BLOCKS (no map); -1 with err_msg when out of memory. */
int block_map_init(struct block_map *m, uint64_t blocks);
void block_map_free(struct block_map *m);

static inline bool block_map_is_done(const struct block_map *m, uint64_t b)
{
	return (m->bits[b >> 6] >> (b & 63)) & 1;
}

/* Marks the free blocks from b, at most want of them, up to the first
 * done block or the range's end. Returns how many (at least 1 when b is
 * free). */
uint64_t block_map_take(struct block_map *m, uint64_t b, uint64_t want);

/* Every block done: the pass is over. */
static inline bool block_map_full(const struct block_map *m)
{
	return m->done == m->blocks;
}

/* All blocks free again. */
void block_map_clear(struct block_map *m);

#endif
