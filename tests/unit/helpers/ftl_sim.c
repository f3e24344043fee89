/* ftl_sim.c - test helper: a page-mapped FTL with one write frontier and
 * greedy garbage collection (the victim is the closed erase block with the
 * fewest valid pages), counting host and NAND writes. Used by
 * test_sprandom to compare preconditioning methods. */
#include "ftl_sim.h"

#include <math.h>
#include <stdlib.h>

#define NONE UINT32_MAX
#define GC_RESERVE 2 /* erased blocks kept for the frontier and relocation */

enum { BLOCK_FREE, BLOCK_OPEN, BLOCK_CLOSED };

int ftl_sim_init(struct ftl_sim *s, uint32_t logical_pages, double op,
		 uint32_t pages_per_block, uint64_t seed)
{
	*s = (struct ftl_sim){ 0 };
	if (logical_pages == 0 || pages_per_block == 0 || !(op > 0) || op > 4)
		return -1;
	double physical = ceil(logical_pages * (1 + op));
	uint64_t blocks = ((uint64_t)physical + pages_per_block - 1) / pages_per_block;
	uint64_t logical_blocks = (logical_pages + pages_per_block - 1) / pages_per_block;
	if (blocks < logical_blocks + 4 || blocks * pages_per_block >= NONE)
		return -1;

	s->logical_pages = logical_pages;
	s->pages_per_block = pages_per_block;
	s->nr_blocks = (uint32_t)blocks;
	s->l2p = malloc(sizeof(*s->l2p) * logical_pages);
	s->p2l = malloc(sizeof(*s->p2l) * blocks * pages_per_block);
	s->valid = calloc(blocks, sizeof(*s->valid));
	s->state = calloc(blocks, sizeof(*s->state));
	s->free_blocks = malloc(sizeof(*s->free_blocks) * blocks);
	if (!s->l2p || !s->p2l || !s->valid || !s->state || !s->free_blocks) {
		ftl_sim_free(s);
		return -1;
	}
	for (uint32_t i = 0; i < logical_pages; i++)
		s->l2p[i] = NONE;
	for (uint64_t i = 0; i < blocks * pages_per_block; i++)
		s->p2l[i] = NONE;
	/* Pop order 0, 1, 2 ... */
	for (uint32_t b = 0; b < s->nr_blocks; b++)
		s->free_blocks[b] = s->nr_blocks - 1 - b;
	s->nr_free = s->nr_blocks;
	s->open_block = NONE;
	s->open_fill = pages_per_block;
	s->rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
	return 0;
}

void ftl_sim_free(struct ftl_sim *s)
{
	free(s->l2p);
	free(s->p2l);
	free(s->valid);
	free(s->state);
	free(s->free_blocks);
	*s = (struct ftl_sim){ 0 };
}

uint32_t ftl_sim_random_page(struct ftl_sim *s)
{
	/* xorshift64* */
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	uint64_t r = s->rng * 0x2545f4914f6cdd1dULL;
	return (uint32_t)(((r >> 32) * s->logical_pages) >> 32);
}

static void invalidate(struct ftl_sim *s, uint32_t lpn)
{
	uint32_t old = s->l2p[lpn];

	if (old == NONE)
		return;
	s->p2l[old] = NONE;
	s->valid[old / s->pages_per_block]--;
	s->l2p[lpn] = NONE;
}

/* Programs lpn at the frontier, opening a new block when it is full. */
static void program(struct ftl_sim *s, uint32_t lpn)
{
	if (s->open_fill == s->pages_per_block) {
		if (s->open_block != NONE)
			s->state[s->open_block] = BLOCK_CLOSED;
		s->open_block = s->free_blocks[--s->nr_free];
		s->state[s->open_block] = BLOCK_OPEN;
		s->open_fill = 0;
	}
	uint32_t page = s->open_block * s->pages_per_block + s->open_fill++;
	s->p2l[page] = lpn;
	s->l2p[lpn] = page;
	s->valid[s->open_block]++;
	s->nand_writes++;
}

static void collect_one(struct ftl_sim *s)
{
	uint32_t victim = NONE, fewest = UINT32_MAX;

	for (uint32_t b = 0; b < s->nr_blocks; b++)
		if (s->state[b] == BLOCK_CLOSED && s->valid[b] < fewest) {
			victim = b;
			fewest = s->valid[b];
		}
	if (victim == NONE)
		return;
	uint32_t first = victim * s->pages_per_block;
	for (uint32_t p = first; p < first + s->pages_per_block; p++) {
		uint32_t lpn = s->p2l[p];

		if (lpn == NONE)
			continue;
		invalidate(s, lpn);
		program(s, lpn);
	}
	s->state[victim] = BLOCK_FREE;
	s->free_blocks[s->nr_free++] = victim;
}

void ftl_sim_write(struct ftl_sim *s, uint32_t lpn)
{
	while (s->nr_free < GC_RESERVE)
		collect_one(s);
	invalidate(s, lpn);
	program(s, lpn);
	s->host_writes++;
}
