/* rank_metrics.h - --metrics-file on the ranks other than 0 under mpirun:
 * each writes its own file (PATH with %r, or %h and %l, expanded for the
 * rank) with its own figures, as rank 0 writes its own, from what rank 0
 * sends with each job list (run_options.metrics). */
#ifndef DRIVEBENCH_RANK_METRICS_H
#define DRIVEBENCH_RANK_METRICS_H

#include "output/metrics.h"
#include "run/runner.h"
#include "util/pack.h"

struct rank_metrics {
	struct run_metrics_note note;   /* strings owned; path NULL: none */
	struct metrics_state state;
	bool failed;                    /* a write failed: said once */
};

/* Rank 0: the note (NULL: no metrics file) into its job-list message. */
void rank_metrics_pack(struct pack *p, const struct run_metrics_note *note);
/* The other ranks: the note from the message. 0 or -1 with err_msg. */
int rank_metrics_unpack(struct unpack *u, struct rank_metrics *m);
/* Checks this rank's file (metrics_check_path) and sets opt's status
 * callback to write it. 0 or -1 with err_msg. Nothing without a note. */
int rank_metrics_start(struct rank_metrics *m, struct run_options *opt);
/* This rank's final figures of the run. */
void rank_metrics_finish(struct rank_metrics *m, const struct run_output *out);
void rank_metrics_free(struct rank_metrics *m);

#endif
