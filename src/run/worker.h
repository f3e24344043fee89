/* worker.h - one job clone on one thread: its buffers, engine, offset and
 * block-size generators, and the submit/reap loop that measures it. */
#ifndef DRIVEBENCH_WORKER_H
#define DRIVEBENCH_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/engine.h"
#include "run/buffers.h"
#include "measure/stats.h"
#include "device/target.h"
#include "verify/verify.h"
#include "job/offsets.h"
#include "job/random.h"
#include "run/block_map.h"

/* A request larger than the chunk size is served as a stream of chunks on
 * one I/O slot; its latency runs from the first chunk's start to the last
 * chunk's completion. Short transfers continue the same way. */
struct request {
	uint64_t start_ns, issue_ns;  /* of the first chunk */
	uint64_t next_offset;         /* next chunk's offset */
	uint64_t remaining;           /* bytes not yet submitted */
	uint64_t total;               /* the request's size */
	bool active;                  /* a multi-chunk request is in progress */
	/* verify on: the whole request's range and direction while its slot
	 * is in use (writes never overlap I/O in flight), whether it is a
	 * read of the verify phase or backlog (its units counted as due when
	 * issued), and its write sequence number */
	bool busy;
	uint8_t dir;
	bool verify_read;
	uint64_t span_offset, span_len;
	uint64_t verify_seq;
};

struct loop_log;
struct jobctl;
struct shape;

struct worker {
	const struct job_spec *spec;
	unsigned clone;
	unsigned job_index;           /* the spec's index in the run's job list */
	const struct target *target;
	const volatile sig_atomic_t *stop;
	pthread_barrier_t *start_barrier;
	/* MPI: after start_barrier, the barrier the phase's ranks release
	 * together (run/runner.c); NULL in one process */
	pthread_barrier_t *go_barrier;
	bool *abort_start;            /* set by any worker whose setup failed */

	int fd;
	uint64_t range_start, range_len;  /* the job's byte range */
	/* a clone with several files, or a file-ops engine (run/files.h):
	 * each I/O takes its file and offset there; NULL for one file */
	struct worker_files *files;
	struct engine engine;
	const struct engine_ops *ops;
	struct io *ios;
	struct request *requests;     /* one per I/O slot */
	struct io **free_ios;
	unsigned nr_free, depth;
	void *buffers;
	uint32_t buf_size;
	/* what writes carry (buffers.h); for dedupe_global the runner hands
	 * over the run's data keys and this clone's index among them */
	struct buffers bufs;
	const struct buffer_keys *dedupe_keys;
	unsigned dedupe_index;
	/* page cache (pagecache.h): drop the range again when the offsets
	 * wrap; a failed drop was reported */
	bool invalidate_on_wrap, cache_warned;

	struct rng rng_mix, rng_bs;
	struct offset_gen offsets;
	struct bs_picker bs[DIR_ALL];
	uint64_t align;               /* random offsets are multiples of this */
	bool random_offsets;          /* job_spec_random(), looked up once */
	struct block_map map;         /* random with varying sizes (block_map.h) */
	uint64_t seq_pos[DIR_ALL];    /* next sequential offset, range-relative */

	/* fault hook for tests of the range guard: added to every new
	 * offset; nothing but tests sets it */
	uint64_t test_offset_skew;

	/* the end of the measured run (runtime), read each round; another
	 * clone's exitall moves it to 0 (atomic, run/jobctl.c) */
	uint64_t deadline_ns;
	/* startdelay, wait_for, exitall and flows (run/jobctl.h); NULL when
	 * no job of the run uses them */
	struct jobctl *ctl;
	uint64_t flow_counter;        /* this clone's share of its flow's count */
	/* offsets and directions chosen by run/shape.c (rw=...:N, sequence,
	 * strided zones, trimwrite, bsrange); NULL = the plain path */
	struct shape *shape;
	/* prep_new leaves the plain path: verifying, a shape or several
	 * files (one branch) */
	bool special_prep;

	/* data verification (verify/verify.h); verifying is the one branch
	 * the hot path takes when it is off */
	bool verifying;
	uint64_t verify_seed;         /* set by the runner before setup */
	struct verify_ctx verify;

	struct job_result result;
	/* for the live status (run/live_status.c): the measured bytes the
	 * loop means to issue (0 = unknown) and whether the loop is over;
	 * written by the worker, read by the runner's thread (atomic) */
	uint64_t live_bytes_target;
	bool live_done;
	/* a consistent copy for the live status (live_status.c): the runner's
	 * thread points live_dest at its copy and sets live_state to
	 * LIVE_ASKED; the loop, between two rounds, copies its result there */
	struct job_result *live_dest;
	int live_state;
	struct loop_log *log;         /* fio log files (loop_log.h); NULL = none */
	bool setup_failed;            /* before the loop: bad input or target */
	bool setup_refused;           /* ... refused by a write gate */
	bool run_failed;              /* in the loop: engine, fsync, range guard */
	char error_text[1024];        /* err_msg of a failure on this thread */
};

/* Prepares everything that can fail before the timed loop (open, buffers,
 * engine, generators). On failure sets setup_failed and error_text. */
int worker_setup(struct worker *w);
/* The thread body: waits on the start barrier, runs the loop. */
void *worker_main(void *arg);
void worker_teardown(struct worker *w);

/* Bytes of I/O buffer a clone of spec holds: iodepth slots of the largest
 * request, or of the chunk size when requests are larger. */
uint64_t worker_buffer_bytes(const struct job_spec *spec);

/* Series points reserved per clone: runtime / series_interval + 2 for a job
 * with a runtime, else SERIES_POINTS_UNTIMED, at most SERIES_POINTS_MAX;
 * a series that fills up coarsens (twice the interval, half the points),
 * so it never grows past this. */
#define SERIES_POINTS_UNTIMED 4096ull
#define SERIES_POINTS_MAX (1ull << 28)
uint64_t worker_series_points(const struct job_spec *spec);
/* What a clone's result holds for the whole run: its worker (counters and
 * the six latency histograms) and its series. */
uint64_t worker_result_bytes(const struct job_spec *spec);

/* The direction of the clone's next I/O from its rw: a mixed job draws
 * read or write by rwmixread; trim and trimwrite jobs trim (run/shape.c
 * turns trimwrite's trims into the writes after them). Inline: the loop
 * calls it for every I/O. */
static inline int worker_pick_dir(struct worker *w)
{
	switch (w->spec->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return DIR_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return DIR_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return DIR_TRIM;
	default:
		return rng_below(&w->rng_mix, 100) < w->spec->rwmixread ? DIR_READ : DIR_WRITE;
	}
}

#endif
