/* block_map.c - fio's random map for jobs whose I/O sizes vary
 * (block_map.h). */
#include "run/block_map.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int block_map_init(struct block_map *m, uint64_t blocks)
{
	memset(m, 0, sizeof(*m));
	if (blocks == 0 || blocks > BLOCK_MAP_MAX_BLOCKS)
		return 1;
	m->bits = calloc((size_t)((blocks + 63) / 64), sizeof(*m->bits));
	if (!m->bits)
		return err_set("out of memory for a random map of %llu blocks",
			       (unsigned long long)blocks);
	m->blocks = blocks;
	return 0;
}

void block_map_free(struct block_map *m)
{
	free(m->bits);
	memset(m, 0, sizeof(*m));
}

void block_map_clear(struct block_map *m)
{
	memset(m->bits, 0, (size_t)((m->blocks + 63) / 64) * sizeof(*m->bits));
	m->done = 0;
}

uint64_t block_map_take(struct block_map *m, uint64_t b, uint64_t want)
{
	uint64_t n = 0;

	while (n < want && b + n < m->blocks && !block_map_is_done(m, b + n)) {
		m->bits[(b + n) >> 6] |= 1ull << ((b + n) & 63);
		n++;
	}
	m->done += n;
	return n;
}
