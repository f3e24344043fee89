/* disk_util.c - fio's disk utilisation, after its diskutil.c: finds the
 * sysfs directory of the device under a target (/sys/dev/block/MAJ:MIN; a
 * partition counts as its disk, as fio's "../queue" test makes it), the
 * devices below it (slaves/, recursively), and reads each one's stat file
 * at the start and the end of the run. Only reads sysfs. */
#include "device/disk_util.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static char sysfs_root[PATH_MAX] = "/sys";

void disk_util_set_sysfs_root(const char *root)
{
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root ? root : "/sys");
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int disk_stat_parse(const char *line, struct disk_stat *s)
{
	unsigned long long v[11];

	if (sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		   &v[9], &v[10]) != 11)
		return -1;
	s->ios[0] = v[0];
	s->merges[0] = v[1];
	s->sectors[0] = v[2];
	s->ticks[0] = v[3];
	s->ios[1] = v[4];
	s->merges[1] = v[5];
	s->sectors[1] = v[6];
	s->ticks[1] = v[7];
	s->in_flight = v[8];
	s->io_ticks = v[9];
	s->time_in_queue = v[10];
	return 0;
}

static int read_line(const char *path, char *line, size_t len)
{
	FILE *f = fopen(path, "r");
	char *got;

	if (!f)
		return -1;
	got = fgets(line, (int)len, f);
	fclose(f);
	return got ? 0 : -1;
}

static int read_stat(const char *path, struct disk_stat *s)
{
	char line[512];

	memset(s, 0, sizeof(*s));
	return read_line(path, line, sizeof(line)) ? -1 : disk_stat_parse(line, s);
}

/* The device's sysfs directory, its disk's for a partition. */
static int device_dir(const char *link, char *dir, size_t len)
{
	char resolved[PATH_MAX], probe[PATH_MAX + 16];
	struct stat st;

	if (!realpath(link, resolved))
		return -1;
	snprintf(probe, sizeof(probe), "%s/partition", resolved);
	if (stat(probe, &st) == 0) {
		char *parent = dirname(resolved);

		memmove(resolved, parent, strlen(parent) + 1);
	}
	if (strlen(resolved) >= len)
		return -1;
	memcpy(dir, resolved, strlen(resolved) + 1);
	return 0;
}

static int add_dir(struct disk_util *du, const char *dir, unsigned depth);

/* The devices below dir (dm's and md's slaves/), each added as well. */
static void add_slaves(struct disk_util *du, unsigned master, const char *dir,
		       unsigned depth)
{
	char path[PATH_MAX + 300], slave[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		int idx;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/slaves/%s", dir, e->d_name);
		if (device_dir(path, slave, sizeof(slave)))
			continue;
		idx = add_dir(du, slave, depth + 1);
		if (idx < 0 || (unsigned)idx == master)
			continue;
		for (unsigned i = 0; i < du->dev[master].nr_slaves; i++)
			if (du->dev[master].slaves[i] == (unsigned)idx)
				idx = -1;
		if (idx >= 0 && du->dev[master].nr_slaves < DISK_UTIL_MAX)
			du->dev[master].slaves[du->dev[master].nr_slaves++] = (unsigned)idx;
	}
	closedir(d);
}

/* Adds the device of sysfs directory dir (once: fio keys on the name).
 * Returns its index or -1. */
static int add_dir(struct disk_util *du, const char *dir, unsigned depth)
{
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	struct disk_util_dev *dev;
	char path[PATH_MAX + 16], line[64];
	unsigned index;

	for (unsigned i = 0; i < du->nr; i++)
		if (!strcmp(du->dev[i].name, name))
			return (int)i;
	if (du->nr == DISK_UTIL_MAX || depth > 8 || strlen(name) >= DISK_NAME_MAX ||
	    strlen(dir) + 6 > sizeof(du->dev[0].stat_path))
		return -1;
	index = du->nr;
	dev = &du->dev[index];
	memset(dev, 0, sizeof(*dev));
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	snprintf(dev->stat_path, sizeof(dev->stat_path), "%s/stat", dir);
	snprintf(path, sizeof(path), "%s/dev", dir);
	if (read_line(path, line, sizeof(line)) == 0 &&
	    sscanf(line, "%u:%u", &dev->major, &dev->minor) != 2)
		dev->major = dev->minor = 0;
	if (read_stat(dev->stat_path, &dev->start))
		return -1;
	dev->start_ms = now_ms();
	du->nr++;
	add_slaves(du, index, dir, depth);
	return (int)index;
}

int disk_util_add(struct disk_util *du, const char *path)
{
	char link[PATH_MAX + 64], dir[PATH_MAX], copy[PATH_MAX];
	struct stat st;
	unsigned maj, min;

	if (stat(path, &st)) {
		/* a file still to be created: the directory it goes in */
		snprintf(copy, sizeof(copy), "%s", path);
		if (stat(dirname(copy), &st))
			return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		maj = major(st.st_rdev);
		min = minor(st.st_rdev);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		return 0;
	} else {
		maj = major(st.st_dev);
		min = minor(st.st_dev);
	}
	for (unsigned i = 0; i < du->nr; i++)
		if (du->dev[i].major == maj && du->dev[i].minor == min)
			return 0;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs_root, maj, min);
	if (device_dir(link, dir, sizeof(dir)))
		return 0;   /* no block device under it (tmpfs, overlay ...) */
	return add_dir(du, dir, 0) < 0 ? -1 : 0;
}

void disk_util_finish(struct disk_util *du)
{
	uint64_t now = now_ms();

	for (unsigned i = 0; i < du->nr; i++) {
		struct disk_util_dev *d = &du->dev[i];
		struct disk_stat end;

		if (read_stat(d->stat_path, &end))
			end = d->start;
		/* fio adds end - start per counter (wrapping like its sums) */
		for (int k = 0; k < 2; k++) {
			d->delta.ios[k] = end.ios[k] - d->start.ios[k];
			d->delta.merges[k] = end.merges[k] - d->start.merges[k];
			d->delta.sectors[k] = end.sectors[k] - d->start.sectors[k];
			d->delta.ticks[k] = end.ticks[k] - d->start.ticks[k];
		}
		d->delta.in_flight = end.in_flight;
		d->delta.io_ticks = end.io_ticks - d->start.io_ticks;
		d->delta.time_in_queue = end.time_in_queue - d->start.time_in_queue;
		d->msec = now - d->start_ms;
	}
}

static double util_of(const struct disk_util_dev *d)
{
	double util = d->msec ? 100.0 * (double)d->delta.io_ticks / (double)d->msec : 0.0;

	return util > 100.0 ? 100.0 : util;
}

void disk_util_figures(const struct disk_util *du, unsigned i,
		       struct disk_util_figures *out)
{
	const struct disk_util_dev *d = &du->dev[i];

	memset(out, 0, sizeof(*out));
	out->util = util_of(d);
	for (unsigned s = 0; s < d->nr_slaves; s++) {
		const struct disk_util_dev *sl = &du->dev[d->slaves[s]];
		double util = sl->msec ? 100.0 * (double)sl->delta.io_ticks /
			(double)sl->msec : 0.0;

		for (int k = 0; k < 2; k++) {
			out->agg_ios[k] += sl->delta.ios[k];
			out->agg_merges[k] += sl->delta.merges[k];
			out->agg_ticks[k] += sl->delta.ticks[k];
		}
		out->agg_in_queue += sl->delta.time_in_queue;
		/* the system's utilisation is its busiest component's */
		if (util > out->agg_util)
			out->agg_util = util;
		out->slavecount++;
	}
	if (out->agg_util > 100.0)
		out->agg_util = 100.0;
	if (!out->slavecount)
		return;
	for (int k = 0; k < 2; k++) {
		out->agg_ios[k] /= out->slavecount;
		out->agg_merges[k] /= out->slavecount;
		out->agg_ticks[k] /= out->slavecount;
	}
	out->agg_in_queue /= out->slavecount;
}
