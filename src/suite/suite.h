/* suite.h - a suite: an ordered list of steps (data, in suites/NAME.suite),
 * each a workload in fio's option names plus what the step does with it.
 * Parsed by suitefile.c, estimated by plan.c, run by suiterun.c. */
#ifndef DRIVEBENCH_SUITE_H
#define DRIVEBENCH_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job_spec.h"
#include "device/purge.h"

/* The suite `suite` runs and `plan` costs when no --suite is given: one
 * default for both, so a plan describes the run it is asked about. */
#define SUITE_DEFAULT "quick"
#define SUITE_NAME_MAX 64
#define SUITE_POINTS_MAX 64
#define SUITE_STEPS_MAX 1024        /* steps of one suite file, checked as it is read */
#define SUITE_MIXES_MAX 16          /* a steady round's mixes (rwmixread values) */
#define SUITE_BLOCK_SIZES_MAX 16    /* a steady round's block sizes */

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

/* A measure step run at an operating point chosen from an earlier step's
 * QD/jobs points (PTS DIRTH and CBW: the MaxIOPS, MidIOPS and MinIOPS
 * points; operating.c). */
enum operating_point { OPERATING_NONE, OPERATING_MAX, OPERATING_MID, OPERATING_MIN };

struct sweep_point {
	unsigned iodepth, numjobs;
};

struct suite_step {
	char name[SUITE_NAME_MAX];
	enum step_kind kind;
	struct job_spec spec;          /* the workload; filename set at run time */
	unsigned line;                 /* where the step starts in its file */
	/* the test the step belongs to (a PTS test: "iops", "wsat" ...): the
	 * report groups its steps by it, --only/--skip take it; "" none */
	char test[SUITE_NAME_MAX];

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
	/* a round is every point of mixes x block_sizes x points (in that
	 * order, points innermost; an empty list is the spec's one value) and
	 * the figure tracked is that of the point track_* name (PTS IOPS: 4K
	 * at 0% read; steadyround.c) */
	unsigned mixes[SUITE_MIXES_MAX];   /* rwmixread of each */
	unsigned nr_mixes;
	uint64_t block_sizes[SUITE_BLOCK_SIZES_MAX];
	unsigned nr_block_sizes;
	bool has_track_mix, has_track_bs, has_track_point;
	unsigned track_mix;
	uint64_t track_bs;
	struct sweep_point track_point;
	/* > 0: the rounds go on until they wrote this many capacities of the
	 * step's range (PTS WSAT: 4), steady state or not; max_rounds still
	 * bounds them */
	double write_capacities;

	/* sweep (and a steady step's round) */
	struct sweep_point points[SUITE_POINTS_MAX];
	unsigned nr_points;
	uint64_t pause_ns;             /* idle after each point (pause = 180s) */
	/* sweep: the points run this many times over, each a stored point,
	 * a sequential stream of one job going on where the run before it
	 * ended (PTS HIR bursts, XSR minutes); 0 or 1 = once */
	unsigned repeat;
	/* measure: at the operating point chosen from step `from` */
	enum operating_point operating_point;
	char operating_from[SUITE_NAME_MAX];
	uint64_t lat_ceiling_ns;       /* MaxIOPS: mean latency at most this; 0 none */

	/* idle */
	uint64_t idle_ns;

	/* purge: the method (`purge = ...`; `nvme_format = 1` is format) */
	enum purge_method purge;

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
/* The same with `--set` overrides, each "KEY=VALUE" (every step that
 * takes KEY: an fio option every step, a step parameter the steps of the
 * kinds it applies to) or "NAME.KEY=VALUE" (the step NAME, or the steps
 * of the test NAME), as if written last in each step's section. An
 * override no step takes is an error naming it. */
int suite_load_set(const char *name_or_path, const char *const *sets, unsigned nr_sets,
		   struct suite *out);
/* suite_load_set for the target the steps will run on. On a modelled
 * drive (vssd:FILE[@SCALE]) every step runs on ioengine=vssd whatever
 * engine it names (suite_step_spec), so each is checked so, and the
 * options of ioengine=vssd (--set vssd_state=FILE) are the steps'. target
 * NULL or any other target: as suite_load_set. */
int suite_load_on(const char *name_or_path, const char *const *sets, unsigned nr_sets,
		  const char *target, struct suite *out);
/* The vssd_state file the suite's steps name, "" when none does. Steps on
 * a vssd: target share one drive, so they share its file: two different
 * files are refused, naming both steps. 0, or -1 with err_msg. */
int suite_vssd_state(const struct suite *s, const char **state);
void suite_free(struct suite *s);

/* Whether a step answers to name: its own, or its test's (--only/--skip). */
bool suite_step_is(const struct suite_step *st, const char *name);
/* The steps --only and --skip leave (each a NULL-terminated list of step
 * or test names, or NULL), in suite order; every name must be a step or a
 * test of the suite. 0, or -1 with err_msg (none left is an error too). */
int suite_select(const struct suite *s, const char *const *only, const char *const *skip,
		 unsigned *selected, unsigned *nr);
/* Keeps only the steps selected[0..nr) (suite_select's), in that order. */
void suite_keep_steps(struct suite *s, const unsigned *selected, unsigned nr);
/* The points of a steady step's round (mixes x block sizes x points). */
unsigned suite_round_points(const struct suite_step *st);

const char *step_kind_name(enum step_kind kind);

/* Multiplies every step's runtime, ramp, pause and idle time by factor
 * (0.01 to 100), noting the new times in the step's stored options
 * (suite --time-scale; timescale.c). -1 with err_msg. */
int suite_scale_time(struct suite *s, double factor);

#endif
