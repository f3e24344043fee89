/* steadystate.h - fio's steady-state detection (steadystate=, ss_dur,
 * ss_interval; fio's steadystate.c): every check interval adds one sample
 * of IOPS, bandwidth (bytes/s) and mean completion latency (ns); once the
 * window of ss_dur / ss_interval samples is full, the tracked one is
 * judged by its least-squares slope or by its largest distance from the
 * mean, against a limit in its own units or in % of the mean. What is
 * reported (fio's JSON "steadystate" object) is a steady_report, kept
 * with the job's result. docs/measurement.md says where fio's test and
 * SNIA PTS's (suite/steady.c) differ. */
#ifndef DRIVEBENCH_STEADYSTATE_H
#define DRIVEBENCH_STEADYSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/checks.h"

struct steady_report {
	enum ss_metric metric;
	bool slope, pct;             /* the criterion's form */
	double limit;
	uint64_t dur_ns, interval_ns, ramp_ns;
	bool attained;
	double criterion;            /* the last judged value (slope or deviation,
				      * in % of the mean when pct) */
	double max_deviation, slope_value;
	unsigned intervals, nr;      /* window length, samples in it */
	uint64_t *iops, *bw, *lat;   /* oldest first; zeros past nr */
};

/* A window for spec's options (ss_dur_ns must be set). -1 with err_msg
 * when out of memory. */
int steady_report_init(struct steady_report *s, const struct job_checks *c);
void steady_report_free(struct steady_report *s);
/* A copy of src in *dst (NULL src: *dst = NULL). -1 when out of memory. */
int steady_report_dup(struct steady_report **dst, const struct steady_report *src);

/* Adds one interval's sample; once the window is full judges it as fio
 * does and returns true when steady state is attained (s->attained). */
bool steady_report_add(struct steady_report *s, uint64_t iops, uint64_t bw, uint64_t lat);

/* The mean of an array over the whole window, zeros included, as fio's
 * steadystate_*_mean (integer division). */
uint64_t steady_report_mean(const struct steady_report *s, const uint64_t *data);

/* fio's "ss" text ("iops:10.000000%", "bw_slope:1048576.000000") and
 * "criterion" text ("0.066622%"). */
void steady_report_ss_text(const struct steady_report *s, char *out, unsigned len);
void steady_report_criterion_text(const struct steady_report *s, char *out, unsigned len);

#endif
