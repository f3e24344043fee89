/* phase_snapshot.h - a job's drive snapshots around its phase: taken
 * before by its first clone, and after, with their difference, into the
 * clone's result (drive_before, drive_after, drive_delta). */
#ifndef DRIVEBENCH_RUN_PHASE_SNAPSHOT_H
#define DRIVEBENCH_RUN_PHASE_SNAPSHOT_H

#include "run/worker.h"

struct drive_snapshot;

/* NULL when w is not a job's first clone or its target has no snapshot */
struct drive_snapshot *snapshot_before(const struct worker *w);
/* takes the after snapshot, stores all three in w->result, frees before;
 * err_msg is left as it was */
void snapshot_after(struct worker *w, struct drive_snapshot *before);

#endif
