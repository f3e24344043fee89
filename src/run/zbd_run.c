/* zbd_run.c - a zonemode=zbd clone's zones from its device (zbd_run.h). */
#include "run/zbd_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "device/zones.h"
#include "job/pacing.h"
#include "util/error.h"

struct zbd_dev {
	struct zbd b;               /* first: zbd_run_free frees it */
	struct blkzone *zones;
	int fd;
	const char *path;
};

static int dev_reset(void *ctx, const struct blkzone *z)
{
	struct zbd_dev *d = ctx;

	return zones_reset(d->fd, d->path, z->start, z->len);
}

static int dev_finish(void *ctx, const struct blkzone *z)
{
	struct zbd_dev *d = ctx;

	return zones_finish(d->fd, d->path, z->start, z->len);
}

int zbd_run_check(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct zone_limits l;
	bool zbd = pacing_zone_zbd(s);

	if (!w->target->is_block || w->target->is_model) {
		if (zbd)
			return err_set("job '%s': zonemode=zbd needs a zoned block device; "
				       "%s is not one", s->name, w->target->path);
		return 0;
	}
	if (zones_limits(w->target->path, &l))
		return zbd ? err_prefix("job '%s'", s->name) : 0;
	if (zbd && !zones_is_zoned(&l))
		return err_set("job '%s': zonemode=zbd needs a zoned block device; %s is "
			       "not zoned (queue/zoned: %s)", s->name, w->target->path, l.model);
	if (!zbd && zones_is_zoned(&l) && job_spec_writes(s))
		return err_set("job '%s': %s is a zoned block device (%s, %llu zones of "
			       "%llu bytes): writes go only at the zones' write pointers, "
			       "use zonemode=zbd", s->name, w->target->path, l.model,
			       (unsigned long long)l.nr_zones, (unsigned long long)l.zone_size);
	return 0;
}

/* Writes queued deeper than one to a zone stay in order only with the
 * kernel's zone write plugging (Linux 6.10) or mq-deadline's zone write
 * lock before it; on "none" an older kernel may reorder them. */
static int check_depth(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct utsname u;
	unsigned major = 0, minor = 0;
	char sched[64];

	if (w->depth <= 1 || engine_has(w->ops, ENGINE_SYNC) || !job_spec_writes(s))
		return 0;
	if (uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	    (major > 6 || (major == 6 && minor >= 10)))
		return 0;
	if (zones_scheduler(w->target->path, sched, sizeof(sched)) == 0 &&
	    !strcmp(sched, "mq-deadline"))
		return 0;
	return err_set("job '%s': zonemode=zbd with iodepth=%u needs the mq-deadline "
		       "scheduler on Linux before 6.10 (it keeps each zone's writes in "
		       "order; %s's is %s): set queue/scheduler or use iodepth=1",
		       s->name, w->depth, w->target->path, sched[0] ? sched : "unknown");
}

struct zbd *zbd_run_init(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct zbd_dev *d = calloc(1, sizeof(*d));
	struct zone_limits l;
	unsigned nr;
	struct zbd_params p;
	struct zbd_ops ops = { dev_reset, dev_finish, NULL };

	if (!d) {
		err_set("job '%s': out of memory", s->name);
		return NULL;
	}
	d->fd = w->fd;
	d->path = w->target->path;
	ops.ctx = d;
	if (w->fd < 0) {
		err_set("job '%s': zonemode=zbd needs an engine on a file descriptor", s->name);
		free(d);
		return NULL;
	}
	if (check_depth(w)) {
		free(d);
		return NULL;
	}
	if (zones_limits(d->path, &l) ||
	    zones_report(w->fd, d->path, w->range_start, w->range_len, &d->zones, &nr)) {
		err_prefix("job '%s'", s->name);
		free(d);
		return NULL;
	}
	p = (struct zbd_params){
		.random = w->random_offsets,
		.max_open = s->pacing.max_open_zones,
		.dev_max_open = (unsigned)l.max_open,
		.reset_threshold = s->pacing.zone_reset_threshold,
		.reset_frequency = s->pacing.zone_reset_frequency,
	};
	if (zbd_init(&d->b, s->name, d->zones, nr, w->range_start, w->range_len, &p, &ops)) {
		zbd_run_free(&d->b);
		return NULL;
	}
	return &d->b;
}

void zbd_run_free(struct zbd *b)
{
	struct zbd_dev *d = (struct zbd_dev *)b;

	if (!b)
		return;
	zbd_free(b);
	free(d->zones);
	free(d);
}
