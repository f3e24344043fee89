/* zones.c - the zone report and zone management ioctls of a zoned block
 * device (linux/blkzoned.h). The kernel reports in 512-byte sectors. */
#include "device/zones.h"

#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "util/error.h"

#define REPORT_BATCH 256u

int zones_report(int fd, const char *path, uint64_t start, uint64_t len,
		 struct blkzone **zones, unsigned *nr)
{
	size_t room = sizeof(struct blk_zone_report) + REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = malloc(room);
	struct blkzone *out = NULL;
	unsigned n = 0, cap = 0;
	uint64_t sector = start / 512, end = len ? (start + len) / 512 : UINT64_MAX;

	*zones = NULL;
	*nr = 0;
	if (!rep)
		return err_set("%s: out of memory for the zone report", path);
	while (sector < end) {
		memset(rep, 0, room);
		rep->sector = sector;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
			int e = errno;

			free(rep);
			free(out);
			return err_set("%s: zone report (BLKREPORTZONE) failed: %s%s", path,
				       strerror(e), e == ENOTTY || e == EINVAL ?
				       " (not a zoned block device)" : "");
		}
		if (!rep->nr_zones)
			break;
		for (unsigned i = 0; i < rep->nr_zones; i++) {
			const struct blk_zone *z = &rep->zones[i];
			struct blkzone *o;

			if (z->start >= end)
				break;
			if (n == cap) {
				struct blkzone *grown = realloc(out, (cap ? cap * 2 : 64) * sizeof(*out));

				if (!grown) {
					free(rep);
					free(out);
					return err_set("%s: out of memory for the zone report", path);
				}
				out = grown;
				cap = cap ? cap * 2 : 64;
			}
			o = &out[n++];
			o->start = z->start * 512;
			o->len = z->len * 512;
			o->cap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? z->capacity * 512 : o->len;
			o->wp = z->wp * 512;
			o->cond = z->cond;
			o->conventional = z->type == BLK_ZONE_TYPE_CONVENTIONAL;
			sector = z->start + z->len;
		}
	}
	free(rep);
	*zones = out;
	*nr = n;
	return 0;
}

static int zone_op(int fd, const char *path, unsigned long op, const char *name,
		   uint64_t start, uint64_t len)
{
	struct blk_zone_range r = { .sector = start / 512, .nr_sectors = len / 512 };

	if (ioctl(fd, op, &r) < 0)
		return err_set("%s: zone %s of [%llu, %llu) failed: %s", path, name,
			       (unsigned long long)start, (unsigned long long)(start + len),
			       strerror(errno));
	return 0;
}

int zones_reset(int fd, const char *path, uint64_t start, uint64_t len)
{
	return zone_op(fd, path, BLKRESETZONE, "reset (BLKRESETZONE)", start, len);
}

int zones_finish(int fd, const char *path, uint64_t start, uint64_t len)
{
	return zone_op(fd, path, BLKFINISHZONE, "finish (BLKFINISHZONE)", start, len);
}

const char *zone_cond_name(unsigned cond)
{
	switch (cond) {
	case ZONE_COND_NOT_WP: return "not-wp";
	case ZONE_COND_EMPTY: return "empty";
	case ZONE_COND_IMP_OPEN: return "imp-open";
	case ZONE_COND_EXP_OPEN: return "exp-open";
	case ZONE_COND_CLOSED: return "closed";
	case ZONE_COND_READONLY: return "read-only";
	case ZONE_COND_FULL: return "full";
	case ZONE_COND_OFFLINE: return "offline";
	default: return "unknown";
	}
}

static void read_queue(unsigned maj, unsigned min, const char *name, char *out, size_t len)
{
	char path[128];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s", maj, min, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, (int)len, f))
		out[0] = '\0';
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

static uint64_t queue_u64(unsigned maj, unsigned min, const char *name)
{
	char text[64];

	read_queue(maj, min, name, text, sizeof(text));
	return strtoull(text, NULL, 10);
}

int zones_limits(const char *path, struct zone_limits *l)
{
	struct stat st;
	unsigned maj, min;

	memset(l, 0, sizeof(*l));
	snprintf(l->model, sizeof(l->model), "none");
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return err_set("%s: not a block device", path);
	maj = major(st.st_rdev);
	min = minor(st.st_rdev);
	read_queue(maj, min, "zoned", l->model, sizeof(l->model));
	if (!l->model[0])
		snprintf(l->model, sizeof(l->model), "none");
	l->nr_zones = queue_u64(maj, min, "nr_zones");
	l->zone_size = queue_u64(maj, min, "chunk_sectors") * 512;
	l->max_open = queue_u64(maj, min, "max_open_zones");
	l->max_active = queue_u64(maj, min, "max_active_zones");
	return 0;
}

bool zones_is_zoned(const struct zone_limits *l)
{
	return !strcmp(l->model, "host-managed") || !strcmp(l->model, "host-aware");
}

int zones_scheduler(const char *path, char *out, size_t len)
{
	struct stat st;
	char text[256], *open_b, *close_b;

	out[0] = '\0';
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return -1;
	read_queue(major(st.st_rdev), minor(st.st_rdev), "scheduler", text, sizeof(text));
	/* "[mq-deadline] none" names the active one in brackets */
	open_b = strchr(text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (open_b && close_b) {
		*close_b = '\0';
		snprintf(out, len, "%s", open_b + 1);
	} else {
		snprintf(out, len, "%s", text);
	}
	return out[0] ? 0 : -1;
}
