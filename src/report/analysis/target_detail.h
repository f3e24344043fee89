#ifndef DRIVEBENCH_REPORT_TARGET_DETAIL_H
#define DRIVEBENCH_REPORT_TARGET_DETAIL_H

#include <stddef.h>

/* What a run's target was, read from the drive snapshot stored with the
 * run (runs.drive_json): "loop device over /tmp/p.img, 64.0 MiB", "NVMe
 * namespace, 3.84 TB", "file, 1.00 GiB". "" when nothing is stored (an
 * import) or the snapshot is a model's (its file and scale name it). */
void report_target_detail(const char *drive_json, char *buf, size_t len);

/* The path the snapshot was taken of ("vssd:FILE@SCALE" for a job on the
 * vssd engine, whose run stores no target): "" when none is stored. */
void report_target_path(const char *drive_json, char *buf, size_t len);

#endif
