/* zbd.c - write pointers of a zonemode=zbd clone (zbd.h). */
#include "run/zbd.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static bool is_open(const struct blkzone *z)
{
	return z->cond == ZONE_COND_IMP_OPEN || z->cond == ZONE_COND_EXP_OPEN;
}

static void open_remove(struct zbd *b, unsigned i)
{
	for (unsigned k = 0; k < b->nr_open; k++)
		if (b->open[k] == i) {
			b->open[k] = b->open[--b->nr_open];
			return;
		}
}

int zbd_init(struct zbd *b, const char *job, struct blkzone *zones, unsigned nr,
	     uint64_t start, uint64_t len, const struct zbd_params *p,
	     const struct zbd_ops *ops)
{
	memset(b, 0, sizeof(*b));
	b->job = job;
	b->p = *p;
	b->ops = *ops;
	if (!nr)
		return err_set("job '%s': zonemode=zbd: no zone in the job's range", job);
	if (zones[0].start != start || zones[nr - 1].start + zones[nr - 1].len != start + len)
		return err_set("job '%s': zonemode=zbd: the range [%llu, %llu) does not begin "
			       "and end at zone boundaries (zones of %llu bytes): set offset "
			       "and size to multiples of the zone size", job,
			       (unsigned long long)start, (unsigned long long)(start + len),
			       (unsigned long long)zones[0].len);
	if (p->reset_threshold < 0 || p->reset_threshold > 1)
		return err_set("job '%s': option 'zone_reset_threshold': %g is not in 0..1",
			       job, p->reset_threshold);
	if (p->reset_frequency < 0 || p->reset_frequency > 1)
		return err_set("job '%s': option 'zone_reset_frequency': %g is not in 0..1",
			       job, p->reset_frequency);
	if (p->dev_max_open && p->max_open > p->dev_max_open)
		return err_set("job '%s': option 'max_open_zones': %u is more than the "
			       "device's limit of %u open zones", job, p->max_open,
			       p->dev_max_open);
	b->max_open = p->max_open ? p->max_open : p->dev_max_open ? p->dev_max_open : nr;
	b->open = calloc(nr, sizeof(*b->open));
	if (!b->open)
		return err_set("job '%s': out of memory for the zone table", job);
	b->z = zones;
	b->nr = nr;
	for (unsigned i = 0; i < nr; i++) {
		struct blkzone *z = &zones[i];

		if (z->conventional)
			return err_set("job '%s': zonemode=zbd: zone %u at offset %llu is "
				       "conventional; only zones with write pointers are "
				       "supported", job, i, (unsigned long long)z->start);
		if (z->cond == ZONE_COND_READONLY || z->cond == ZONE_COND_OFFLINE)
			return err_set("job '%s': zonemode=zbd: zone %u at offset %llu is %s",
				       job, i, (unsigned long long)z->start,
				       zone_cond_name(z->cond));
		b->range_bytes += z->cap;
		b->written += z->wp - z->start;
		if (is_open(z))
			b->open[b->nr_open++] = i;
	}
	/* a sequential write starts where the data ends: the first zone of
	 * the range that is not full */
	while (b->cur + 1 < nr && zones[b->cur].wp >= zones[b->cur].start + zones[b->cur].cap)
		b->cur++;
	if (b->nr_open > b->max_open)
		return err_set("job '%s': option 'max_open_zones': %u zones of the job's "
			       "range are open already, more than %u", job, b->nr_open,
			       b->max_open);
	if (p->reset_frequency > 0) {
		b->reset_every = (uint64_t)(1.0 / p->reset_frequency + 0.5);
		if (!b->reset_every)
			b->reset_every = 1;
		b->writes_left = b->reset_every;
	}
	return 0;
}

void zbd_free(struct zbd *b)
{
	free(b->open);
	b->open = NULL;
}

void zbd_restart(struct zbd *b)
{
	b->cur = 0;
}

static int do_reset(struct zbd *b, unsigned i)
{
	struct blkzone *z = &b->z[i];

	if (b->ops.reset(b->ops.ctx, z))
		return -1;
	b->written -= z->wp - z->start;
	z->wp = z->start;
	if (is_open(z))
		open_remove(b, i);
	z->cond = ZONE_COND_EMPTY;
	b->resets++;
	return 0;
}

static int do_finish(struct zbd *b, unsigned i)
{
	struct blkzone *z = &b->z[i];

	if (b->ops.finish(b->ops.ctx, z))
		return -1;
	if (is_open(z))
		open_remove(b, i);
	z->cond = ZONE_COND_FULL;
	b->finishes++;
	return 0;
}

static bool is_full(const struct blkzone *z)
{
	return z->cond == ZONE_COND_FULL || z->wp >= z->start + z->cap;
}

/* A zone that is not open takes an open slot: random writes then go to an
 * open zone instead; -2 when none can be opened. */
static int zone_for_limit(struct zbd *b, unsigned i, uint64_t pick)
{
	if (is_open(&b->z[i]) || b->nr_open < b->max_open)
		return (int)i;
	if (b->p.random && b->nr_open)
		return (int)b->open[(pick >> 12) % b->nr_open];
	return -2;
}

int zbd_write(struct zbd *b, uint64_t pick, uint64_t len, bool busy, uint64_t *off)
{
	unsigned i, tries;
	struct blkzone *z;

	if (b->p.random) {
		uint64_t rel = pick >= b->z[0].start ? pick - b->z[0].start : 0;

		i = (unsigned)(rel / b->z[0].len);
		if (i >= b->nr)
			i = b->nr - 1;
	} else {
		i = b->cur;
	}
	/* zone_reset_threshold: past it, every 1/frequency writes the zone
	 * about to be written is reset first */
	if (b->reset_every && !b->reset_due &&
	    (double)b->written >= b->p.reset_threshold * (double)b->range_bytes &&
	    --b->writes_left == 0) {
		b->reset_due = true;
		b->writes_left = b->reset_every;
	}
	for (tries = 0; tries <= 2 * b->nr; tries++) {
		int k = zone_for_limit(b, i, pick);

		if (k == -2)
			return err_set("job '%s': option 'max_open_zones': %u zones are open "
				       "and zone %u at offset %llu would be one more", b->job,
				       b->nr_open, (unsigned)(b->z[i].start / b->z[i].len),
				       (unsigned long long)b->z[i].start);
		i = (unsigned)k;
		z = &b->z[i];
		if (len > z->cap)
			return err_set("job '%s': zonemode=zbd: a write of %llu bytes is larger "
				       "than a zone's capacity (%llu bytes)", b->job,
				       (unsigned long long)len, (unsigned long long)z->cap);
		if (b->reset_due && z->wp > z->start) {
			if (busy)
				return 1;
			if (do_reset(b, i))
				return -1;
		}
		b->reset_due = false;
		if (!is_full(z) && z->start + z->cap - z->wp < len) {
			/* less room than the write: finish it, as fio does */
			if (busy)
				return 1;
			if (do_finish(b, i))
				return -1;
			i = (i + 1) % b->nr;   /* the next zone takes the write */
			if (!b->p.random)
				b->cur = i;
			continue;
		}
		if (is_full(z)) {
			if (b->reset_every) {
				if (busy)
					return 1;
				if (do_reset(b, i))
					return -1;
			} else if (b->p.random) {
				if (is_open(z))
					open_remove(b, i);
				z->cond = ZONE_COND_FULL;
				i = (i + 1) % b->nr;   /* another zone */
				continue;
			} else {
				return err_set("job '%s': zonemode=zbd: zone %u at offset %llu is "
					       "full and the sequential write would cross it; "
					       "zones are reset only with zone_reset_frequency "
					       "(reset them, or set it)", b->job,
					       (unsigned)(z->start / z->len),
					       (unsigned long long)z->start);
			}
		}
		if (!is_open(z)) {   /* room for it: zone_for_limit above */
			b->open[b->nr_open++] = i;
			z->cond = ZONE_COND_IMP_OPEN;
		}
		*off = z->wp;
		z->wp += len;
		b->written += len;
		if (z->wp >= z->start + z->cap) {
			open_remove(b, i);
			z->cond = ZONE_COND_FULL;
			if (!b->p.random)
				b->cur = (i + 1) % b->nr;
		}
		return 0;
	}
	return err_set("job '%s': zonemode=zbd: every zone of the job's range is full; "
		       "zones are reset only with zone_reset_frequency (reset them, or set it)",
		       b->job);
}
