/* ftl_io.c - the host's paths through the FTL: write (die choice, SLC or
 * native stream, forced GC), read (page reads, write-buffer hits) and trim. */
#include "vssd/ftl_internal.h"

#include "util/error.h"

uint32_t ftl_stream_room(const struct ftl *f, uint32_t die, enum stream s)
{
	const struct die_state *ds = &f->die[die];

	if (ds->open[s] == FTL_NONE)
		return 0;
	return block_capacity(f, ds->open[s]) - ds->fill[s];
}

static uint32_t open_block(struct ftl *f, uint32_t die, enum stream s)
{
	struct die_state *ds = &f->die[die];
	uint32_t b = ds->free_head;

	ds->free_head = f->next[b];
	ds->free_count--;
	f->state[b] = BLOCK_OPEN;
	f->mode[b] = s == STREAM_SLC ? FTL_MODE_SLC : FTL_MODE_NATIVE;
	f->valid[b] = 0;
	if (s == STREAM_SLC)
		ds->slc_used++;
	ds->open[s] = b;
	ds->fill[s] = 0;
	return b;
}

bool ftl_place(struct ftl *f, uint32_t die, enum stream s, uint32_t lba, struct ftl_ops *ops)
{
	struct die_state *ds = &f->die[die];
	uint32_t b = ds->open[s];

	if (b == FTL_NONE)
		b = open_block(f, die, s);
	uint32_t i = ds->fill[s]++;
	uint32_t p = b * f->ius_per_block + i;
	f->p2l[p] = lba;
	f->l2p[lba] = p;
	f->valid[b]++;
	f->st.nand_ius_programmed++;

	bool programmed = false;
	if ((i + 1) % f->geo.ius_per_page == 0) {
		op_push(ops, FTL_OP_PROGRAM, f->mode[b], die, b, i / f->geo.ius_per_page);
		f->st.pages_programmed++;
		programmed = true;
	}
	if (ds->fill[s] == block_capacity(f, b)) {
		f->state[b] = BLOCK_CLOSED;
		ds->open[s] = FTL_NONE;
		if (f->mode[b] == FTL_MODE_SLC)
			gc_slc_append(f, b);
		else
			gc_bucket_insert(f, b);
	}
	return programmed;
}

void ftl_invalidate(struct ftl *f, uint32_t p)
{
	uint32_t b = p / f->ius_per_block;
	bool in_bucket = f->state[b] == BLOCK_CLOSED && f->mode[b] == FTL_MODE_NATIVE;

	f->p2l[p] = FTL_NONE;
	if (in_bucket)
		gc_bucket_remove(f, b);
	f->valid[b]--;
	if (in_bucket)
		gc_bucket_insert(f, b);
}

static int check_range(const struct ftl *f, uint64_t first, uint64_t count, const char *what)
{
	if (first > f->geo.logical_ius || count > f->geo.logical_ius - first)
		return err_set("vssd: %s of IUs %llu+%llu past the drive's %llu", what,
			       (unsigned long long)first, (unsigned long long)count,
			       (unsigned long long)f->geo.logical_ius);
	return 0;
}

/* The stream a host IU on die goes to: the SLC cache while the die's share
 * of it has room (an open SLC block, or budget for another one), else the
 * native stream: once the cache is full, writes go straight to native
 * blocks until folding empties it (or, for the dynamic part, until trims
 * give it unwritten capacity again). */
static enum stream host_stream(const struct ftl *f, uint32_t die)
{
	const struct die_state *ds = &f->die[die];

	if (!has_slc_cache(f))
		return STREAM_HOST;
	if (ftl_stream_room(f, die, STREAM_SLC) ||
	    (ds->slc_used < slc_budget(f) && ds->free_count >= 2))
		return STREAM_SLC;
	return STREAM_HOST;
}

/* Writes one IU on the host's current die (or the next that has room). A
 * new host block may not take a die's last free block: GC needs it. */
static int write_one(struct ftl *f, uint32_t lba, struct ftl_ops *ops)
{
	for (uint32_t tries = 0; tries < f->dies; tries++) {
		uint32_t d = f->host_die;
		struct die_state *ds = &f->die[d];

		/* Forced GC keeps the die's room at gc_low and a half blocks
		 * (the mean the trigger below left before): its free blocks
		 * plus what its open host and GC blocks still take. A
		 * step adds a block less its moves, a host IU takes one, so the
		 * steps spread over the host's IUs. Counting free blocks alone,
		 * a step whose moves opened a GC block left the die short again
		 * and the next host IUs each forced one more: a block's steps (7
		 * on the P5336) came in one burst, on every die at once (host
		 * pages stripe round-robin), WAF 20 then 1 (issue 29.2). */
		uint64_t room = (uint64_t)ds->free_count * f->ius_per_block +
				ftl_stream_room(f, d, host_stream(f, d)) +
				ftl_stream_room(f, d, STREAM_GC);
		if (room < (uint64_t)f->geo.gc_low * f->ius_per_block + f->ius_per_block / 2)
			gc_forced_step(f, d, ops);
		enum stream s = host_stream(f, d);
		if (ftl_stream_room(f, d, s) || ds->free_count >= 2) {
			if (f->l2p[lba] != FTL_NONE)
				ftl_invalidate(f, f->l2p[lba]);
			else
				f->st.valid_ius++;
			/* A full page moves the host on to the next die. */
			if (ftl_place(f, d, s, lba, ops))
				f->host_die = (d + 1) % f->dies;
			f->st.host_ius_written++;
			if (s == STREAM_SLC)
				f->st.slc_ius_programmed++;
			return 0;
		}
		f->host_die = (d + 1) % f->dies;
	}
	return err_set("vssd: no die has a free block (GC found nothing to reclaim)");
}

int64_t ftl_write(struct ftl *f, uint64_t first, uint64_t count, struct ftl_ops *ops)
{
	if (!ops || !ops->op)
		return err_set("vssd: write: no op list");
	if (check_range(f, first, count, "write") < 0)
		return -1;
	uint32_t per_iu = ftl_ops_per_iu(f);
	uint64_t done = 0;
	for (; done < count; done++) {
		if (ops_room(ops) < per_iu) {
			if (done == 0)
				return err_set("vssd: write: op list has room for %u ops, one IU may need %u",
					       ops_room(ops), per_iu);
			break;
		}
		if (write_one(f, (uint32_t)(first + done), ops) < 0)
			return done ? (int64_t)done : -1;
	}
	return (int64_t)done;
}

/* Whether physical IU p sits in a page its open block has not programmed
 * yet (the data is still in the write buffer). */
static bool buffered(const struct ftl *f, uint32_t p)
{
	uint32_t b = p / f->ius_per_block;

	if (f->state[b] != BLOCK_OPEN)
		return false;
	const struct die_state *ds = &f->die[block_die(f, b)];
	for (int s = 0; s < STREAM_COUNT; s++)
		if (ds->open[s] == b)
			return (p % f->ius_per_block) / f->geo.ius_per_page ==
			       ds->fill[s] / f->geo.ius_per_page;
	return false;
}

int64_t ftl_read(struct ftl *f, uint64_t first, uint64_t count, struct ftl_ops *ops)
{
	if (!ops || !ops->op)
		return err_set("vssd: read: no op list");
	if (check_range(f, first, count, "read") < 0)
		return -1;
	uint32_t last_block = FTL_NONE, last_page = FTL_NONE;
	uint64_t done = 0;
	for (; done < count; done++) {
		uint32_t p = f->l2p[first + done];
		if (p == FTL_NONE)
			continue;
		uint32_t b = p / f->ius_per_block;
		uint32_t page = (p % f->ius_per_block) / f->geo.ius_per_page;
		if (!buffered(f, p) && (b != last_block || page != last_page)) {
			if (!ops_room(ops)) {
				if (done == 0)
					return err_set("vssd: read: the op list is full");
				break;
			}
			op_push(ops, FTL_OP_READ, f->mode[b], block_die(f, b), b, page);
			f->st.pages_read++;
			last_block = b;
			last_page = page;
		}
		f->st.host_ius_read++;
	}
	return (int64_t)done;
}

int ftl_trim(struct ftl *f, uint64_t first, uint64_t count)
{
	if (check_range(f, first, count, "trim") < 0)
		return -1;
	for (uint64_t lba = first; lba < first + count; lba++) {
		uint32_t p = f->l2p[lba];
		if (p == FTL_NONE)
			continue;
		ftl_invalidate(f, p);
		f->l2p[lba] = FTL_NONE;
		f->st.valid_ius--;
		f->st.host_ius_trimmed++;
	}
	return 0;
}
