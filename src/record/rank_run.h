/* rank_run.h - run_jobs across the ranks of an MPI run. Rank 0 runs the
 * command; for each job list it sends the list to every rank, each runs it
 * on its own targets (%r, %h, %l, %t in a name: dist/dist.h) with the same
 * phases started at the same barriers, and rank 0 gathers what each
 * measured: one aggregate (record/rank_merge.h) and every rank's own. The
 * other ranks only serve rank 0 (rank_serve) until it ends. One process:
 * run_jobs as it is. A rank that fails ends the run on every rank
 * (ranks_fail), except where every rank failed together (the safety gate). */
#ifndef DRIVEBENCH_RANK_RUN_H
#define DRIVEBENCH_RANK_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/runner.h"
#include "store/host_facts.h"
#include "device/purge.h"

/* What each rank measured, at rank 0 (nr 0: one process). */
struct rank_results {
	unsigned nr;
	struct run_output *per_rank;   /* [nr], each in job order */
	/* [nr]: the rank's wall clock at the first phase's start minus rank
	 * 0's (they left one barrier together): the hosts' clock offsets */
	int64_t *clock_offset_ns;
	struct host_facts *hosts;      /* [nr]: each rank's host */
	int *local_ranks;              /* [nr] */
};

/* shards [jobs->nr]: job j runs on rank shards[j] % ranks only (a
 * checkpoint's files, each written by one rank), and out holds each job
 * once; NULL: every rank runs every job and out holds each merged over the
 * ranks. */
int rank_run_jobs(const struct job_list *jobs, const struct run_options *opt,
		  const unsigned *shards, struct run_output *out, struct rank_results *ranks,
		  enum run_failure *why);
void rank_results_free(struct rank_results *ranks);

/* A command's target named once for every rank (suite TARGET, checkpoint
 * --dir): this rank's expansion into out (ranks_expand); rank 0 then uses
 * out itself, and where a job names out, every other rank names its own
 * expansion of the name. Without escapes out is the name. -1 with
 * err_msg. */
int rank_own_target(const char *name, char *out, size_t len);

/* Purges target (target/purge.h) on every rank, each its own (the name
 * as rank_own_target was given it), after every rank's safety gate passed.
 * 0, or -1 with err_msg naming the failing rank and *exit_code. */
int rank_purge(const char *target, const char *const *destroy_ids, unsigned nr_destroy_ids,
	       struct purge_result *done, int *exit_code);

/* Drops the page cache of every rank's host (target_drop_page_cache), as
 * MLPerf Storage does before a checkpoint's read-back. 0 when every rank
 * dropped it, else -1 with the first failing rank's message. */
int rank_drop_page_cache(void);

/* Rank 0, at the end of the command: the other ranks return from
 * rank_serve. Nothing to do for one process. */
void rank_end(void);

/* The other ranks: serve rank 0's job lists until rank_end. Returns the
 * process exit code. */
int rank_serve(void);

#endif
