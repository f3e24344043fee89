/* loop.h - private to src/run/: the state of one run of a clone's
 * submit/reap loop, shared by loop.c (the loop, with its issue decisions
 * and completion accounting), loop_window.c (the measured window),
 * loop_run.c (setup and end), loop_verify.c (verification inside the
 * loop), and loop_run for worker.c. Hot-path functions stay static in
 * loop.c; nothing declared here is one. */
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
	bool sync;                    /* ENGINE_SYNC: stamped before submit */
	uint64_t measure_start, ramp_end;   /* the deadline is w->deadline_ns */
	uint64_t bytes_target;        /* bytes to issue, the ramp's included (0 = none) */
	uint64_t bytes_issued;
	/* fsync=N / fdatasync=N (loop_sync.c): writes left before the next
	 * sync (UINT64_MAX when neither is set; 0 holds new I/O back until
	 * the writes in flight are done and the sync is issued), and the
	 * write count at which it falls */
	uint64_t writes_to_sync, sync_at;
	uint64_t next_tick, interval;
	struct series_point tick;     /* what completed in this interval */
	struct rate_samples rates;    /* fio's bw/iops samples */
	uint64_t next_event;          /* the earlier of next_tick and rates.next_ns */
	unsigned inflight;
	uint64_t now;                 /* clock at the last reap */
	bool issuing;                 /* false once a limit or stop is reached */
	union {
		struct {
			bool abandon;         /* stop, deadline or error: do not finish
					       * large requests still in flight */
			bool logging;         /* log != NULL */
			bool paced;           /* pace != NULL */
			bool unused_;         /* keeps slow's every byte defined */
		};
		uint32_t slow;                /* any: the reap's one test */
	};
	struct rusage ru_start;
	struct loop_log *log;         /* fio logs asked for; NULL = none */
	/* verify: a picked I/O held back (it overlaps I/O in flight, or the
	 * verify_backlog is full) until loop_verify_resume; verify_fatal
	 * stopped every check at a failure */
	bool verify_wait, verify_stopped;
	bool held;
	int held_dir;
	uint64_t held_len, held_offset;
	/* pacing (run/pacing.h): NULL for a job without pacing options; the
	 * direction its rate limiter chose for the next I/O, or -1 */
	struct pacing *pace;
	int pace_dir;
};

/* The runtime's end (UINT64_MAX: none; 0: an exitall stopped the job). */
static inline uint64_t deadline_of(const struct loop *l)
{
	return __atomic_load_n(&l->w->deadline_ns, __ATOMIC_RELAXED);
}

/* loop_run.c */
/* Runs a clone from the start barrier on: the ramp, the measured part and
 * any verify phase. Fills w->result; a failure sets w->run_failed and
 * w->error_text. */
void loop_run(struct worker *w);

/* loop.c */
/* The submit/reap rounds until a limit, a stop or an error; then the
 * end's syncs and verify. Returns 0 or -1 with err_msg. */
int loop_submit_reap(struct loop *l);
/* Reaps at least min (at most max) completions and accounts them. */
int loop_reap(struct loop *l, unsigned min, unsigned max);
/* Waits for everything in flight. */
int loop_drain(struct loop *l);

/* loop_window.c */
/* Closes every series interval that ended by now. */
void loop_tick(struct loop *l, uint64_t now);
/* loop_tick once now has reached l->next_event: everything due by now
 * (series intervals, bandwidth and IOPS samples), then the time of the
 * next one. */
void loop_tick_due(struct loop *l, uint64_t now);
/* Closes the open series interval at end. */
void loop_close_interval(struct loop *l, uint64_t end);
/* Starts the measured part at now: at the ramp's end, or again for the
 * latency target's final run. */
void loop_restart_measurement(struct loop *l, uint64_t now);

/* loop_sync.c: fsync=N, fdatasync=N, end_fsync, fsync_on_close */
/* Starts counting writes and syncs afresh (the measured part begins). */
void loop_sync_start(struct loop *l);
/* The sync that writes_to_sync == 0 waits for, issued once nothing is in
 * flight: fsync or fdatasync, counted and timed in w->result.sync_*.
 * Returns 0 or -1 with err_msg. */
int loop_sync(struct loop *l);
/* end_fsync / fsync_on_close after the last write (not counted, as fio). */
int loop_sync_end(struct loop *l);
/* Before the verify phase reads back: a sync, and the written range
 * dropped from the page cache, as fio's do_verify. */
int loop_sync_before_verify(struct loop *l);

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
