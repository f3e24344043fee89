/* measure_options.c - the options of struct job_measure: fio's bwavgtime
 * and iopsavgtime (milliseconds, as fio reads them) and drivebench's
 * iodepth_batch_adaptive, with their fio defaults (docs/options.md,
 * docs/measurement.md). */
#include "job/measure_options.h"

#include "job/job_measure.h"
#include "job/job_spec.h"

void job_measure_defaults(struct job_measure *m)
{
	m->bw_avg_ms = 0;       /* not given: job_rate_window_ms */
	m->iops_avg_ms = 0;
	m->batch_adaptive = false;
}

unsigned job_rate_window_ms(const struct job_spec *spec, bool bw)
{
	unsigned given = bw ? spec->measure.bw_avg_ms : spec->measure.iops_avg_ms;
	bool logged = spec->output.log[bw ? JOB_LOG_BW : JOB_LOG_IOPS];

	if (logged && spec->output.log_avg_msec == 0)
		return 0;          /* fio's per_unit_log: a sample per I/O */
	if (given)
		return given;
	return logged ? spec->output.log_avg_msec : AVG_TIME_DEFAULT_MS;
}

const struct option_def measure_options[MEASURE_OPTIONS_NR] = {
	UINT("bwavgtime", NULL, measure.bw_avg_ms, 1, AVG_TIME_MAX_MS),
	UINT("iopsavgtime", NULL, measure.iops_avg_ms, 1, AVG_TIME_MAX_MS),
	BOOL("iodepth_batch_adaptive", measure.batch_adaptive),
};
