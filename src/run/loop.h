/* loop.h - private to src/run/: the state of one run of a clone's
 * submit/reap loop, shared by loop.c (the loop and its accounting) and
 * loop_verify.c (verification inside the loop), and loop_run for worker.c.
 * Hot-path functions stay static in loop.c; nothing declared here is one. */
#ifndef DRIVEBENCH_RUN_LOOP_H
#define DRIVEBENCH_RUN_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "run/worker.h"

/* State of one run of the loop, kept on the stack so the hot path touches
 * nothing shared. */
struct loop {
	struct worker *w;
	struct dir_stats *dir;        /* w->result.dir */
	bool measuring;
	bool time_based;
	uint64_t measure_start, ramp_end, deadline;
	uint64_t bytes_target;        /* measured bytes to issue (0 = none) */
	uint64_t bytes_issued;
	uint64_t writes_since_sync;
	uint64_t next_tick, interval;
	struct series_point tick;     /* what completed in this interval */
	unsigned inflight;
	uint64_t now;                 /* clock at the last reap */
	bool issuing;                 /* false once a limit or stop is reached */
	bool abandon;                 /* stop, deadline or error: do not finish
				       * large requests still in flight */
	struct rusage ru_start;
	/* verify: a picked I/O held back (it overlaps I/O in flight, or the
	 * verify_backlog is full) until loop_verify_resume; verify_fatal
	 * stopped every check at a failure */
	bool verify_wait, verify_stopped;
	bool held;
	int held_dir;
	uint64_t held_len, held_offset;
};

/* loop.c */
/* Runs a clone from the start barrier on: the ramp, the measured part and
 * any verify phase. Fills w->result; a failure sets w->run_failed and
 * w->error_text. */
void loop_run(struct worker *w);
/* Reaps at least min (at most max) completions and accounts them. */
int loop_reap(struct loop *l, unsigned min, unsigned max);
/* Waits for everything in flight. */
int loop_drain(struct loop *l);
/* Closes every series interval that ended by now. */
void loop_tick(struct loop *l, uint64_t now);
/* The ramp is over at now: measurement starts (counters reset). */
void loop_start_measuring(struct loop *l, uint64_t now);

/* loop_fileops.c: the loop of a file-ops engine (io/fileops.h), instead
 * of the submit/reap loop */
int loop_fileops_pass(struct loop *l);

/* loop_verify.c: called only when the job has verify on */
int loop_verify_claim(struct loop *l, struct request *rq, int dir,
		      uint64_t off, uint64_t len);
int loop_verify_resume(struct loop *l);
int loop_verify_finish(struct loop *l);
int loop_verify_pass(struct loop *l);
/* A read completed: checks its units and applies verify_fatal and
 * continue_on_error to what it found. */
int loop_verify_checked(struct loop *l, struct io *io);

#endif
