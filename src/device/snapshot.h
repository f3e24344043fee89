/* snapshot.h - a drive snapshot: a target's identity and, for NVMe, its
 * Identify data and health counters at one moment; its JSON and text
 * renderings; and the difference of two snapshots (host vs NAND writes)
 * for a run's before/after record. */
#ifndef DRIVEBENCH_SNAPSHOT_H
#define DRIVEBENCH_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "device/identity.h"
#include "device/nvme.h"

#define SNAPSHOT_MAX_NOTES 6

struct drive_snapshot {
	uint64_t taken_unix_ms;
	struct drive_identity id;
	/* NVMe admin data; each part only when its command succeeded */
	bool have_ctrl, have_ns, have_health, have_ocp;
	uint32_t nsid;                 /* 0 when unknown */
	struct nvme_ctrl_info ctrl;
	struct nvme_ns_info ns;
	struct nvme_health health;
	struct nvme_ocp_smart ocp;
	/* Why a part is missing ("identify (CNS 1): Permission denied") */
	char notes[SNAPSHOT_MAX_NOTES][160];
	unsigned nr_notes;
};

/* Takes a snapshot of path. Never fails for a missing field (it stays
 * unavailable, with a note when the reason is known); returns -1 with
 * err_msg only when path does not exist or is not a file or block device. */
int drive_snapshot_take(const char *path, struct drive_snapshot *s);

/* The snapshot as a JSON object (caller frees with cJSON_Delete); every
 * unavailable field is null; 128-bit counters are exact decimal strings.
 * Returns NULL only when out of memory. docs/info.md lists the keys. */
cJSON *drive_snapshot_json(const struct drive_snapshot *s);

/* Text for `drivebench info`: one "key: value" line per fact,
 * "not available" for the missing ones. */
void drive_snapshot_print(FILE *out, const struct drive_snapshot *s);

/* What happened between two snapshots of the same drive: elapsed ms, host
 * bytes read / written (Health log data units x 512000), NAND bytes read /
 * written (OCP log) and write amplification (NAND / host bytes written);
 * null where either side lacks the counter. NULL only when out of memory. */
cJSON *drive_snapshot_delta_json(const struct drive_snapshot *before,
				 const struct drive_snapshot *after);

#endif
