/* phase_snapshot.c - drive snapshots (identity + health) around a phase,
 * kept with the first clone's result of each job, so host and NAND
 * writes, wear and the temperature trend can be read per step. A target
 * that cannot be snapshotted (null engine) just has none. */
#include "run/phase_snapshot.h"

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>
#include "device/model_target.h"
#include "device/snapshot.h"
#include "util/error.h"

static char *json_text(cJSON *j)
{
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	return text;
}

/* What the snapshot is of: the modelled drive of a vssd job (its counters
 * are the drive's SMART), else the target when the engine opens one. */
static bool snapshot_path(const struct worker *w, char *path, size_t len)
{
	if (model_target_of_job(w->spec, path, len))
		return true;
	snprintf(path, len, "%s", w->target->path);
	return engine_needs_fd(w->ops);
}

struct drive_snapshot *snapshot_before(const struct worker *w)
{
	struct drive_snapshot *snap;
	char path[JOB_PATH_MAX];

	if (w->clone != 0 || !snapshot_path(w, path, sizeof(path)))
		return NULL;
	snap = calloc(1, sizeof(*snap));
	if (snap && drive_snapshot_take(path, snap)) {
		free(snap);
		snap = NULL;
	}
	err_clear();
	return snap;
}

void snapshot_after(struct worker *w, struct drive_snapshot *before)
{
	struct drive_snapshot *after;
	char saved[1024], path[JOB_PATH_MAX];

	if (!before)
		return;
	/* keep the phase's error message: a snapshot failure is not news */
	snprintf(saved, sizeof(saved), "%s", err_msg());
	after = calloc(1, sizeof(*after));
	w->result.drive_before = json_text(drive_snapshot_json(before));
	snapshot_path(w, path, sizeof(path));
	if (after && drive_snapshot_take(path, after) == 0) {
		w->result.drive_after = json_text(drive_snapshot_json(after));
		w->result.drive_delta = json_text(drive_snapshot_delta_json(before, after));
	}
	err_set("%s", saved);
	free(after);
	free(before);
}
