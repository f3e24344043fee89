/* result_pack.h - one job_result as bytes and back, whole: counters,
 * latency summaries with their histograms (only the buckets that hold
 * something), series, drive snapshots, verify failures, clat by priority.
 * What an MPI rank sends rank 0 (record/rank_run.h). fio's steady-state
 * check results stay with the rank that measured them. */
#ifndef DRIVEBENCH_RESULT_PACK_H
#define DRIVEBENCH_RESULT_PACK_H

#include "measure/stats.h"
#include "util/pack.h"

void result_pack(struct pack *p, const struct job_result *r);
/* Fills r (job_result_init'd here) from u, its spec set to spec. 0, or -1
 * with err_msg (short or malformed bytes; r is freed then). */
int result_unpack(struct unpack *u, const struct job_spec *spec, struct job_result *r);

#endif
