/* json_fio.h - the parts of fio's JSON beyond the per-direction figures:
 * the version string fio's readers look for, fio's float formatting, the
 * queue-depth distributions and disk_util (see docs/output.md). */
#ifndef DRIVEBENCH_JSON_FIO_H
#define DRIVEBENCH_JSON_FIO_H

#include <stddef.h>

#include "measure/depths.h"
#include "output/output.h"

/* "fio version" (and terse's version field): says it is drivebench. */
#define JSON_FIO_VERSION "fio-3.x-compatible (drivebench " DRIVEBENCH_VERSION ")"

struct cJSON;
struct disk_util;

/* v as JSON text that always reads as a float: the shortest form that
 * round-trips, with ".0" added to an integral value (fio prints "%f"). */
char *json_fio_float(double v, char *out, size_t len);

enum json_depth_kind { JSON_DEPTH_LEVEL, JSON_DEPTH_SUBMIT, JSON_DEPTH_COMPLETE };

/* iodepth_level {"1", "2", "4", ..., ">=64"} or iodepth_submit /
 * iodepth_complete {"0", "4", "8", ..., "64", ">=64"}: percentages as
 * fio's stat_calc_dist. NULL when out of memory. */
struct cJSON *json_fio_depths(const struct io_depths *d, enum json_depth_kind kind);

/* fio's disk_util array: name, read_ios ... util per device, and the
 * aggr_* of the devices below a dm/md device. NULL when out of memory. */
struct cJSON *json_fio_disk_util(const struct disk_util *du);

#endif
