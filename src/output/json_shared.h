/* json_shared.h - private to src/output/: what the JSON (json_dir.c) and the
 * terse line (terse.c) compute alike: a group's aggregate bandwidth and
 * fio's latency ranges (the rate samples are measure/rate.h's). */
#ifndef DRIVEBENCH_JSON_SHARED_H
#define DRIVEBENCH_JSON_SHARED_H

#include <stdint.h>

#include "measure/stats.h"

/* The group's aggregate bandwidth in bytes/s for one direction: all bytes
 * of the entries sharing groupid over the longest runtime (fio's rs->agg). */
double group_agg_bytes(const struct job_result *res, unsigned nr, unsigned groupid,
		       enum io_dir d);

/* fio's latency ranges (io_u_lat_n/_u/_m): counts of completions by clat,
 * each histogram bucket at its midpoint. */
#define LAT_RANGES 10
#define LAT_RANGES_MS 12
struct latency_ranges {
	uint64_t ns[LAT_RANGES], us[LAT_RANGES], ms[LAT_RANGES_MS];
	uint64_t total;
};

void latency_ranges_count(const struct job_result *r, struct latency_ranges *out);

/* r's job's unified_rw_reporting (fio's default without a job). */
enum unified_rw result_unified_rw(const struct job_result *r);

/* fio's mixed direction (unified_rw_reporting): every direction's
 * completions in one *out; and their rate samples as a pure sum (fio's
 * sum_thread_stats: sum_stat, pure_sum). */
void result_mixed_direction(const struct job_result *r, struct dir_stats *out);
void result_mixed_rates(const struct job_result *r, struct rate_stat *bw,
			struct rate_stat *iops);

#endif
