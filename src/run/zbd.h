/* zbd.h - fio's zonemode=zbd for a clone: where each write goes on a zoned
 * block device. Writes land at a zone's write pointer; sequential writes
 * fill one zone after another, random writes pick a zone at random and
 * write at its pointer; at most max_open_zones zones are open (written
 * and not full); a zone with less room than the write is finished; zones
 * are reset only by zone_reset_frequency (a full zone, or any zone once
 * zone_reset_threshold of the range is written). A write that meets a
 * full zone without a reset is an error, never a wrap. The zone table is
 * the caller's (a report, or a fake one in the unit tests); resets and
 * finishes go through ops. */
#ifndef DRIVEBENCH_RUN_ZBD_H
#define DRIVEBENCH_RUN_ZBD_H

#include <stdbool.h>
#include <stdint.h>

#include "device/zones.h"

struct zbd_ops {
	int (*reset)(void *ctx, const struct blkzone *z);
	int (*finish)(void *ctx, const struct blkzone *z);
	void *ctx;
};

struct zbd_params {
	bool random;
	unsigned max_open;      /* 0: the device's limit, else every zone */
	unsigned dev_max_open;  /* queue/max_open_zones, 0 = none */
	double reset_threshold; /* 0..1 of the range written */
	double reset_frequency; /* 0 = never reset; else every 1/F writes */
};

struct zbd {
	const char *job;
	struct blkzone *z;         /* the zones of the job's range */
	unsigned nr;
	struct zbd_params p;
	unsigned max_open, nr_open;
	unsigned *open;         /* indices of the open zones */
	unsigned cur;           /* sequential: the zone being filled */
	uint64_t range_bytes, written;  /* capacity, bytes below the pointers */
	uint64_t reset_every, writes_left;
	bool reset_due;
	uint64_t resets, finishes;
	struct zbd_ops ops;
};

/* Takes the zones of [start, start + len), which must begin and end at
 * zone boundaries (zones owned by the caller). 0, or -1 with err_msg
 * naming the job and the option. */
int zbd_init(struct zbd *b, const char *job, struct blkzone *zones, unsigned nr,
	     uint64_t start, uint64_t len, const struct zbd_params *p,
	     const struct zbd_ops *ops);
void zbd_free(struct zbd *b);

/* The offset of the next write of len bytes; pick is the job's random
 * offset (random writes: its zone is the one written). busy: other I/O is
 * in flight, so a reset or finish must wait. 0 (with *off), 1 when it must
 * wait for the I/O in flight, -1 with err_msg. */
int zbd_write(struct zbd *b, uint64_t pick, uint64_t len, bool busy, uint64_t *off);

/* The sequential write restarts at the range's first zone (loops). */
void zbd_restart(struct zbd *b);

#endif
