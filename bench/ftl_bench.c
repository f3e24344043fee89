/* ftl_bench.c - how many modelled host writes per second the vssd FTL
 * sustains: uniform random single-IU (4 KiB) writes at steady state (the
 * drive filled sequentially, then randomly overwritten twice before the
 * timed part). Also prints the WAF it measured. Built and run by
 * bench/ftl-bench.sh; not a test.
 * Usage: ftl_bench [logical_GiB [op [timed_writes]]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/error.h"
#include "vssd/ftl.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_iu(struct ftl *ftl, uint64_t iu, struct ftl_ops *ops)
{
	ops->n = 0;
	if (ftl_write(ftl, iu, 1, ops) != 1) {
		fprintf(stderr, "ftl_bench: %s\n", err_msg());
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double gib = argc > 1 ? atof(argv[1]) : 32;
	double op = argc > 2 ? atof(argv[2]) : 0.07;
	uint64_t timed = argc > 3 ? strtoull(argv[3], NULL, 0) : 20000000;
	struct ftl_geometry g = {
		.logical_ius = (uint64_t)(gib * 262144), .iu_bytes = 4096,
		.pages_per_block = 256, .ius_per_page = 4,
		.channels = 8, .dies_per_channel = 4, .bits_per_cell = 3,
		.memory_limit = 8ULL << 30,
	};
	uint64_t per_block = (uint64_t)g.pages_per_block * g.ius_per_page;
	uint64_t dies = (uint64_t)g.channels * g.dies_per_channel;
	uint64_t blocks = (uint64_t)(g.logical_ius * (1 + op)) / per_block;
	g.blocks = (uint32_t)(blocks / dies * dies);

	struct ftl *ftl = ftl_create(&g);
	if (!ftl) {
		fprintf(stderr, "ftl_bench: %s\n", err_msg());
		return 1;
	}
	uint64_t bytes;
	ftl_memory_bytes(&g, &bytes);
	struct ftl_ops ops = { .cap = ftl_ops_per_iu(ftl) };
	ops.op = malloc(sizeof(*ops.op) * ops.cap);
	if (!ops.op)
		return 1;
	for (uint64_t i = 0; i < g.logical_ius; i++)
		if (write_iu(ftl, i, &ops) < 0)
			return 1;
	for (uint64_t i = 0; i < 2 * g.logical_ius; i++)
		if (write_iu(ftl, next_random() % g.logical_ius, &ops) < 0)
			return 1;
	ftl_reset_waf(ftl);
	uint64_t nand_ops = 0;
	double start = now();
	for (uint64_t i = 0; i < timed; i++) {
		if (write_iu(ftl, next_random() % g.logical_ius, &ops) < 0)
			return 1;
		nand_ops += ops.n;
	}
	double secs = now() - start;
	printf("ftl_bench: %.1f GiB logical, OP %.3f, %llu blocks x %u pages x %u IUs, %llu dies, %.0f MiB\n",
	       gib, ftl_geometry_op(&g), (unsigned long long)g.blocks, g.pages_per_block,
	       g.ius_per_page, (unsigned long long)dies, bytes / 1048576.0);
	printf("ftl_bench: %llu random 4K writes in %.2f s: %.2f M modelled writes/s, "
	       "WAF %.3f, %.2f NAND ops per write\n",
	       (unsigned long long)timed, secs, timed / secs / 1e6, ftl_waf(ftl),
	       (double)nand_ops / timed);
	free(ops.op);
	ftl_destroy(ftl);
	return 0;
}
