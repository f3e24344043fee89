/* gc.c - greedy garbage collection and SLC folding. Closed native blocks
 * sit in per-die buckets by valid IU count (doubly linked lists), so the
 * greedy victim - the closed block with the fewest valid IUs - is found by
 * walking up from the lowest bucket that may be non-empty: O(1) amortized,
 * as the walk only climbs back what invalidations lowered. Closed SLC
 * blocks sit in a per-die FIFO and are folded oldest first. */
#include "vssd/ftl_internal.h"

#define PREFETCH_AHEAD 16

static uint32_t *bucket_head(struct ftl *f, uint32_t die, uint32_t valid)
{
	return &f->buckets[(uint64_t)die * (f->ius_per_block + 1) + valid];
}

void gc_bucket_insert(struct ftl *f, uint32_t b)
{
	uint32_t die = block_die(f, b);
	uint32_t *head = bucket_head(f, die, f->valid[b]);

	f->next[b] = *head;
	f->prev[b] = FTL_NONE;
	if (*head != FTL_NONE)
		f->prev[*head] = b;
	*head = b;
	if (f->valid[b] < f->die[die].min_bucket)
		f->die[die].min_bucket = f->valid[b];
}

void gc_bucket_remove(struct ftl *f, uint32_t b)
{
	if (f->prev[b] != FTL_NONE)
		f->next[f->prev[b]] = f->next[b];
	else
		*bucket_head(f, block_die(f, b), f->valid[b]) = f->next[b];
	if (f->next[b] != FTL_NONE)
		f->prev[f->next[b]] = f->prev[b];
}

void gc_slc_append(struct ftl *f, uint32_t b)
{
	struct die_state *ds = &f->die[block_die(f, b)];

	f->next[b] = FTL_NONE;
	if (ds->slc_tail == FTL_NONE)
		ds->slc_head = b;
	else
		f->next[ds->slc_tail] = b;
	ds->slc_tail = b;
}

static void slc_pop(struct ftl *f, uint32_t die)
{
	struct die_state *ds = &f->die[die];

	ds->slc_head = f->next[ds->slc_head];
	if (ds->slc_head == FTL_NONE)
		ds->slc_tail = FTL_NONE;
}

/* The closed native block with the fewest valid IUs, if it is not full. */
static uint32_t greedy_victim(struct ftl *f, uint32_t die)
{
	struct die_state *ds = &f->die[die];

	for (uint32_t v = ds->min_bucket; v < f->ius_per_block; v++) {
		uint32_t b = *bucket_head(f, die, v);
		if (b != FTL_NONE) {
			ds->min_bucket = v;
			return b;
		}
	}
	ds->min_bucket = f->ius_per_block;
	return FTL_NONE;
}

/* Whether the GC stream can take n IUs: its open block's room plus the
 * die's free blocks. */
static bool gc_can_take(const struct ftl *f, uint32_t die, uint32_t n)
{
	return ftl_stream_room(f, die, STREAM_GC) +
	       (uint64_t)f->die[die].free_count * f->ius_per_block >= n;
}

/* Moves block b's valid IUs to the die's GC stream (a READ per source page,
 * the GC stream's PROGRAMs) and ERASEs it onto the free list. b is off its
 * bucket or FIFO already. */
static void relocate(struct ftl *f, uint32_t b, struct ftl_ops *ops)
{
	uint32_t die = block_die(f, b);
	uint32_t base = b * f->ius_per_block, cap = block_capacity(f, b);
	uint32_t last_page = FTL_NONE, moved = 0;
	uint8_t mode = f->mode[b];

	for (uint32_t i = 0; i < cap && f->valid[b]; i++) {
		/* The map entries a move rewrites are scattered: ask for them a
		 * few moves early, or each one is a cache miss in turn. */
		if (i + PREFETCH_AHEAD < cap && f->p2l[base + i + PREFETCH_AHEAD] != FTL_NONE)
			__builtin_prefetch(&f->l2p[f->p2l[base + i + PREFETCH_AHEAD]], 1);
		uint32_t lba = f->p2l[base + i];
		if (lba == FTL_NONE)
			continue;
		uint32_t page = i / f->geo.ius_per_page;
		if (page != last_page) {
			op_push(ops, FTL_OP_READ, mode, die, b, page);
			f->st.pages_read++;
			last_page = page;
		}
		f->p2l[base + i] = FTL_NONE;
		f->valid[b]--;
		ftl_place(f, die, STREAM_GC, lba, ops);
		moved++;
	}
	if (mode == FTL_MODE_SLC) {
		f->st.fold_ius_moved += moved;
		f->die[die].slc_used--;
	} else {
		f->st.gc_ius_moved += moved;
	}
	op_push(ops, FTL_OP_ERASE, mode, die, b, 0);
	f->erases[b]++;
	f->st.erases++;
	f->state[b] = BLOCK_FREE;
	f->mode[b] = FTL_MODE_NATIVE;
	f->next[b] = f->die[die].free_head;
	f->die[die].free_head = b;
	f->die[die].free_count++;
}

static bool fold_oldest(struct ftl *f, uint32_t die, struct ftl_ops *ops)
{
	uint32_t b = f->die[die].slc_head;

	if (b == FTL_NONE || !gc_can_take(f, die, f->valid[b]))
		return false;
	slc_pop(f, die);
	relocate(f, b, ops);
	return true;
}

static bool greedy_step(struct ftl *f, uint32_t die, struct ftl_ops *ops)
{
	uint32_t b = greedy_victim(f, die);

	if (b == FTL_NONE || !gc_can_take(f, die, f->valid[b]))
		return false;
	gc_bucket_remove(f, b);
	relocate(f, b, ops);
	return true;
}

bool gc_forced_step(struct ftl *f, uint32_t die, struct ftl_ops *ops)
{
	const struct die_state *ds = &f->die[die];
	bool cache_full = has_slc_cache(f) && ds->slc_used >= slc_budget(f) &&
			  !ftl_stream_room(f, die, STREAM_SLC);

	/* A full cache folds first: an SLC block frees a whole block for at
	 * most 1/bits_per_cell of a block's moves. */
	if (cache_full && fold_oldest(f, die, ops))
		return true;
	return greedy_step(f, die, ops) || fold_oldest(f, die, ops);
}

int64_t ftl_background_gc(struct ftl *f, uint32_t max_ops, struct ftl_ops *ops)
{
	if (!ops || !ops->op)
		return 0;
	uint32_t start = ops->n;
	uint32_t limit = max_ops < ops_room(ops) ? max_ops : ops_room(ops);
	bool progress = true;

	while (progress) {
		progress = false;
		for (uint32_t k = 0; k < f->dies; k++) {
			uint32_t die = (f->gc_die + k) % f->dies;
			if (limit - (ops->n - start) < f->step_ops)
				return ops->n - start;
			if (fold_oldest(f, die, ops) ||
			    (f->die[die].free_count < f->geo.gc_high && greedy_step(f, die, ops)))
				progress = true;
		}
		f->gc_die = (f->gc_die + 1) % f->dies;
	}
	return ops->n - start;
}
