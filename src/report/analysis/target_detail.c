/* A run's target in words, from its stored drive snapshot, so that a
 * report names the device or file each drive was measured on and its size
 * (issue 27.5: a loop device's row said "-"). */
#include "report/analysis/target_detail.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "util/units.h"

static const char *kind_words(const char *kind)
{
	static const struct { const char *kind, *words; } names[] = {
		{ "file", "file" }, { "nvme", "NVMe namespace" },
		{ "loop", "loop device" }, { "zram", "zram device" },
		{ "virtio", "virtio disk" }, { "scsi", "SCSI disk" },
		{ "block", "block device" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(kind, names[i].kind))
			return names[i].words;
	return NULL;
}

void report_target_detail(const char *drive_json, char *buf, size_t len)
{
	cJSON *root, *kind, *size, *backing, *part;
	const char *words;
	char bytes[48] = "";
	int n;

	buf[0] = '\0';
	if (!drive_json || !(root = cJSON_Parse(drive_json)))
		return;
	kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
	words = cJSON_IsString(kind) ? kind_words(kind->valuestring) : NULL;
	if (!words) {   /* a model, or a kind this build does not know */
		cJSON_Delete(root);
		return;
	}
	part = cJSON_GetObjectItemCaseSensitive(root, "partition");
	n = snprintf(buf, len, "%s%s", cJSON_IsTrue(part) ? "partition of a " : "", words);
	backing = cJSON_GetObjectItemCaseSensitive(root, "loop_backing_file");
	if (n >= 0 && (size_t)n < len && cJSON_IsString(backing) && backing->valuestring[0])
		n += snprintf(buf + n, len - (size_t)n, " over %s", backing->valuestring);
	size = cJSON_GetObjectItemCaseSensitive(root, "size_bytes");
	if (n >= 0 && (size_t)n < len && cJSON_IsNumber(size) && size->valuedouble > 0) {
		units_format_bytes((uint64_t)size->valuedouble, UNITS_IEC, 2, bytes, sizeof(bytes));
		snprintf(buf + n, len - (size_t)n, ", %s", bytes);
	}
	cJSON_Delete(root);
}

void report_target_path(const char *drive_json, char *buf, size_t len)
{
	cJSON *root, *path;

	buf[0] = '\0';
	if (!drive_json || !(root = cJSON_Parse(drive_json)))
		return;
	path = cJSON_GetObjectItemCaseSensitive(root, "path");
	if (cJSON_IsString(path))
		snprintf(buf, len, "%s", path->valuestring);
	cJSON_Delete(root);
}
