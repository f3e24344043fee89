/* job_measure.h - the job options that decide how drivebench measures
 * rather than what it does: fio's bandwidth and IOPS sampling windows
 * (bwavgtime, iopsavgtime) and drivebench's own adaptive submission
 * batching (iodepth_batch_adaptive, off by default so the submission
 * pattern is fio's). The table is in measure_options.c. */
#ifndef DRIVEBENCH_JOB_MEASURE_H
#define DRIVEBENCH_JOB_MEASURE_H

#include <stdbool.h>

/* fio's defaults: 500 ms windows */
#define AVG_TIME_DEFAULT_MS 500u
#define AVG_TIME_MAX_MS (24u * 3600u * 1000u)   /* one day */

struct job_measure {
	unsigned bw_avg_ms;            /* bwavgtime: bandwidth sample window */
	unsigned iops_avg_ms;          /* iopsavgtime: IOPS sample window */
	bool batch_adaptive;           /* iodepth_batch_adaptive=1 */
};

void job_measure_defaults(struct job_measure *m);

#endif
