/* suite_targets.h - `drivebench suite` on several targets at once (for
 * cmd_suite.c): every target checked before any starts (one drive named
 * twice, the safety gate, what --resume finds), then one child process per
 * target running the suite as a single-target run would, its output under
 * the target's name, a stop forwarded to all, and a summary naming each. */
#ifndef DRIVEBENCH_SUITE_TARGETS_H
#define DRIVEBENCH_SUITE_TARGETS_H

#include "cmd/suite_report.h"
#include "suite/suite.h"
#include "suite/suiterun.h"

struct suite_targets {
	const char *const *targets;
	const char *const *labels;   /* one per target, or NULL: none */
	unsigned nr;                 /* at least 2 */
	/* --report: each target's process tells this one its steps, which
	 * writes the one page of them all (NULL: none) */
	struct suite_report *report;
};

/* Runs s on every target with base's options (the target and label
 * replaced for each). Returns the exit code: 0 when every target's run
 * completed, else the most severe of the targets' (3 refused, 2 bad
 * input, 1 failed or interrupted); nothing starts when a check fails. */
int suite_targets_run(const struct suite *s, const struct suite_options *base,
		      const struct suite_targets *t);

#endif
