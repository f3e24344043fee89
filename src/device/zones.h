/* zones.h - a zoned block device's zones (fio's zonemode=zbd): the zone
 * report (BLKREPORTZONE), and zone reset (BLKRESETZONE) and finish
 * (BLKFINISHZONE) on ranges of zones. Offsets and sizes in bytes. */
#ifndef DRIVEBENCH_DEVICE_ZONES_H
#define DRIVEBENCH_DEVICE_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the zone conditions of the kernel's report (linux/blkzoned.h) */
enum zone_cond {
	ZONE_COND_NOT_WP = 0x0, ZONE_COND_EMPTY = 0x1, ZONE_COND_IMP_OPEN = 0x2,
	ZONE_COND_EXP_OPEN = 0x3, ZONE_COND_CLOSED = 0x4, ZONE_COND_READONLY = 0xD,
	ZONE_COND_FULL = 0xE, ZONE_COND_OFFLINE = 0xF
};

struct blkzone {
	uint64_t start, len, cap, wp;  /* cap: usable bytes from start */
	uint8_t cond;                  /* enum zone_cond */
	bool conventional;             /* no write pointer: written anywhere */
};

/* The zones of the device open as fd that overlap [start, start + len)
 * (len 0: to the end), in a malloc'd array the caller frees; their count in
 * *nr. 0, or -1 with err_msg naming path. */
int zones_report(int fd, const char *path, uint64_t start, uint64_t len,
		 struct blkzone **zones, unsigned *nr);

/* BLKRESETZONE / BLKFINISHZONE of the zones in [start, start + len): 0, or
 * -1 with err_msg naming path and the range. */
int zones_reset(int fd, const char *path, uint64_t start, uint64_t len);
int zones_finish(int fd, const char *path, uint64_t start, uint64_t len);

/* What sysfs says of a block device's zones (queue/zoned, nr_zones,
 * chunk_sectors, max_open_zones, max_active_zones). */
struct zone_limits {
	char model[16];             /* "none", "host-managed", "host-aware" */
	uint64_t nr_zones, zone_size, max_open, max_active;
};
/* Reads them for the block device at path: 0 (model "none" when the
 * kernel says nothing), or -1 with err_msg when path is no block device. */
int zones_limits(const char *path, struct zone_limits *l);
/* The active I/O scheduler of the block device at path ("none",
 * "mq-deadline"): 0, or -1 (out "") when sysfs does not say. */
int zones_scheduler(const char *path, char *out, size_t len);
/* True for host-managed and host-aware devices. */
bool zones_is_zoned(const struct zone_limits *l);

/* The condition's name as blkzone prints it ("empty", "imp-open" ...). */
const char *zone_cond_name(unsigned cond);

#endif
