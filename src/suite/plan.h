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
	bool purge_instant;         /* a file or model target: no discard to wait for */
};

struct plan_step {
	const struct suite_step *step;
	uint64_t bytes_written, bytes_read;
	double seconds;
	/* the least it takes: a steady step (without write_capacities)
	 * steady after its first window of rounds; else seconds */
	double least_seconds;
	char basis[160];            /* how the figure was reached, for the table */
};

/* Fills out[0..s->nr_steps) and the totals. Returns 0 or -1 (err_msg). */
int suite_plan(const struct suite *s, const struct plan_inputs *in,
	       struct plan_step *out, uint64_t *total_written, double *total_seconds);

/* Fixed estimates for a purge (a discard of the whole device) and for an
 * NVMe format, in seconds. */
#define PLAN_PURGE_SECONDS 60.0
#define PLAN_FORMAT_SECONDS 300.0

/* The suite's full fills (sequential and random precondition steps) against
 * one sprandom pass per fill (each step's op, regions and iu). */
struct plan_fill_saving {
	unsigned nr_fills;            /* 0: the suite has no full fill */
	uint64_t fill_bytes, sprandom_bytes;
	double fill_seconds, sprandom_seconds;
};

/* steps is suite_plan's output for the same suite and inputs. 0 or -1. */
int plan_sprandom_saving(const struct suite *s, const struct plan_inputs *in,
			 const struct plan_step *steps, struct plan_fill_saving *out);

#endif
