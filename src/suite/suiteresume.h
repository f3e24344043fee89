/* suiteresume.h - what `suite --resume` keeps of an interrupted suite run
 * (for suiterun.c): its done steps, and in every other step the points
 * that are complete in the store (docs/suite-run.md, "Resume"), so the
 * step continues at its first missing point in the same step row. */
#ifndef DRIVEBENCH_SUITERESUME_H
#define DRIVEBENCH_SUITERESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"
#include "suite/suite.h"

struct resume_step {
	int64_t id;               /* the stored step to continue; 0 = begin one */
	bool done;
};

struct suite_resume {
	struct resume_step *steps;   /* by suite step index; calloc'd */
	struct result_record *kept;  /* the run's results after the discards */
	unsigned nr_kept;
};

/* Nothing kept: a new run, or steps[] all to begin. -1 out of memory. */
int suite_resume_init(struct suite_resume *r, unsigned nr_steps);

/* Finds the newest suite run on target_key, refuses a finished one, one
 * of another suite file (suite_key) or one whose step names changed (exit
 * 2: *bad_input), and prepares it: done steps are kept; in the others the
 * points with a failed result are discarded (they are measured again), and
 * a step whose results name no point (an older build's) is discarded
 * whole. A note per resumed step goes to standard error. */
int suite_resume_prepare(struct store *db, const struct suite *s, const char *target,
			 const char *target_key, const char *suite_key, int64_t *run_id,
			 struct suite_resume *r, bool *bad_input);

/* The checks of suite_resume_prepare, changing nothing: 0 with *run_id
 * when the newest suite run on target_key can be resumed, or with
 * *finished when it ended (nothing to resume); -1 with err_msg otherwise
 * (*bad_input: none, another suite file, changed step names: exit 2). */
int suite_resume_check(struct store *db, const struct suite *s, const char *target,
		       const char *target_key, const char *suite_key, int64_t *run_id,
		       bool *finished, bool *bad_input);

/* Whether a point of a step was kept: a complete point is not run again. */
bool suite_resume_kept(const struct suite_resume *r, int64_t step_id, unsigned point);
/* Kept points 0, 1, ... of a step before the first missing one. */
unsigned suite_resume_prefix(const struct suite_resume *r, int64_t step_id);

void suite_resume_free(struct suite_resume *r);

#endif
