/* disk_util.h - fio's disk utilisation (diskutil.c): the block devices
 * under a run's targets (a block device itself, or the disk holding a
 * file's filesystem, a partition counting as its disk), each with the
 * devices below it (slaves/: the disks under a dm or md device, added as
 * entries of their own too), and what /sys/block/DEV/stat counted between
 * the start and the end of the run. */
#ifndef DRIVEBENCH_DISK_UTIL_H
#define DRIVEBENCH_DISK_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#define DISK_UTIL_MAX 32
#define DISK_NAME_MAX 64

/* The fields of /sys/block/DEV/stat fio reads (the first 11). */
struct disk_stat {
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t in_flight, io_ticks, time_in_queue;
};

struct disk_util_dev {
	char name[DISK_NAME_MAX];        /* kernel name: sda, nvme0n1, dm-0 */
	char stat_path[256];             /* /sys/.../DEV/stat */
	unsigned major, minor;
	struct disk_stat start, delta;   /* at the start; end minus start */
	uint64_t start_ms, msec;         /* when read; the span between */
	unsigned slaves[DISK_UTIL_MAX];  /* indices of the devices below it */
	unsigned nr_slaves;
};

struct disk_util {
	struct disk_util_dev dev[DISK_UTIL_MAX];
	unsigned nr;
};

/* fio's per-device figures, with the aggregate of the devices below it
 * (aggr_*: their sums divided by their count, aggr_util the highest
 * util of them), computed from the deltas. */
struct disk_util_figures {
	double util;                     /* 100 * io_ticks / msec, at most 100 */
	unsigned slavecount;
	uint64_t agg_ios[2], agg_merges[2], agg_ticks[2], agg_in_queue;
	double agg_util;
};

/* Adds the device under path (a block device, or the device of the
 * filesystem a file, or the directory it would be created in, lives on)
 * and the devices below it, reading their counters now. A path on no
 * block device (tmpfs, a pseudo filesystem) adds nothing. Returns 0, or
 * -1 when the table is full (nothing is left half added). */
int disk_util_add(struct disk_util *du, const char *path);
/* Reads every device's counters again: delta = now - start. */
void disk_util_finish(struct disk_util *du);
void disk_util_figures(const struct disk_util *du, unsigned i,
		       struct disk_util_figures *out);

/* One line of a stat file; 0, or -1 when it has fewer than 11 fields. */
int disk_stat_parse(const char *line, struct disk_stat *out);

/* For tests: the sysfs tree's root ("/sys"). */
void disk_util_set_sysfs_root(const char *root);

#endif
