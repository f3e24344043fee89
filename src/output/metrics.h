/* metrics.h - live metrics for Prometheus: the OpenMetrics text format,
 * written atomically (a temporary name in the same folder, then rename)
 * for node_exporter's textfile collector. docs/output.md lists the series. */
#ifndef DRIVEBENCH_METRICS_H
#define DRIVEBENCH_METRICS_H

#include <stdint.h>

#include "measure/stats.h"

/* What a metrics file says beside the jobs' figures. */
struct metrics_context {
	const char *command;          /* "run", "suite", "checkpoint" */
	const char *step;             /* the step's name; NULL outside a suite */
	unsigned step_index, nr_steps;  /* 1-based; 0 = none */
	unsigned point, nr_points;    /* 1-based; 0 = none */
	double progress;              /* 0 to 1: the part done of the step or run */
	double eta_s;                 /* < 0: unknown */
	/* the drive snapshot's JSON (device/snapshot.h) and the delta, as
	 * stored; NULL: none known */
	const char *drive, *drive_delta;
};

/* The counts of the last two writes, per entry and direction, and when
 * the jobs had them (their measurement's start plus runtime, on the
 * monotonic clock): the rates are over the last interval, from the last
 * write, or from the one before when the last is under half interval_ns
 * old (a run's final write just after a status write). */
struct metrics_base {
	uint64_t at_ns;   /* 0: none */
	uint64_t (*ios)[DIR_ALL], (*bytes)[DIR_ALL];
};
struct metrics_state {
	uint64_t interval_ns;          /* how often the file is written */
	unsigned nr;
	struct metrics_base base[2];   /* [0] the last write's, [1] the one before */
};

/* Writes res[0, nr) (the entries to report) to path; now_ns is the
 * monotonic clock (clock_now_ns), the counts' time for entries without a
 * measurement start. 0 or -1 with err_msg naming path. */
int metrics_write(const char *path, const struct job_result *res, unsigned nr,
		  const struct metrics_context *ctx, struct metrics_state *st,
		  uint64_t now_ns);

void metrics_state_free(struct metrics_state *st);
/* A new run (a suite's point, a checkpoint) starts its counts again: the
 * next write's rates are its averages so far. */
static inline void metrics_state_restart(struct metrics_state *st)
{
	st->base[0].at_ns = st->base[1].at_ns = 0;
}

/* Before the run: whether path's folder takes the temporary file (a
 * long run must not find out at its first write). 0 or -1 with err_msg. */
int metrics_check_path(const char *path);

/* Before the run: path is not the file another option names (what, e.g.
 * "--output"; other NULL: none), which the rename would replace under it.
 * 0 or -1 with err_msg naming both. */
int metrics_check_other(const char *path, const char *what, const char *other);

#endif
