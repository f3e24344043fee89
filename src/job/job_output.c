/* job_output.c - the log options of a job (fio's write_bw_log,
 * write_lat_log, write_iops_log, write_hist_log, log_avg_msec,
 * log_hist_msec, log_hist_coarseness, log_max_value, log_offset, log_prio,
 * per_job_logs), their fio defaults, and the mark that separates a job's
 * global options from its own. The logs themselves are run/loop_log.c's
 * and output/fio_log.c's. */
#include "job/job_output.h"

#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/job_output_table.h"

void job_output_defaults(struct job_output *o)
{
	memset(o, 0, sizeof(*o));
	o->per_job_logs = true;
	o->disk_util = true;
}

void job_output_mark_global(struct job_spec *spec)
{
	spec->output.global_text_len = strnlen(spec->options_text,
					       sizeof(spec->options_text));
	/* the engine options so far are [global]'s too (engine_opts.h) */
	spec->eng.nr_global_engine_options = spec->eng.nr_engine_options;
}

bool job_output_logs(const struct job_output *o)
{
	for (int k = 0; k < JOB_LOG_KINDS; k++)
		if (o->log[k])
			return true;
	return false;
}

/* write_<kind>_log[=NAME]: a bare flag (or an empty NAME) names the files
 * after the job, as fio's make_log_name does. */
static int set_log(struct job_spec *spec, enum job_log_kind kind, const char *value)
{
	char *name = spec->output.log_name[kind];
	size_t len = value ? strlen(value) : 0;

	if (len >= JOB_LOG_NAME_MAX)
		return err_set("log name longer than %d characters", JOB_LOG_NAME_MAX - 1);
	memcpy(name, value ? value : "", len + 1);
	spec->output.log[kind] = true;
	return 0;
}

static int set_bw_log(struct job_spec *spec, const char *value)
{
	return set_log(spec, JOB_LOG_BW, value);
}

static int set_lat_log(struct job_spec *spec, const char *value)
{
	return set_log(spec, JOB_LOG_LAT, value);
}

static int set_iops_log(struct job_spec *spec, const char *value)
{
	return set_log(spec, JOB_LOG_IOPS, value);
}

static int set_hist_log(struct job_spec *spec, const char *value)
{
	return set_log(spec, JOB_LOG_HIST, value);
}

const struct option_def job_output_table[] = {
	FLAG_FUNC("write_bw_log", NULL, set_bw_log),
	FLAG_FUNC("write_lat_log", NULL, set_lat_log),
	FLAG_FUNC("write_iops_log", NULL, set_iops_log),
	FLAG_FUNC("write_hist_log", NULL, set_hist_log),
	UINT("log_avg_msec", NULL, output.log_avg_msec, 0, LOG_MSEC_LIMIT),
	UINT("log_hist_msec", NULL, output.log_hist_msec, 0, LOG_MSEC_LIMIT),
	UINT("log_hist_coarseness", NULL, output.log_hist_coarseness, 0,
	     LOG_HIST_COARSENESS_MAX),
	BOOL("log_max_value", output.log_max_value),
	BOOL("log_offset", output.log_offset),
	BOOL("log_prio", output.log_prio),
	BOOL("per_job_logs", output.per_job_logs),
	BOOL("disk_util", output.disk_util),
};
