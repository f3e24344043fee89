/* suiterun.h - runs a suite on a target, unattended: every step through
 * the one runner (run/runner.h), each point's results and drive snapshots
 * stored as it completes, progress on a terminal, and resume after any
 * interruption (kill -9, power loss) at the first missing point of the
 * last run on that target; a resumed run stays one run in the store. */
#ifndef DRIVEBENCH_SUITERUN_H
#define DRIVEBENCH_SUITERUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "suite/suite.h"

/* What a suite run tells after each step it completes (`suite --report`
 * rewrites its page from it). */
struct suite_step_done {
	int64_t run_id;
	unsigned done, nr;                  /* step `done` of the nr selected completed */
	const char *next;                   /* the next step's name; NULL after the last */
	double eta_s;                       /* the suite's time left; < 0 = unknown */
};

struct suite_options {
	const char *target;                 /* file or block device */
	const char *db_path;                /* required: resume lives there */
	const char *label;                  /* drive label ("" = none) */
	bool resume;
	const char *const *only;            /* step names; NULL-terminated or NULL */
	const char *const *skip;
	const char *const *destroy_ids;     /* --destroy-data consent */
	unsigned nr_destroy_ids;
	uint64_t max_buffer_mem;
	const volatile sig_atomic_t *stop;
	bool progress_tty;                  /* redraw a status line, else log lines */
	const char *command;                /* the command line, for the store (or NULL) */
	int64_t *run_id;                    /* NULL, or gets the run's id once known */
	/* --metrics-file (output/metrics.h): written every metrics_ns while
	 * a point runs and after each point; NULL = none */
	const char *metrics_file;
	uint64_t metrics_ns;
	const char *command_name;           /* the metrics' command label; NULL: "suite" */
	/* called after each step is stored as done (NULL = none); what it
	 * fails to do is its own to say: the suite goes on */
	void (*step_done)(void *arg, const struct suite_step_done *d);
	void *step_done_arg;
};

/* Returns 0 when every selected step completed, -1 with err_msg otherwise;
 * *exit_code gets the process exit code to use (2 bad input, 3 unsafe,
 * 1 run failure or interrupted). */
int suite_run(const struct suite *s, const struct suite_options *o, int *exit_code);

/* What suite_run checks before it changes anything, and the safety gate
 * for every write of the selected steps on o->target, all without writing
 * to the target: the steps selected, the target probed and fit for them,
 * the database opened (and migrated), and for o->resume the run to
 * continue. Returns 0 when suite_run may start, 1 for a resume whose last
 * run on the target finished (nothing to resume), or -1 with err_msg and
 * *exit_code (2 bad input, 3 refused by the gate). A suite on several
 * targets checks them all so before any starts. */
int suite_check(const struct suite *s, const struct suite_options *o, int *exit_code);

/* For `suite --resume` without --suite: the suite file recorded with the
 * last suite run on target in db_path. Returns 0 with path filled, or -1
 * with err_msg when there is no such run (exit 2). */
int suite_resume_lookup(const char *db_path, const char *target, char *path,
			size_t len);

/* The key a target is stored and found under: its real path when it
 * resolves, else the path as given. */
void suite_target_key(const char *target, char *key, size_t len);

#endif
