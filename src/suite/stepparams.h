/* stepparams.h - private to src/suite/: the step parameters of a suite
 * file (stepparams.c), for suitefile.c. */
#ifndef DRIVEBENCH_STEPPARAMS_H
#define DRIVEBENCH_STEPPARAMS_H

#include <stdbool.h>

#include "suite/suite.h"

/* A step's parameters before its section is read (docs/suites.md). */
void step_parameter_defaults(struct suite_step *step);
/* Where a step's iodepths and numjobs lists are collected (SUITE_POINTS_MAX
 * each) for the caller to expand. */
struct step_lists {
	unsigned *iodepths, *nr_iodepths, *jobs, *nr_jobs;
};

/* One step parameter (not an fio option): the one table of them. */
struct step_parameter {
	const char *key;
	unsigned kinds;              /* the step kinds it applies to, bit per kind */
	/* sets it from value (NULL for a bare key): 0, or -1 with err_msg
	 * giving the value and its range; NULL for "step" (the kind) */
	int (*set)(struct suite_step *step, struct step_lists *lists, const char *value);
	bool with_iodepths;          /* a parameter only in a step with iodepths */
};

/* The parameter named key, NULL when key is an fio option (numjobs is a
 * parameter only in a step with iodepths). */
const struct step_parameter *step_parameter_find(const char *key, bool has_iodepths);
/* Adds the point iodepth/numjobs, held to those options' ranges. */
int step_point_add(struct suite_step *step, unsigned iodepth, unsigned numjobs);

#endif
