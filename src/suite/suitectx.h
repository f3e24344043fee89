/* suitectx.h - what the parts of the suite runner share (not an API): the
 * run's context carried from step to step, progress and log lines
 * (suiteprogress.c), running and storing a step's points (suiterun.c), and
 * the step kinds (suitesteps.c). */
#ifndef DRIVEBENCH_SUITECTX_H
#define DRIVEBENCH_SUITECTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/metrics.h"

#include "run/runner.h"
#include "store/store.h"
#include "suite/suite.h"
#include "suite/suiteresume.h"
#include "suite/suiterun.h"
#include "device/target.h"
#include "job/job_list.h"

/* Everything one suite run carries from step to step. */
struct suite_ctx {
	const struct suite *s;
	const struct suite_options *o;
	struct store *db;
	int64_t run_id;
	char target_key[JOB_PATH_MAX];
	struct target target;
	const char *drive_state;       /* a vssd: target's vssd_state file ("" none; the steps') */
	int exit_code;
	bool interrupted;
	struct suite_resume resume;    /* what a resume kept; nothing for a new run */

	/* progress */
	const unsigned *selected;      /* suite step indexes to run, in order */
	unsigned nr_selected, position;/* position: index into selected */
	const struct suite_step *step;
	uint64_t suite_start_ns, step_start_ns;
	uint64_t step_bytes;           /* stored results' bytes in this step */
	uint64_t step_planned_bytes;   /* size-based step: bytes it will move */
	uint64_t phase_bytes, sample_bytes, sample_ns, last_draw_ns;
	double rate_bps;               /* current bytes/s */
	double work_bytes, work_seconds;  /* finished size-based work, for ETAs */
	/* --metrics-file: the point running (from 1), the last rates, and
	 * the latest drive snapshot stored (owned) */
	unsigned point;
	struct metrics_state metrics;
	struct run_metrics_note metrics_note;   /* the other ranks' (MPI) */
	char *drive, *drive_delta;
};

/* --- suiteprogress.c --- */
/* What a step will take: *seconds for time-based work, *bytes for
 * size-based work (either may be 0). */
void suite_step_estimate(const struct suite_ctx *c, const struct suite_step *st,
			 double *seconds, uint64_t *bytes);
/* A log line of the current step ("[12:00:01] step 3/14 NAME KIND: ..."). */
void suite_log(const struct suite_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The time left of the current step and of the suite; < 0 = unknown. */
void suite_eta(const struct suite_ctx *c, uint64_t now, double *step_left, double *suite_left);
/* The time the selected steps from position `from` on will take; < 0 =
 * unknown. */
double suite_eta_from(const struct suite_ctx *c, unsigned from);
/* Writes --metrics-file from the entries of the point running (or
 * finished); nothing without the option. */
void suite_write_metrics(struct suite_ctx *c, const struct job_result *entries, unsigned nr);
/* Redraws the terminal status line (nothing when not a terminal). */
void suite_draw_status(struct suite_ctx *c, uint64_t now);
/* The runner's progress hook: bytes the running phase has measured. */
void suite_on_progress(void *arg, uint64_t bytes);

/* --- suiterun.c: running and storing points --- */
struct run_options suite_run_options(struct suite_ctx *c);
/* Runs one point's jobs, stores its results under step_id and point in one
 * transaction; *figure (may be NULL) gets the steady metric. */
int suite_run_and_store(struct suite_ctx *c, const struct job_list *jobs,
			int64_t step_id, unsigned point, double *figure);
int suite_run_one(struct suite_ctx *c, const struct job_spec *spec, int64_t step_id,
		  unsigned point, double *figure);
bool suite_point_kept(const struct suite_ctx *c, int64_t step_id, unsigned point);
double suite_kept_figure(const struct suite_ctx *c, int64_t step_id, unsigned point);

/* --- suitecheck.c --- */
/* The safety gate for every write the selected steps make on the target
 * t (probed), judged before any step runs. 0, or -1 with err_msg
 * (err_refused() for a refusal: exit 3). */
int suite_check_writes(const struct suite *s, const unsigned *selected, unsigned nr,
		       const struct suite_options *o, const struct target *t);

/* --- suitesteps.c --- */
/* Runs the current step (c->step) under step_id: 0, or -1 with err_msg
 * and c->exit_code, c->interrupted set. */
int suite_run_step(struct suite_ctx *c, int64_t step_id);
/* The step's workload aimed at the target, its job named NAME + suffix. */
void suite_step_spec(const struct suite_ctx *c, const struct suite_step *st,
		     const char *suffix, struct job_spec *spec);
/* A job's byte range on the target (sets c->exit_code on failure). */
int suite_spec_range(struct suite_ctx *c, const struct job_spec *spec,
		     uint64_t *start, uint64_t *len);
/* Sleeps ns in slices, checking the stop flag between them. */
int suite_idle_for(struct suite_ctx *c, uint64_t ns);

/* --- suitesteady.c: the steady step (SNIA PTS rounds) --- */
int suite_do_steady(struct suite_ctx *c, int64_t step_id);
/* "-round3", "-round3-rd70-bs4096-qd4-j1": round's point k's job suffix. */
void suite_round_suffix(const struct suite_step *st, unsigned round, unsigned k, char *buf,
			size_t len);

/* --- suitesweep.c --- */
/* "-qd4-j1", "-7", "-qd4-j1-7": the point (NULL: none), and the
 * repetition rep when the step repeats. */
void suite_sweep_suffix(const struct suite_step *st, const struct sweep_point *at,
			unsigned rep, char *buf, size_t len);

/* --- suitelogs.c: each job's own log files --- */
/* The logs the step names (write_bw_log=NAME ...) named NAME-JOB after
 * spec's job name (set): no two of a suite's jobs share a log file. */
void suite_name_logs(struct job_spec *spec, const struct job_spec *step);
/* Before the run: a log file two of the selected steps' jobs would share
 * is an error naming both (and the option). */
int suite_check_logs(const struct suite *s, const unsigned *selected, unsigned nr);

/* --- suitesweep.c: measure and sweep steps (points, repeats) --- */
int suite_do_sweep(struct suite_ctx *c, int64_t step_id);

/* --- operating.c: a measure step's operating point --- */
/* The QD/jobs point c->step's operating_point picks from the results its
 * `from` step stored in this run; *detail gets the step detail (JSON)
 * saying which and why. 0, or -1 with err_msg and c->exit_code. */
int suite_operating_point(struct suite_ctx *c, struct sweep_point *point, char **detail);

#endif
