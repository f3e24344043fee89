/* ftl_check.c - a full consistency check of the FTL's bookkeeping (map and
 * reverse map agree, valid counts, free lists, GC buckets, the SLC FIFO).
 * O(drive size): for tests and debugging, not for the I/O path. Also the
 * state's segments, for saving it (vssd_state=). */
#include "vssd/ftl_internal.h"

#include "util/error.h"

static int check_map(const struct ftl *f)
{
	uint64_t mapped = 0;

	for (uint64_t lba = 0; lba < f->geo.logical_ius; lba++) {
		uint32_t p = f->l2p[lba];
		if (p == FTL_NONE)
			continue;
		mapped++;
		uint32_t b = p / f->ius_per_block;
		if (p >= f->physical_ius || f->p2l[p] != lba || f->state[b] == BLOCK_FREE ||
		    p % f->ius_per_block >= block_capacity(f, b))
			return err_set("vssd check: IU %llu maps to physical %u, which does not map back",
				       (unsigned long long)lba, p);
	}
	if (mapped != f->st.valid_ius)
		return err_set("vssd check: %llu IUs mapped, counted %llu",
			       (unsigned long long)mapped, (unsigned long long)f->st.valid_ius);
	for (uint32_t b = 0; b < f->geo.blocks; b++) {
		uint32_t valid = 0;
		for (uint32_t i = 0; i < f->ius_per_block; i++) {
			uint32_t lba = f->p2l[(uint64_t)b * f->ius_per_block + i];
			if (lba == FTL_NONE)
				continue;
			if (lba >= f->geo.logical_ius ||
			    f->l2p[lba] != (uint64_t)b * f->ius_per_block + i)
				return err_set("vssd check: block %u IU %u holds stale IU %u", b, i, lba);
			valid++;
		}
		/* (A free block's IUs would have failed the map check above.) */
		if (valid != f->valid[b] && f->state[b] != BLOCK_FREE)
			return err_set("vssd check: block %u has %u valid IUs, counted %u",
				       b, valid, f->valid[b]);
	}
	return 0;
}

static int check_die(const struct ftl *f, uint32_t d)
{
	const struct die_state *ds = &f->die[d];
	uint32_t n = 0, in_buckets = 0, closed_native = 0, slc = 0, in_fifo = 0;

	for (uint32_t b = ds->free_head; b != FTL_NONE; b = f->next[b], n++)
		if (n > f->blocks_per_die || f->state[b] != BLOCK_FREE || block_die(f, b) != d)
			return err_set("vssd check: die %u's free list holds block %u", d, b);
	if (n != ds->free_count)
		return err_set("vssd check: die %u has %u free blocks, counted %u", d, n, ds->free_count);
	for (uint32_t v = 0; v <= f->ius_per_block; v++) {
		uint32_t b = f->buckets[(uint64_t)d * (f->ius_per_block + 1) + v];
		for (; b != FTL_NONE; b = f->next[b]) {
			if (f->state[b] != BLOCK_CLOSED || f->mode[b] != FTL_MODE_NATIVE ||
			    f->valid[b] != v || block_die(f, b) != d || v < ds->min_bucket ||
			    ++in_buckets > f->blocks_per_die)
				return err_set("vssd check: die %u bucket %u holds block %u", d, v, b);
		}
	}
	for (uint32_t b = ds->slc_head; b != FTL_NONE; b = f->next[b])
		if (f->state[b] != BLOCK_CLOSED || f->mode[b] != FTL_MODE_SLC ||
		    block_die(f, b) != d || ++in_fifo > f->blocks_per_die)
			return err_set("vssd check: die %u's SLC FIFO holds block %u", d, b);
	for (uint32_t i = 0; i < f->blocks_per_die; i++) {
		uint32_t b = d * f->blocks_per_die + i;
		closed_native += f->state[b] == BLOCK_CLOSED && f->mode[b] == FTL_MODE_NATIVE;
		slc += f->state[b] != BLOCK_FREE && f->mode[b] == FTL_MODE_SLC;
	}
	if (in_buckets != closed_native)
		return err_set("vssd check: die %u: %u closed native blocks, %u in buckets",
			       d, closed_native, in_buckets);
	if (slc != ds->slc_used)
		return err_set("vssd check: die %u: %u SLC blocks, counted %u", d, slc, ds->slc_used);
	return 0;
}

int ftl_check(const struct ftl *f)
{
	if (check_map(f) < 0)
		return -1;
	for (uint32_t d = 0; d < f->dies; d++)
		if (check_die(f, d) < 0)
			return -1;
	return 0;
}

unsigned ftl_state_segments(struct ftl *f, struct ftl_segment *seg, unsigned max)
{
	uint64_t blocks = f->geo.blocks;
	struct ftl_segment all[FTL_STATE_SEGMENTS] = {
		{ f->l2p, sizeof(*f->l2p) * f->geo.logical_ius },
		{ f->p2l, sizeof(*f->p2l) * f->physical_ius },
		{ f->valid, sizeof(*f->valid) * blocks },
		{ f->erases, sizeof(*f->erases) * blocks },
		{ f->next, sizeof(*f->next) * blocks },
		{ f->prev, sizeof(*f->prev) * blocks },
		{ f->state, blocks },
		{ f->mode, blocks },
		{ f->buckets, sizeof(*f->buckets) * f->dies * ((uint64_t)f->ius_per_block + 1) },
		{ f->die, sizeof(*f->die) * f->dies },
		{ &f->host_die, sizeof(f->host_die) },
		{ &f->gc_die, sizeof(f->gc_die) },
		{ &f->st, sizeof(f->st) },
	};

	for (unsigned i = 0; i < max && i < FTL_STATE_SEGMENTS; i++)
		seg[i] = all[i];
	return FTL_STATE_SEGMENTS;
}
