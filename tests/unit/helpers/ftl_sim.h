/* ftl_sim.h - a small page-mapped flash translation layer with greedy
 * garbage collection, for tests: it counts host and NAND page writes so a
 * test can watch write amplification settle under a preconditioning
 * method. Not a model of any real drive. */
#ifndef DRIVEBENCH_TEST_FTL_SIM_H
#define DRIVEBENCH_TEST_FTL_SIM_H

#include <stdint.h>

struct ftl_sim {
	uint32_t logical_pages, pages_per_block, nr_blocks;
	uint32_t *l2p;           /* logical page -> physical page, or NONE */
	uint32_t *p2l;           /* physical page -> logical page, or NONE */
	uint32_t *valid;         /* valid pages per erase block */
	uint8_t *state;          /* per erase block: free, open or closed */
	uint32_t *free_blocks;   /* stack of erased blocks */
	uint32_t nr_free;
	uint32_t open_block, open_fill;
	uint64_t host_writes, nand_writes;
	uint64_t rng;
};

/* logical_pages pages of user space, logical_pages x (1 + op) physical
 * pages (rounded up to whole erase blocks of pages_per_block). Returns 0,
 * or -1 for bad sizes (fewer than 4 spare blocks) or no memory. */
int ftl_sim_init(struct ftl_sim *s, uint32_t logical_pages, double op,
		 uint32_t pages_per_block, uint64_t seed);
void ftl_sim_free(struct ftl_sim *s);

/* One host write of logical page lpn (< logical_pages), with whatever
 * garbage collection it triggers. */
void ftl_sim_write(struct ftl_sim *s, uint32_t lpn);

/* A uniform pseudo-random logical page (the simulator's own generator). */
uint32_t ftl_sim_random_page(struct ftl_sim *s);

#endif
