/* stepparams.h - private to src/suite/: the step parameters of a suite
 * file (stepparams.c), for suitefile.c. */
#ifndef DRIVEBENCH_STEPPARAMS_H
#define DRIVEBENCH_STEPPARAMS_H

#include "suite/suite.h"

/* A step's parameters before its section is read (docs/suites.md). */
void step_parameter_defaults(struct suite_step *step);
/* Sets parameter key (a step parameter, not an fio option) from value
 * (NULL for a bare key); iodepths and numjobs lists are collected in the
 * arrays (SUITE_POINTS_MAX each) for the caller to expand. Returns 0, or
 * -1 with err_msg giving the value and its range. */
int step_parameter_set(struct suite_step *step, const char *key, const char *v,
		       unsigned *iodepths, unsigned *nr_iodepths, unsigned *jobs,
		       unsigned *nr_jobs);
/* Adds the point iodepth/numjobs, held to those options' ranges. */
int step_point_add(struct suite_step *step, unsigned iodepth, unsigned numjobs);

#endif
