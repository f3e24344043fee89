/* plan.h - what a suite will cost on a drive before anything runs: bytes
 * written and read and the duration of each step, from the capacity and the
 * drive's measured or rated throughput. No I/O. */
#ifndef DRIVEBENCH_PLAN_H
#define DRIVEBENCH_PLAN_H

#include <stdint.h>

#include "suite/suite.h"

struct plan_inputs {
	uint64_t capacity;          /* bytes */
	double write_bps;           /* sequential write throughput, bytes/s */
	double read_bps;            /* sequential read throughput, bytes/s */
	double random_write_bps;    /* 0 = use write_bps */
};

struct plan_step {
	const struct suite_step *step;
	uint64_t bytes_written, bytes_read;
	double seconds;
	char basis[160];            /* how the figure was reached, for the table */
};

/* Fills out[0..s->nr_steps) and the totals. Returns 0 or -1 (err_msg). */
int suite_plan(const struct suite *s, const struct plan_inputs *in,
	       struct plan_step *out, uint64_t *total_written, double *total_seconds);

#endif
