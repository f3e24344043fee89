/* suite.h - a suite: an ordered list of steps (data, in suites/NAME.suite),
 * each a workload in fio's option names plus what the step does with it.
 * Parsed by suitefile.c, estimated by plan.c, run by suiterun.c. */
#ifndef DRIVEBENCH_SUITE_H
#define DRIVEBENCH_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job_spec.h"

#define SUITE_NAME_MAX 64
#define SUITE_POINTS_MAX 64

enum step_kind {
	STEP_PURGE,          /* discard the whole target (BLKDISCARD / punch hole; NVMe format if asked) */
	STEP_PRECONDITION,   /* sequential fills, random fill, or sprandom */
	STEP_STEADY,         /* repeat the workload in rounds until steady state */
	STEP_MEASURE,        /* one point */
	STEP_SWEEP,          /* the workload over QD/jobs points */
	STEP_IDLE,           /* a pause */
	STEP_CHECKPOINT,     /* DLIO-style checkpoint passes (workload/checkpoint.h) */
};

enum precondition_mode {
	PRECOND_SEQUENTIAL,  /* capacities x sequential write of the whole target */
	PRECOND_RANDOM,      /* capacities x random write (spec's bs) */
	PRECOND_SPRANDOM,    /* one physical write in regions (sprandom.h) */
};

enum steady_metric { STEADY_IOPS, STEADY_BW, STEADY_LAT_MEAN };

struct sweep_point {
	unsigned iodepth, numjobs;
};

struct suite_step {
	char name[SUITE_NAME_MAX];
	enum step_kind kind;
	struct job_spec spec;          /* the workload; filename set at run time */
	unsigned line;                 /* where the step starts in its file */

	/* precondition */
	enum precondition_mode precondition;
	double capacities;             /* fills (sequential/random), e.g. 2 */
	double op;                     /* sprandom over-provisioning, 0.07 = 7% */
	unsigned regions;              /* sprandom regions */
	uint64_t iu;                   /* sprandom indirection unit (bytes) */

	/* steady (SNIA PTS) */
	enum steady_metric metric;
	unsigned window;               /* rounds in the window, default 5 */
	unsigned max_rounds;           /* give up after this many, default 25 */
	double range_limit;            /* range <= this x mean, default 0.20 */
	double slope_limit;            /* slope excursion <= this x mean, 0.10 */

	/* sweep */
	struct sweep_point points[SUITE_POINTS_MAX];
	unsigned nr_points;
	uint64_t pause_ns;             /* idle after each point (pause = 180s) */

	/* idle */
	uint64_t idle_ns;

	/* purge */
	bool nvme_format;

	/* checkpoint: a built-in model, or checkpoint_size over ranks */
	char checkpoint_model[32];
	uint64_t checkpoint_size;
	unsigned checkpoint_ranks;
	unsigned checkpoint_passes;    /* default 3 */
	unsigned checkpoint_count;     /* per pass; 0 = as many as fit x fill */
	double checkpoint_fill;        /* default 0.9 */
	/* "xfs", "ext4": made on the block device for the step; "" none */
	char checkpoint_fs[8];

	bool record_series;            /* keep the per-interval series (fills) */
};

struct suite {
	char name[SUITE_NAME_MAX];
	char path[JOB_PATH_MAX];
	struct suite_step *steps;
	unsigned nr_steps;
	char description[256];         /* [suite] description (added by the parser) */
};

/* Loads a suite by path, or by name from suites/NAME.suite (looked up in
 * $DRIVEBENCH_SUITES, ./suites, then the directory of the executable's
 * ../suites). Errors name "file:line: ...". */
int suite_load(const char *name_or_path, struct suite *out);
void suite_free(struct suite *s);

const char *step_kind_name(enum step_kind kind);

/* Multiplies every step's runtime, ramp, pause and idle time by factor
 * (0.01 to 100), noting the new times in the step's stored options
 * (suite --time-scale; timescale.c). -1 with err_msg. */
int suite_scale_time(struct suite *s, double factor);

#endif
