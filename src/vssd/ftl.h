/* ftl.h - the flash translation layer of the virtual SSD (issue 15): a
 * page-mapped FTL at indirection-unit (IU) granularity with greedy garbage
 * collection and an optional SLC cache. Pure bookkeeping: it does no I/O
 * and keeps no time. Every NAND operation a call causes is appended to the
 * caller's op list, so a timing model above can cost it per die.
 *
 * Memory: 4 bytes per logical IU (the map) + 4 bytes per physical IU (the
 * reverse map) + 18 bytes per block + 4 bytes per IU of a block and 48
 * bytes per die (GC buckets); e.g. 1 TiB logical in 4 KiB IUs at 7% OP is
 * about 2.1 GiB, in 16 KiB IUs about 0.52 GiB. ftl_memory_bytes() gives
 * the figure for a geometry; ftl_create refuses one above
 * geometry.memory_limit. Nothing is allocated after ftl_create; every call
 * is O(1) amortized per IU. Policies: docs/vssd.md. */
#ifndef DRIVEBENCH_VSSD_FTL_H
#define DRIVEBENCH_VSSD_FTL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct ftl_geometry {
	uint64_t logical_ius;      /* host capacity in IUs */
	uint32_t iu_bytes;         /* mapping unit, e.g. 4096 or 16384 */
	uint32_t blocks;           /* physical erase blocks, a multiple of dies */
	uint32_t pages_per_block;  /* native-mode pages per block */
	uint32_t ius_per_page;
	uint32_t channels;
	uint32_t dies_per_channel; /* die index = channel * dies_per_channel + die */
	uint32_t bits_per_cell;    /* 1 SLC .. 4 QLC; 0 is taken as 1 */
	uint32_t slc_cache_blocks; /* blocks that may hold SLC-mode data at a
	                            * time (a multiple of dies); 0: no cache */
	uint32_t slc_dynamic_blocks; /* blocks the dynamic cache may add on top
	                              * while user capacity is unwritten (a
	                              * multiple of dies); 0: none */
	uint32_t gc_low;           /* free blocks per die below which host
	                            * writes force GC; 0: the default 3 */
	uint32_t gc_high;          /* free blocks per die ftl_background_gc
	                            * works up to; 0: low + 2 */
	uint64_t memory_limit;     /* bytes the FTL may allocate; required */
};

enum ftl_op_kind { FTL_OP_READ, FTL_OP_PROGRAM, FTL_OP_ERASE };
enum ftl_cell_mode { FTL_MODE_NATIVE, FTL_MODE_SLC };

/* One NAND operation: a page read or program, or a block erase (page 0).
 * block is the drive-wide block index; die the block's die. */
struct ftl_op {
	uint8_t kind;  /* enum ftl_op_kind */
	uint8_t mode;  /* enum ftl_cell_mode */
	uint16_t die;
	uint32_t block;
	uint32_t page;
};

/* The caller's op list: calls append at op[n] and never pass cap. */
struct ftl_ops {
	struct ftl_op *op;
	uint32_t cap;
	uint32_t n;
};

struct ftl_stats {
	uint64_t host_ius_written;
	uint64_t host_ius_read;      /* mapped IUs read (buffered ones included) */
	uint64_t host_ius_trimmed;   /* mapped IUs a trim unmapped */
	uint64_t nand_ius_programmed;/* host + GC + fold, every mode */
	uint64_t slc_ius_programmed; /* of those, host IUs into the SLC cache */
	uint64_t gc_ius_moved;       /* greedy GC relocations */
	uint64_t fold_ius_moved;     /* SLC -> native folding */
	uint64_t pages_programmed, pages_read, erases;
	uint64_t format_erases;      /* erases FORMAT counted (no ops listed) */
	uint32_t erase_max;          /* per block */
	double erase_mean;
	uint64_t valid_ius;          /* mapped IUs */
	uint32_t free_blocks, open_blocks, closed_blocks, slc_blocks;
};

struct ftl;

/* Checks a geometry (zero sizes, logical > physical, too little spare for
 * GC, dies not dividing blocks, counts that overflow the 32-bit physical
 * IU index) and sets *bytes to what ftl_create would allocate. 0 / -1. */
int ftl_memory_bytes(const struct ftl_geometry *geo, uint64_t *bytes);
/* Over-provisioning as the issue defines it: physical / logical - 1. */
double ftl_geometry_op(const struct ftl_geometry *geo);

/* A drive with every IU unmapped and every block erased; NULL with the
 * reason in err_msg(). */
struct ftl *ftl_create(const struct ftl_geometry *geo);
/* The same, giving up (NULL, err_msg "stopped by a signal ...") once *stop
 * is set while the maps are cleared: seconds at the largest scales. */
struct ftl *ftl_create_until(const struct ftl_geometry *geo, const volatile sig_atomic_t *stop);
void ftl_destroy(struct ftl *ftl);
const struct ftl_geometry *ftl_geometry(const struct ftl *ftl);

/* Whether a byte range leaves a partial IU at either end, so the caller
 * must read-modify-write it (false for an empty range). */
bool ftl_needs_rmw(uint32_t iu_bytes, uint64_t offset, uint64_t length);

/* Writes IUs [first, first + count): each goes to the open block of the
 * next die in turn (the die changes once a page is full), a page is
 * PROGRAMmed when its last IU arrives, and while a die's free blocks are
 * below gc_low each IU first runs one GC or fold step there. Appends the
 * ops and returns how many IUs it wrote: all of them unless the op list
 * filled (call again for the rest). -1 for a range past the drive, or an
 * op list without room for one IU's worst case (ftl_ops_per_iu). */
int64_t ftl_write(struct ftl *ftl, uint64_t first, uint64_t count, struct ftl_ops *ops);
/* Worst-case ops one written IU can add: its program plus one GC step. */
uint32_t ftl_ops_per_iu(const struct ftl *ftl);

/* Reads IUs [first, first + count): one READ per physical page touched in
 * a row; unmapped IUs and IUs of a page still being filled (in the write
 * buffer) cost no op. Returns IUs read (fewer if the op list filled), -1
 * for a range past the drive or a full op list. */
int64_t ftl_read(struct ftl *ftl, uint64_t first, uint64_t count, struct ftl_ops *ops);

/* Unmaps IUs [first, first + count); no NAND op. 0 / -1 (out of range). */
int ftl_trim(struct ftl *ftl, uint64_t first, uint64_t count);

/* Unmaps everything and erases every block that is not already free. The
 * erases are counted (stats.erases, format_erases, per-block counts) but
 * not listed as ops: a format is timed as one drive-wide operation. */
void ftl_format(struct ftl *ftl);

/* Idle-time GC: folds the SLC cache, then greedy GC on each die whose free
 * blocks are below gc_high, while max_ops (and the op list) leave room
 * for a whole step. Returns the ops it appended (0: nothing to do, or no
 * op list). */
int64_t ftl_background_gc(struct ftl *ftl, uint32_t max_ops, struct ftl_ops *ops);

void ftl_get_stats(const struct ftl *ftl, struct ftl_stats *stats);
/* NAND IUs programmed / host IUs written (0 before any write). */
double ftl_waf(const struct ftl *ftl);
/* Resets the write counters (not the erase counts): WAF from here on. */
void ftl_reset_waf(struct ftl *ftl);
/* Checks every invariant of the bookkeeping (map and reverse map agree,
 * valid counts, free lists, GC buckets, SLC FIFO); O(drive size), for
 * tests and debugging. 0, or -1 naming the first inconsistency. */
int ftl_check(const struct ftl *ftl);
/* IUs the SLC cache holds when every cache block is full, the dynamic
 * part as large as it grows on an empty drive. */
uint64_t ftl_slc_cache_ius(const struct ftl *ftl);
/* IUs the SLC cache may hold now: the static part plus what the dynamic
 * part has room for on this much unwritten capacity (full blocks). */
uint64_t ftl_slc_budget_ius(const struct ftl *ftl);

/* The FTL's whole state as memory segments (issue 29, vssd_state=): a
 * caller saves them in order and, into an FTL made from the same
 * geometry, loads them back in the same order. Fills up to max, returns
 * how many there are (FTL_STATE_SEGMENTS). The FTL does no I/O. */
#define FTL_STATE_SEGMENTS 13
struct ftl_segment {
	void *ptr;
	uint64_t len;
};
unsigned ftl_state_segments(struct ftl *ftl, struct ftl_segment *seg, unsigned max);

#endif
