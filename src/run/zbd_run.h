/* zbd_run.h - private to src/run/: a clone's zonemode=zbd state from its
 * device (the zone report, sysfs limits, the reset and finish ioctls), and
 * the rule that a zoned device is written only under zonemode=zbd. */
#ifndef DRIVEBENCH_RUN_ZBD_RUN_H
#define DRIVEBENCH_RUN_ZBD_RUN_H

#include "run/worker.h"
#include "run/zbd.h"

/* After the target is open: a write job on a zoned block device without
 * zonemode=zbd, or zonemode=zbd on anything else, is an error naming
 * both. 0, or -1 with err_msg. */
int zbd_run_check(struct worker *w);

/* The zone state of a zonemode=zbd clone (NULL with err_msg on error). */
struct zbd *zbd_run_init(struct worker *w);
void zbd_run_free(struct zbd *b);

#endif
