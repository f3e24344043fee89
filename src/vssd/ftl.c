/* ftl.c - the FTL's geometry checks, creation, FORMAT and counters. The
 * host paths are in ftl_io.c, garbage collection and folding in gc.c. */
#include "vssd/ftl_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

#define DEFAULT_GC_LOW 3
#define MIN_GC_LOW 2 /* one block for the host stream, one for GC */

/* The geometry with its defaults filled in. */
static struct ftl_geometry with_defaults(const struct ftl_geometry *geo)
{
	struct ftl_geometry g = *geo;

	if (g.bits_per_cell == 0)
		g.bits_per_cell = 1;
	if (g.gc_low == 0)
		g.gc_low = DEFAULT_GC_LOW;
	if (g.gc_high == 0)
		g.gc_high = g.gc_low + 2;
	return g;
}

static int check_sizes(const struct ftl_geometry *g)
{
	if (!g->logical_ius || !g->iu_bytes || !g->blocks || !g->pages_per_block ||
	    !g->ius_per_page || !g->channels || !g->dies_per_channel)
		return err_set("vssd: geometry: a size is zero");
	if (!g->memory_limit)
		return err_set("vssd: geometry: no memory limit given");
	if (g->bits_per_cell > 4)
		return err_set("vssd: geometry: %u bits per cell (1 to 4)", g->bits_per_cell);
	uint64_t dies = (uint64_t)g->channels * g->dies_per_channel;
	if (dies > UINT16_MAX)
		return err_set("vssd: geometry: %llu dies (at most %u)",
			       (unsigned long long)dies, UINT16_MAX);
	if (g->blocks % dies)
		return err_set("vssd: geometry: %u blocks do not divide over %llu dies",
			       g->blocks, (unsigned long long)dies);
	uint64_t per_block = (uint64_t)g->pages_per_block * g->ius_per_page;
	uint64_t physical = per_block * g->blocks;
	if (per_block >= FTL_NONE || physical >= FTL_NONE)
		return err_set("vssd: geometry: %llu physical IUs overflow the 32-bit map",
			       (unsigned long long)physical);
	if (g->logical_ius > physical)
		return err_set("vssd: geometry: logical %llu IUs exceed physical %llu",
			       (unsigned long long)g->logical_ius, (unsigned long long)physical);
	return 0;
}

static int check_spare(const struct ftl_geometry *g)
{
	uint32_t dies = g->channels * g->dies_per_channel;
	uint32_t per_die = g->blocks / dies;

	if (g->slc_cache_blocks || g->slc_dynamic_blocks) {
		if (g->bits_per_cell < 2)
			return err_set("vssd: geometry: an SLC cache needs 2+ bits per cell");
		if (g->pages_per_block % g->bits_per_cell)
			return err_set("vssd: geometry: %u pages per block do not divide by %u bits per cell",
				       g->pages_per_block, g->bits_per_cell);
		if (g->slc_cache_blocks % dies)
			return err_set("vssd: geometry: %u SLC cache blocks do not divide over %u dies",
				       g->slc_cache_blocks, dies);
		if (g->slc_dynamic_blocks % dies)
			return err_set("vssd: geometry: %u dynamic SLC cache blocks do not divide over %u dies",
				       g->slc_dynamic_blocks, dies);
	}
	if (g->gc_low < MIN_GC_LOW || g->gc_high < g->gc_low)
		return err_set("vssd: geometry: GC watermarks low %u high %u (low >= %d, high >= low)",
			       g->gc_low, g->gc_high, MIN_GC_LOW);
	/* Whatever the cache and the watermarks hold back, the closed native
	 * blocks must exceed the logical capacity by a block per die, so that
	 * greedy GC always finds a victim that is not full. */
	uint64_t held = (uint64_t)g->gc_high + STREAM_COUNT + g->slc_cache_blocks / dies;
	uint64_t per_block = (uint64_t)g->pages_per_block * g->ius_per_page;
	if (held >= per_die ||
	    (per_die - held) * per_block * dies < g->logical_ius + dies * per_block)
		return err_set("vssd: geometry: too little spare: %u blocks per die, %llu held back "
			       "(watermark, open blocks, SLC cache) leave no room for GC",
			       per_die, (unsigned long long)held);
	return 0;
}

static uint64_t memory_of(const struct ftl_geometry *g)
{
	uint64_t dies = (uint64_t)g->channels * g->dies_per_channel;
	uint64_t per_block = (uint64_t)g->pages_per_block * g->ius_per_page;

	return sizeof(struct ftl) + 4 * g->logical_ius + 4 * per_block * g->blocks +
	       (4 * 4 + 2) * (uint64_t)g->blocks + 4 * dies * (per_block + 1) +
	       dies * sizeof(struct die_state);
}

int ftl_memory_bytes(const struct ftl_geometry *geo, uint64_t *bytes)
{
	if (!geo || !bytes)
		return err_set("vssd: no geometry");
	struct ftl_geometry g = with_defaults(geo);
	if (check_sizes(&g) < 0 || check_spare(&g) < 0)
		return -1;
	*bytes = memory_of(&g);
	return 0;
}

double ftl_geometry_op(const struct ftl_geometry *geo)
{
	double physical = (double)geo->blocks * geo->pages_per_block * geo->ius_per_page;

	return geo->logical_ius ? physical / (double)geo->logical_ius - 1 : 0;
}

/* memset in 8 MiB pieces, checking *stop between them (a drive's maps
 * take seconds to clear at the largest scales): false when stopped. */
static bool fill_until(void *p, int c, uint64_t n, const volatile sig_atomic_t *stop)
{
	const uint64_t piece = 8ull << 20;

	for (uint64_t at = 0; at < n; at += piece) {
		if (stop && *stop)
			return false;
		memset((char *)p + at, c, (size_t)(n - at < piece ? n - at : piece));
	}
	return true;
}

/* Every block free and erased (erase counts kept), every IU unmapped;
 * false when *stop was set first (the maps half cleared). */
static bool reset_blocks(struct ftl *f, const volatile sig_atomic_t *stop)
{
	if (!fill_until(f->l2p, 0xff, sizeof(*f->l2p) * f->geo.logical_ius, stop) ||
	    !fill_until(f->p2l, 0xff, sizeof(*f->p2l) * f->physical_ius, stop))
		return false;
	memset(f->valid, 0, sizeof(*f->valid) * f->geo.blocks);
	memset(f->state, BLOCK_FREE, f->geo.blocks);
	memset(f->mode, FTL_MODE_NATIVE, f->geo.blocks);
	memset(f->buckets, 0xff, sizeof(*f->buckets) * f->dies * (f->ius_per_block + 1));
	/* a free block has no bucket neighbour: set, so a saved state holds
	 * no uninitialised bytes (valgrind found them in vssd-serve's) */
	memset(f->prev, 0xff, sizeof(*f->prev) * f->geo.blocks);
	for (uint32_t d = 0; d < f->dies; d++) {
		struct die_state *ds = &f->die[d];
		*ds = (struct die_state){ .free_head = FTL_NONE, .min_bucket = f->ius_per_block,
			.slc_head = FTL_NONE, .slc_tail = FTL_NONE };
		for (int s = 0; s < STREAM_COUNT; s++)
			ds->open[s] = FTL_NONE;
		/* Pushed from the top, so blocks are first used in ascending order. */
		for (uint32_t i = f->blocks_per_die; i-- > 0;) {
			uint32_t b = d * f->blocks_per_die + i;
			f->next[b] = ds->free_head;
			ds->free_head = b;
			ds->free_count++;
		}
	}
	f->host_die = 0;
	f->gc_die = 0;
	return true;
}

struct ftl *ftl_create(const struct ftl_geometry *geo)
{
	return ftl_create_until(geo, NULL);
}

struct ftl *ftl_create_until(const struct ftl_geometry *geo, const volatile sig_atomic_t *stop)
{
	uint64_t bytes;

	if (ftl_memory_bytes(geo, &bytes) < 0)
		return NULL;
	struct ftl_geometry g = with_defaults(geo);
	if (bytes > g.memory_limit) {
		err_set("vssd: geometry needs %llu bytes, over the limit of %llu",
			(unsigned long long)bytes, (unsigned long long)g.memory_limit);
		return NULL;
	}
	struct ftl *f = calloc(1, sizeof(*f));
	if (!f) {
		err_set("vssd: out of memory");
		return NULL;
	}
	f->geo = g;
	f->dies = g.channels * g.dies_per_channel;
	f->blocks_per_die = g.blocks / f->dies;
	f->ius_per_block = g.pages_per_block * g.ius_per_page;
	f->slc_ius_per_block = f->ius_per_block / g.bits_per_cell;
	f->slc_per_die = g.slc_cache_blocks / f->dies;
	f->slc_dynamic_per_die = g.slc_dynamic_blocks / f->dies;
	/* A step reads at most every page of its victim and programs at most
	 * a block's worth of pages, plus the page a partial one completes, and
	 * erases the victim. */
	f->step_ops = 2 * g.pages_per_block + 2;
	f->physical_ius = (uint64_t)f->ius_per_block * g.blocks;
	f->l2p = malloc(sizeof(*f->l2p) * g.logical_ius);
	f->p2l = malloc(sizeof(*f->p2l) * f->physical_ius);
	f->valid = malloc(sizeof(*f->valid) * g.blocks);
	f->erases = calloc(g.blocks, sizeof(*f->erases));
	f->next = malloc(sizeof(*f->next) * g.blocks);
	f->prev = malloc(sizeof(*f->prev) * g.blocks);
	f->state = malloc(g.blocks);
	f->mode = malloc(g.blocks);
	f->buckets = malloc(sizeof(*f->buckets) * f->dies * ((uint64_t)f->ius_per_block + 1));
	f->die = malloc(sizeof(*f->die) * f->dies);
	if (!f->l2p || !f->p2l || !f->valid || !f->erases || !f->next || !f->prev ||
	    !f->state || !f->mode || !f->buckets || !f->die) {
		ftl_destroy(f);
		err_set("vssd: out of memory for %llu bytes", (unsigned long long)bytes);
		return NULL;
	}
	if (!reset_blocks(f, stop)) {
		ftl_destroy(f);
		err_set("vssd: stopped by a signal while the drive was being made");
		return NULL;
	}
	return f;
}

void ftl_destroy(struct ftl *f)
{
	if (!f)
		return;
	free(f->l2p);
	free(f->p2l);
	free(f->valid);
	free(f->erases);
	free(f->next);
	free(f->prev);
	free(f->state);
	free(f->mode);
	free(f->buckets);
	free(f->die);
	free(f);
}

const struct ftl_geometry *ftl_geometry(const struct ftl *f)
{
	return &f->geo;
}

bool ftl_needs_rmw(uint32_t iu_bytes, uint64_t offset, uint64_t length)
{
	if (!iu_bytes || !length)
		return false;
	return offset % iu_bytes != 0 || length % iu_bytes != 0;
}

void ftl_format(struct ftl *f)
{
	for (uint32_t b = 0; b < f->geo.blocks; b++) {
		if (f->state[b] == BLOCK_FREE)
			continue;
		f->erases[b]++;
		f->st.erases++;
		f->st.format_erases++;
	}
	reset_blocks(f, NULL);
	f->st.valid_ius = 0;
}

void ftl_get_stats(const struct ftl *f, struct ftl_stats *out)
{
	struct ftl_stats s = f->st;
	uint64_t erase_sum = 0;

	s.erase_max = 0;
	s.free_blocks = s.open_blocks = s.closed_blocks = s.slc_blocks = 0;
	for (uint32_t b = 0; b < f->geo.blocks; b++) {
		erase_sum += f->erases[b];
		if (f->erases[b] > s.erase_max)
			s.erase_max = f->erases[b];
	}
	for (uint32_t d = 0; d < f->dies; d++) {
		s.free_blocks += f->die[d].free_count;
		s.slc_blocks += f->die[d].slc_used;
		for (int k = 0; k < STREAM_COUNT; k++)
			s.open_blocks += f->die[d].open[k] != FTL_NONE;
	}
	s.closed_blocks = f->geo.blocks - s.free_blocks - s.open_blocks;
	s.erase_mean = (double)erase_sum / f->geo.blocks;
	*out = s;
}

double ftl_waf(const struct ftl *f)
{
	if (!f->st.host_ius_written)
		return 0;
	return (double)f->st.nand_ius_programmed / (double)f->st.host_ius_written;
}

void ftl_reset_waf(struct ftl *f)
{
	f->st.host_ius_written = 0;
	f->st.nand_ius_programmed = 0;
	f->st.slc_ius_programmed = 0;
	f->st.gc_ius_moved = 0;
	f->st.fold_ius_moved = 0;
}

uint64_t ftl_slc_cache_ius(const struct ftl *f)
{
	return (uint64_t)(f->geo.slc_cache_blocks + f->geo.slc_dynamic_blocks) *
	       f->slc_ius_per_block;
}

uint64_t ftl_slc_budget_ius(const struct ftl *f)
{
	return (uint64_t)slc_budget(f) * f->dies * f->slc_ius_per_block;
}

uint32_t ftl_ops_per_iu(const struct ftl *f)
{
	return 1 + f->step_ops;
}
