/* record_run.h - the one run-and-record path: jobs in, results stored
 * with their run, step (and its kind), point and pass, out. Every command
 * and suite step that runs jobs goes through record_run: drivebench run,
 * gds, checkpoint and each suite step; the producers (suite steps,
 * workload/'s checkpoint and GDS points; the CDN and object-storage
 * workloads are suite steps) only make job lists. */
#ifndef DRIVEBENCH_RECORD_RUN_H
#define DRIVEBENCH_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/stats.h"
#include "output/output.h"
#include "record/rank_run.h"
#include "run/runner.h"
#include "store/record.h"
#include "store/store.h"

struct recorded;

/* Where and how the results go. */
struct record_place {
	struct store *db;            /* NULL: nothing is stored */
	/* the run: *run_id 0 begins it here, from meta (its drive snapshot
	 * from the first result when meta has none), in the same transaction
	 * as the results; end_run ends it there too (a whole `drivebench run`
	 * is stored or none of it) */
	int64_t *run_id;
	const struct run_meta *meta;
	bool end_run;
	/* the step: step_id > 0 holds every result; otherwise one step is
	 * begun with step_name, step_kind and step_idx, or, step_per_group,
	 * one per reporting group ("group N: <first job>", kind "jobs");
	 * steps begun here end "done" or "partial" */
	int64_t step_id;
	const char *step_name, *step_kind;
	unsigned step_idx;
	bool step_per_group;
	/* the result's place in its step (suite --resume keeps points) and
	 * its pass (checkpoints: 1.., 0 = the read-back) */
	bool has_point;
	unsigned point;
	bool has_pass;
	unsigned pass, pass_index;
	/* merge: the entries are one result (a checkpoint's files) named so */
	const char *merged_name;
	/* MPI: [jobs->nr] or NULL: job j runs on rank job_shards[j] % ranks
	 * only (a checkpoint's files, each written by its DLIO rank's MPI
	 * rank), not every job on every rank */
	const unsigned *job_shards;
	/* false: a run stopped before its end (partial, or opt->stop set)
	 * stores nothing and sets interrupted (the suite runs the point
	 * again on resume); true: it is stored as partial */
	bool store_partial;
	/* called with what was reported, before anything is stored (run
	 * prints its outputs first); non-zero stops with err_msg */
	int (*before_store)(void *arg, const struct recorded *r);
	void *arg;
	/* the top level of the fio JSON stored with each result (its
	 * timestamp and disk_util, as `run` printed them); NULL: the
	 * results' first job_start, no disk_util. Stored as json+ always. */
	const struct run_info *info;
};

/* What a record_run made; recorded_free frees it. */
struct recorded {
	struct run_output out;           /* per clone, as run_jobs made it
					  * (MPI: merged over the ranks) */
	struct rank_results ranks;       /* MPI: what each rank measured */
	struct job_result *entries;      /* as reported: per clone or group */
	unsigned nr;                     /* (merged: 1, or 0 when none ran) */
	struct result_record *recs;      /* [nr], as stored (NULL: no db) */
	enum run_failure why;            /* when record_run failed running */
	bool ran;                        /* run_jobs returned */
	bool interrupted;                /* stopped, nothing stored (above) */
	bool stored;
};

/* Runs jobs with opt, reports and stores them at place. 0 when they ran
 * and what was to be stored is (results may carry I/O or verify errors);
 * -1 with err_msg otherwise: r->ran false and r->why when they could not
 * run, else storing failed and nothing of this call is stored. An empty
 * report (stopped before the start) stores nothing but the run of
 * end_run. */
int record_run(const struct job_list *jobs, const struct run_options *opt,
	       const struct record_place *place, struct recorded *r);

void recorded_free(struct recorded *r);

/* What this process measured itself, as reported: r->entries, or under
 * mpirun rank 0's own entries (r->entries are every rank's), as its live
 * status and --metrics-file show them. Free with recorded_own_free. */
struct recorded_own {
	const struct job_result *entries;
	unsigned nr;
	struct job_result *made;   /* the MPI copy, or NULL */
};
int recorded_own(const struct recorded *r, struct recorded_own *own);
void recorded_own_free(struct recorded_own *own);

/* An MPI run's ranks as fio's clients (output/output.h): each rank's own
 * entries, made as the aggregate's are; none for one process. Free with
 * recorded_clients_free. */
struct recorded_clients {
	struct run_client *c;
	struct job_result **entries;   /* [nr]: each c[k].res, to free */
	unsigned nr;
};
int recorded_clients_make(const struct rank_results *ranks, struct recorded_clients *cl);
void recorded_clients_free(struct recorded_clients *cl);

#endif
