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
	/* bwavgtime, iopsavgtime; 0 = not given: fio's default, which a
	 * bw (iops) log changes (job_rate_window_ms) */
	unsigned bw_avg_ms;            /* bwavgtime: bandwidth sample window */
	unsigned iops_avg_ms;          /* iopsavgtime: IOPS sample window */
	bool batch_adaptive;           /* iodepth_batch_adaptive=1 */
};

void job_measure_defaults(struct job_measure *m);

struct job_spec;
/* The window of the job's bandwidth (bw = true) or IOPS samples, as fio
 * sets it up (init.c): bwavgtime when given, else log_avg_msec when the
 * job writes that log, else 500 ms. 0: the job writes that log per I/O
 * (log_avg_msec=0), and fio then takes one sample per I/O instead. */
unsigned job_rate_window_ms(const struct job_spec *spec, bool bw);

#endif
