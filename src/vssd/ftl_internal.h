/* ftl_internal.h - the FTL's state, shared by ftl.c (geometry, lifetime,
 * counters), ftl_io.c (host write, read, trim) and gc.c (greedy GC and SLC
 * folding). Not for use outside src/vssd/. */
#ifndef DRIVEBENCH_VSSD_FTL_INTERNAL_H
#define DRIVEBENCH_VSSD_FTL_INTERNAL_H

#include "vssd/ftl.h"

#define FTL_NONE UINT32_MAX

enum block_state { BLOCK_FREE, BLOCK_OPEN, BLOCK_CLOSED };

/* The write streams each die keeps one open block for: host data in native
 * mode, host data in the SLC cache, and GC / fold relocations (native). */
enum stream { STREAM_HOST, STREAM_SLC, STREAM_GC, STREAM_COUNT };

struct die_state {
	uint32_t open[STREAM_COUNT]; /* open block, or FTL_NONE */
	uint32_t fill[STREAM_COUNT]; /* IUs placed in it */
	uint32_t free_head;          /* erased blocks, linked through next[] */
	uint32_t free_count;
	uint32_t min_bucket;         /* no closed native block has fewer valid */
	uint32_t slc_used;           /* blocks in SLC mode, open or closed */
	uint32_t slc_head, slc_tail; /* closed SLC blocks, oldest first */
};

struct ftl {
	struct ftl_geometry geo;
	uint32_t dies, blocks_per_die;
	uint32_t ius_per_block;      /* native */
	uint32_t slc_ius_per_block;  /* ius_per_block / bits_per_cell */
	uint32_t slc_per_die;        /* static SLC cache budget in blocks */
	uint32_t slc_dynamic_per_die;/* most blocks the dynamic cache adds */
	uint32_t step_ops;           /* worst-case ops of one GC or fold step */
	uint64_t physical_ius;
	uint32_t *l2p;               /* logical IU -> physical IU */
	uint32_t *p2l;               /* physical IU -> logical IU (valid) */
	uint32_t *valid;             /* per block */
	uint32_t *erases;            /* per block */
	uint32_t *next, *prev;       /* free list, bucket or SLC FIFO links */
	uint8_t *state, *mode;       /* per block */
	uint32_t *buckets;           /* per die: ius_per_block + 1 list heads */
	struct die_state *die;
	uint32_t host_die;           /* next die host pages go to */
	uint32_t gc_die;             /* next die background GC looks at */
	struct ftl_stats st;         /* counters (block counts filled on get) */
};

static inline uint32_t block_die(const struct ftl *f, uint32_t block)
{
	return block / f->blocks_per_die;
}

static inline uint32_t block_capacity(const struct ftl *f, uint32_t block)
{
	return f->mode[block] == FTL_MODE_SLC ? f->slc_ius_per_block : f->ius_per_block;
}

static inline uint32_t ops_room(const struct ftl_ops *ops)
{
	return ops->n < ops->cap ? ops->cap - ops->n : 0;
}

static inline void op_push(struct ftl_ops *ops, uint8_t kind, uint8_t mode,
			   uint32_t die, uint32_t block, uint32_t page)
{
	ops->op[ops->n++] = (struct ftl_op){ .kind = kind, .mode = mode,
		.die = (uint16_t)die, .block = block, .page = page };
}

/* The blocks die may hold in SLC mode now. The dynamic part lends the
 * cache unwritten user capacity: while the SLC blocks stay within the
 * logical IUs not holding data (a die's share, in native blocks), the
 * drive can always fold them back without touching the OP, so the cache
 * shrinks as the drive fills and is gone on a full drive. */
static inline uint32_t slc_budget(const struct ftl *f)
{
	if (!f->slc_dynamic_per_die)
		return f->slc_per_die;
	uint64_t unwritten = f->geo.logical_ius - f->st.valid_ius;
	uint64_t lent = unwritten / f->dies / f->ius_per_block;
	return f->slc_per_die + (uint32_t)(lent < f->slc_dynamic_per_die ? lent : f->slc_dynamic_per_die);
}

static inline bool has_slc_cache(const struct ftl *f)
{
	return f->slc_per_die || f->slc_dynamic_per_die;
}

/* ftl_io.c: places logical IU lba in die's stream (opening a block from the
 * die's free list when needed; the caller made sure one is there), lists
 * the PROGRAM when the page fills; returns true when it did. */
bool ftl_place(struct ftl *f, uint32_t die, enum stream s, uint32_t lba, struct ftl_ops *ops);
/* Forgets physical IU p's data (overwritten, trimmed or moved). */
void ftl_invalidate(struct ftl *f, uint32_t p);
/* IUs the stream can still take without a new block. */
uint32_t ftl_stream_room(const struct ftl *f, uint32_t die, enum stream s);

/* gc.c */
void gc_bucket_insert(struct ftl *f, uint32_t block);
void gc_bucket_remove(struct ftl *f, uint32_t block);
void gc_slc_append(struct ftl *f, uint32_t block);
/* One forced step on die (a fold when the die's cache is exhausted, else
 * greedy); false when no step can free anything. Room for step_ops ops. */
bool gc_forced_step(struct ftl *f, uint32_t die, struct ftl_ops *ops);

#endif
