/* json_fio.c - fio's JSON pieces that are not per direction: its float
 * formatting, iodepth_level / iodepth_submit / iodepth_complete (stat.c
 * show_thread_status_json) and the disk_util array (stat.c
 * json_array_add_disk_util), with fio's key names, its typo
 * "aggr_write_merge" included. */
#include "output/json_fio.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/disk_util.h"

char *json_fio_float(double v, char *out, size_t len)
{
	double back;

	snprintf(out, len, "%1.15g", v);
	back = strtod(out, NULL);
	/* cJSON's own choice (15 digits unless that is more than an ulp off,
	 * then 17), so the numbers are what cJSON wrote before and what the
	 * store and export write */
	if (fabs(back - v) > fmax(fabs(back), fabs(v)) * DBL_EPSILON)
		snprintf(out, len, "%1.17g", v);
	if (!strpbrk(out, ".eEn") && strlen(out) + 3 <= len)
		strcat(out, ".0");
	return out;
}

/* Adds a raw number; returns false when out of memory. */
static bool add_raw(cJSON *obj, const char *name, const char *text)
{
	cJSON *item = cJSON_CreateRaw(text);

	if (!item || !cJSON_AddItemToObject(obj, name, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static bool add_float(cJSON *obj, const char *name, double v)
{
	char text[64];

	return add_raw(obj, name, json_fio_float(isfinite(v) ? v : 0.0, text, sizeof(text)));
}

static bool add_uint(cJSON *obj, const char *name, uint64_t v)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, v);
	return add_raw(obj, name, text);
}

cJSON *json_fio_depths(const struct io_depths *d, enum json_depth_kind kind)
{
	static const char *const level_keys[IO_DEPTH_BUCKETS] = {
		"1", "2", "4", "8", "16", "32", ">=64",
	};
	static const char *const batch_keys[IO_DEPTH_BUCKETS] = {
		"0", "4", "8", "16", "32", "64", ">=64",
	};
	uint64_t level[IO_DEPTH_BUCKETS], submit[IO_DEPTH_BUCKETS];
	uint64_t complete[IO_DEPTH_BUCKETS];
	const uint64_t *counts = kind == JSON_DEPTH_LEVEL ? level :
				 kind == JSON_DEPTH_SUBMIT ? submit : complete;
	const char *const *keys = kind == JSON_DEPTH_LEVEL ? level_keys : batch_keys;
	double pct[IO_DEPTH_BUCKETS];
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	io_depths_buckets(d, level, submit, complete);
	io_depths_percent(counts, pct);
	for (int i = 0; i < IO_DEPTH_BUCKETS; i++)
		if (!add_float(obj, keys[i], pct[i])) {
			cJSON_Delete(obj);
			return NULL;
		}
	return obj;
}

static bool add_device(cJSON *array, const struct disk_util *du, unsigned i)
{
	const struct disk_util_dev *d = &du->dev[i];
	const struct disk_stat *s = &d->delta;
	struct disk_util_figures f;
	cJSON *obj = cJSON_CreateObject();
	bool ok;

	if (!obj || !cJSON_AddItemToArray(array, obj)) {
		cJSON_Delete(obj);
		return false;
	}
	disk_util_figures(du, i, &f);
	ok = cJSON_AddStringToObject(obj, "name", d->name) &&
	     add_uint(obj, "read_ios", s->ios[0]) && add_uint(obj, "write_ios", s->ios[1]) &&
	     add_uint(obj, "read_merges", s->merges[0]) &&
	     add_uint(obj, "write_merges", s->merges[1]) &&
	     add_uint(obj, "read_ticks", s->ticks[0]) &&
	     add_uint(obj, "write_ticks", s->ticks[1]) &&
	     add_uint(obj, "in_queue", s->time_in_queue) && add_float(obj, "util", f.util);
	if (!ok || !f.slavecount)
		return ok;
	return add_uint(obj, "aggr_read_ios", f.agg_ios[0]) &&
	       add_uint(obj, "aggr_write_ios", f.agg_ios[1]) &&
	       add_uint(obj, "aggr_read_merges", f.agg_merges[0]) &&
	       add_uint(obj, "aggr_write_merge", f.agg_merges[1]) &&   /* sic, as fio */
	       add_uint(obj, "aggr_read_ticks", f.agg_ticks[0]) &&
	       add_uint(obj, "aggr_write_ticks", f.agg_ticks[1]) &&
	       add_uint(obj, "aggr_in_queue", f.agg_in_queue) &&
	       add_float(obj, "aggr_util", f.agg_util);
}

cJSON *json_fio_disk_util(const struct disk_util *du)
{
	cJSON *array = cJSON_CreateArray();

	if (!array)
		return NULL;
	for (unsigned i = 0; i < du->nr; i++)
		if (!add_device(array, du, i)) {
			cJSON_Delete(array);
			return NULL;
		}
	return array;
}
