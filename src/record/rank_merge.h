/* rank_merge.h - an MPI run's results as one: the same job measured on
 * every rank merges into one result (counters and latency histograms
 * added bucket by bucket, exactly), over the union of the ranks'
 * intervals (earliest start to latest stop, the "last done" figures), with
 * the "first done" figures beside it (until the first rank finished), as
 * IOR and elbencho report a stonewalled run. */
#ifndef DRIVEBENCH_RANK_MERGE_H
#define DRIVEBENCH_RANK_MERGE_H

#include "measure/stats.h"

/* Merges r[1..n) into r[0], each result of one rank (its start and stop
 * taken from its phase start, the ranks' common barrier). */
int rank_merge_results(struct job_result *r, const struct job_result *const *others,
		       unsigned n_others);

/* What one rank's results of a phase span: from its earliest start to its
 * latest stop (ns), and the bytes they moved (MLPerf Storage's per-rank
 * checkpoint duration and size). */
void rank_span(const struct job_result *results, unsigned nr, uint64_t *ns, uint64_t *bytes);

#endif
