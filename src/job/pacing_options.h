/* pacing_options.h - private to src/job/: the option table of the
 * pacing, shape and job-control options (job/pacing.h), included by
 * options.c alone, which lists it among its groups; the setters are
 * pacing_options.c's. */
#ifndef DRIVEBENCH_PACING_OPTIONS_H
#define DRIVEBENCH_PACING_OPTIONS_H

#include <limits.h>

#include "job/option_table.h"
#include "job/values.h"

int pacing_set_startdelay(struct job_spec *spec, const char *value);
int pacing_set_number_ios(struct job_spec *spec, const char *value);
int pacing_set_rate(struct job_spec *spec, const char *value);
int pacing_set_rate_min(struct job_spec *spec, const char *value);
int pacing_set_rate_iops(struct job_spec *spec, const char *value);
int pacing_set_rate_iops_min(struct job_spec *spec, const char *value);
int pacing_set_rate_process(struct job_spec *spec, const char *value);
int pacing_set_thinktime_blocks(struct job_spec *spec, const char *value);
int pacing_set_thinktime_blocks_type(struct job_spec *spec, const char *value);
int pacing_set_latency_percentile(struct job_spec *spec, const char *value);
int pacing_set_flow_watermark(struct job_spec *spec, const char *value);
int pacing_set_submit_mode(struct job_spec *spec, const char *value);
int pacing_set_bsrange(struct job_spec *spec, const char *value);
int pacing_set_rw_sequencer(struct job_spec *spec, const char *value);
int pacing_set_zonemode(struct job_spec *spec, const char *value);
int pacing_set_zone_reset_threshold(struct job_spec *spec, const char *value);
int pacing_set_zone_reset_frequency(struct job_spec *spec, const char *value);
int pacing_zbd_unsupported(struct job_spec *spec, const char *value);
int pacing_set_exit_what(struct job_spec *spec, const char *value);
int pacing_set_wait_for(struct job_spec *spec, const char *value);

/* rw=MODE:N, after the mode is set: a byte offset added after each
 * sequential I/O (negative reads backwards), or for a random mode the
 * number of I/Os per new random offset. modifier NULL = none. */
int pacing_rw_modifier(struct job_spec *spec, const char *modifier);

/* random_distribution=sequence:B1,B2,... (distribution.c hands the list). */
int pacing_sequence_set(struct job_spec *spec, const char *list);

#define PACING_TIME(n, a, f, unit, lo, hi) \
	{ n, a, OPT_TIME, FIELD(pacing.f), lo, hi, unit, NULL, false }

static const struct option_def pacing_option_table[] = {
	FUNC("startdelay", NULL, pacing_set_startdelay),
	UINT("loops", NULL, pacing.loops, 1, LOOPS_LIMIT),
	FUNC("number_ios", NULL, pacing_set_number_ios),
	FUNC("rate", NULL, pacing_set_rate),
	FUNC("rate_min", "ratemin", pacing_set_rate_min),
	FUNC("rate_iops", NULL, pacing_set_rate_iops),
	FUNC("rate_iops_min", NULL, pacing_set_rate_iops_min),
	FUNC("rate_process", NULL, pacing_set_rate_process),
	PACING_TIME("rate_cycle", "ratecycle", rate_cycle_ns, NS_PER_MS, NS_PER_MS, NS_PER_DAY),
	BOOL("rate_ignore_thinktime", pacing.rate_ignore_thinktime),
	PACING_TIME("thinktime", NULL, thinktime_ns, NS_PER_US, 0, TIME_LIMIT),
	PACING_TIME("thinktime_spin", NULL, thinktime_spin_ns, NS_PER_US, 0, TIME_LIMIT),
	FUNC("thinktime_blocks", NULL, pacing_set_thinktime_blocks),
	FUNC("thinktime_blocks_type", NULL, pacing_set_thinktime_blocks_type),
	PACING_TIME("thinktime_iotime", NULL, thinktime_iotime_ns, NS_PER_SEC, 0, TIME_LIMIT),
	PACING_TIME("latency_target", NULL, latency_target_ns, NS_PER_US, 0, TIME_LIMIT),
	PACING_TIME("latency_window", NULL, latency_window_ns, NS_PER_US, 0, TIME_LIMIT),
	FUNC("latency_percentile", NULL, pacing_set_latency_percentile),
	BOOL("latency_run", pacing.latency_run),
	UINT("flow", NULL, pacing.flow, 0, FLOW_WEIGHT_MAX),
	UINT("flow_id", NULL, pacing.flow_id, 0, UINT_MAX),
	PACING_TIME("flow_sleep", NULL, flow_sleep_ns, NS_PER_US, 0, TIME_LIMIT),
	FLAG_FUNC("flow_watermark", NULL, pacing_set_flow_watermark),
	FUNC("io_submit_mode", NULL, pacing_set_submit_mode),
	UINT("iodepth_low", NULL, pacing.iodepth_low, 0, IODEPTH_LIMIT),
	FUNC("bsrange", "blocksize_range", pacing_set_bsrange),
	FUNC("rw_sequencer", NULL, pacing_set_rw_sequencer),
	BOOL("random_sequence_stride", pacing.sequence_stride),
	FUNC("zonemode", NULL, pacing_set_zonemode),
	SIZE("zonesize", NULL, pacing.zonesize, 0, SIZE_LIMIT),
	SIZE("zonerange", NULL, pacing.zonerange, 0, SIZE_LIMIT),
	SIZE("zoneskip", NULL, pacing.zoneskip, 0, SIZE_LIMIT),
	UINT("max_open_zones", NULL, pacing.max_open_zones, 0, UINT_MAX),
	FUNC("zone_reset_threshold", NULL, pacing_set_zone_reset_threshold),
	FUNC("zone_reset_frequency", NULL, pacing_set_zone_reset_frequency),
	FUNC("zonecapacity", NULL, pacing_zbd_unsupported),
	FUNC("job_max_open_zones", NULL, pacing_zbd_unsupported),
	FUNC("read_beyond_wp", NULL, pacing_zbd_unsupported),
	FUNC("ignore_zone_limits", NULL, pacing_zbd_unsupported),
	BOOL("exitall", pacing.exitall),
	BOOL("exitall_on_error", pacing.exitall_on_error),
	FUNC("exit_what", NULL, pacing_set_exit_what),
	FUNC("wait_for", NULL, pacing_set_wait_for),
};

#define pacing_option_group OPTION_GROUP(pacing_option_table)

#endif
