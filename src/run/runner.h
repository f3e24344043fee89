/* runner.h - runs a list of jobs: expands numjobs into worker threads,
 * honours stonewall phases and reporting groups, checks buffer memory up
 * front, and returns one result per job clone. */
#ifndef DRIVEBENCH_RUNNER_H
#define DRIVEBENCH_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "measure/stats.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/job_list.h"

/* What the status callback sees (run/live_status.h). */
struct run_status {
	const struct run_output *live;   /* every clone started so far */
	unsigned running;                /* of those, the ones still running */
	uint64_t elapsed_ns;             /* since the run began */
	uint64_t eta_ns;                 /* time left; UINT64_MAX = unknown */
	double fraction;                 /* the part done of the current phase */
};

/* What a metrics file says beside the figures (output/metrics.h's
 * context, as rank 0 sends it to the other ranks). */
struct run_metrics_note {
	const char *path;              /* as given: %r %h %l expand per rank */
	uint64_t interval_ns;
	const char *command, *step;    /* step: NULL outside a suite */
	unsigned step_index, nr_steps, point, nr_points;
};

struct run_options {
	uint64_t max_buffer_mem;              /* 0 = a quarter of RAM */
	const volatile sig_atomic_t *stop;    /* set asynchronously to stop */
	/* --destroy-data IDs: consent to write over these devices or files
	 * (target/safety.h); a write to any other target holding data is
	 * refused before anything is opened for writing */
	const char *const *destroy_ids;
	unsigned nr_destroy_ids;
	/* optional: called about once a second from the runner's thread while
	 * a phase's workers run, with the bytes (read + write) the phase has
	 * measured so far (the count restarts at the end of a ramp and at
	 * each new phase); NULL = none */
	void (*progress)(void *arg, uint64_t bytes);
	void *progress_arg;
	/* optional: called every status_tick_ns from the runner's thread
	 * while a phase's workers run, with the results so far (copies; the
	 * workers never wait for it); NULL or 0 = none */
	uint64_t status_tick_ns;
	void (*status)(void *arg, const struct run_status *st);
	void *status_arg;
	/* --metrics-file under mpirun: what every other rank writes its own
	 * file with (record/rank_run.c); the runner only carries it. NULL:
	 * no metrics file */
	const struct run_metrics_note *metrics;
	/* the run's verify seed for jobs that name none (MPI: rank 0's, so
	 * every rank's blocks carry the one seed that is stored); false: drawn
	 * at random */
	bool has_verify_seed;
	uint64_t verify_seed;
};

/* Why run_jobs failed: the exit-code class. */
enum run_failure {
	RUN_FAILED_INPUT,     /* bad target, range, alignment, memory (exit 2) */
	RUN_FAILED_UNSAFE,    /* refused by the safety gate (exit 3) */
	RUN_FAILED_RUNTIME,   /* engine, fsync or range-guard failure (exit 1) */
};

/* The command's exit code for a failure of that class (util/error.h). */
static inline int run_failure_exit_code(enum run_failure why)
{
	return why == RUN_FAILED_UNSAFE ? EXIT_UNSAFE :
	       why == RUN_FAILED_INPUT ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
}

struct run_output {
	struct job_result *results;   /* one per clone, in job order */
	unsigned nr;
	bool partial;                 /* stopped by *stop before the end */
	/* MPI: run_jobs failed at a collective check (the safety gate, the
	 * targets' setup) where every rank failed with the same message */
	bool failed_together;
};

/* Runs every job. Returns 0 when all ran (results may still carry I/O
 * errors), -1 with err_msg and *why when they could not start or run. */
int run_jobs(const struct job_list *jobs, const struct run_options *opt,
	     struct run_output *out, enum run_failure *why);

void run_output_free(struct run_output *out);

/* The entries to report: one per clone, except that the clones of a
 * reporting group whose jobs set group_reporting merge into one (named
 * after the group's first job), as fio reports them. Caller frees each
 * entry (job_result_free) and the array. */
int run_output_for_report(const struct run_output *out,
			  struct job_result **entries, unsigned *nr);

/* Default for max_buffer_mem: a quarter of physical memory. */
uint64_t run_default_buffer_limit(void);

/* clock_now_ns(), the one clock every I/O timestamp uses, is in
 * util/clock.h (included above). */

#endif
