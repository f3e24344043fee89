/* json_dir.h - private to src/output/json*.c: fio's per-direction objects
 * of a job ("read", "write", "trim", unified_rw_reporting's "mixed"), their
 * latency objects, and the job's latency ranges (json_dir.c). */
#ifndef DRIVEBENCH_JSON_DIR_H
#define DRIVEBENCH_JSON_DIR_H

#include <stdbool.h>

#include "output/json_builder.h"
#include "output/output.h"

/* The percentile list to report, ascending like fio sorts it. */
struct percentile_list {
	double p[PERCENTILE_MAX];
	unsigned nr;
};

/* The job's percentile_list (fio's default without one), ascending. */
void json_percentile_list(const struct job_spec *spec, struct percentile_list *list);
/* {min, max, mean, stddev, N [, percentile] [, bins]} as fio's
 * add_ddir_lat_json writes it; no percentiles when pcts is NULL. */
void json_add_lat(struct json_builder *b, cJSON *parent, const char *name,
		  const struct lat_stat *s, const struct percentile_list *pcts,
		  bool with_bins);
/* One direction's object, named name, of r (ds NULL: all zeros; d DIR_ALL:
 * the mixed direction ds holds); group_agg is the group's bandwidth in
 * bytes/s for bw_agg. */
void json_add_dir(struct json_builder *b, cJSON *job, const char *name,
		  const struct job_result *r, const struct dir_stats *ds,
		  enum io_dir d, double group_agg,
		  const struct percentile_list *pcts, bool json_plus);
/* unified_rw_reporting's "mixed" object, when r's job asks for it. */
void json_add_unified(struct json_builder *b, cJSON *job,
		      const struct job_result *res, unsigned nr,
		      const struct job_result *r, const struct percentile_list *pcts,
		      bool json_plus);
/* latency_ns / latency_us / latency_ms of r. */
void json_add_latency_ranges(struct json_builder *b, cJSON *job,
			     const struct job_result *r);

#endif
