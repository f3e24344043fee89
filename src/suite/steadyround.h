/* steadyround.h - a steady step's round (steadyround.c): the points of
 * mixes x block sizes x QD/jobs points that make one round (SNIA PTS: the
 * IOPS test's 7 x 8 matrix, DIRTH's thread count x queue depth), the one
 * whose figure is tracked, and each point's workload. */
#ifndef DRIVEBENCH_STEADYROUND_H
#define DRIVEBENCH_STEADYROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "suite/suite.h"

/* One point of a round; a field the step does not vary is its spec's. */
struct round_point {
	bool has_mix, has_bs, has_qd;
	unsigned mix;                /* rwmixread */
	uint64_t bs;
	unsigned iodepth, numjobs;
};

/* Checks a steady step's round lists against its workload: mixes need a
 * mixed rw, block_sizes exclude bssplit, each list of more than one value
 * names its tracked value (track_mix, track_bs, track_point) and a
 * tracked value is one of its list's; write_capacities needs a workload
 * that only writes.
 * -1 with err_msg (no prefix). */
int steady_round_check(const struct suite_step *st);

/* Point k (0 .. suite_round_points - 1) of a round: mixes outermost,
 * then block sizes, QD/jobs points innermost. */
struct round_point steady_round_point(const struct suite_step *st, unsigned k);
/* The index of the tracked point in a round. */
unsigned steady_round_tracked(const struct suite_step *st);
/* Applies point k to spec (rwmixread, bs, iodepth, numjobs) and notes the
 * values in its stored options, so that each result says what ran. -1
 * with err_msg when the options do not fit. */
int steady_round_apply(const struct suite_step *st, unsigned k, struct job_spec *spec);
/* Appends "key=value" to a spec's stored options (the last value wins). */
int suite_spec_note(struct job_spec *spec, const char *key, const char *value);
/* Sets a point's iodepth and numjobs and notes both in the stored options
 * (what the result's "job options" say, and fio-plot reads). */
int suite_spec_qd(struct job_spec *spec, unsigned iodepth, unsigned numjobs);

#endif
