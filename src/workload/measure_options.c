/* measure_options.c - the options of struct job_measure: fio's bwavgtime
 * and iopsavgtime (milliseconds, as fio reads them) and drivebench's
 * iodepth_batch_adaptive, with their fio defaults (docs/options.md,
 * docs/measurement.md). */
#include "workload/measure_options.h"

#include "workload/job_measure.h"

void job_measure_defaults(struct job_measure *m)
{
	m->bw_avg_ms = AVG_TIME_DEFAULT_MS;
	m->iops_avg_ms = AVG_TIME_DEFAULT_MS;
	m->batch_adaptive = false;
}

const struct option_def measure_options[MEASURE_OPTIONS_NR] = {
	UINT("bwavgtime", NULL, measure.bw_avg_ms, 1, AVG_TIME_MAX_MS),
	UINT("iopsavgtime", NULL, measure.iops_avg_ms, 1, AVG_TIME_MAX_MS),
	BOOL("iodepth_batch_adaptive", measure.batch_adaptive),
};
