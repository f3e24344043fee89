/* loop_log.h - private to src/run/: a clone's fio log files (write_bw_log,
 * write_lat_log, write_iops_log, write_hist_log) as the loop feeds them:
 * one call per completed I/O and one per reap, made only when the job asks
 * for a log (the loop's other path has no call at all). The windows and
 * averages follow fio 3.33's stat.c; the text is output/fio_log.c's. */
#ifndef DRIVEBENCH_LOOP_LOG_H
#define DRIVEBENCH_LOOP_LOG_H

#include <stdint.h>

#include "measure/stats.h"
#include "run/fio_log.h"
#include "job/job_spec.h"

struct loop_log;
struct worker;

/* The log files of a run's clones, opened before the first phase. */
struct run_logs {
	struct fio_log_files files;
	struct loop_log **clones;     /* per clone, NULL for one without logs */
	unsigned nr;
};

/* Opens the files every clone asks for, named as fio names them
 * (NAME_bw.N.log, N the clone's number in the run from 1; NAME_bw.log with
 * per_job_logs=0), through the output gate, and sets each worker's log
 * state (workers[k].log, NULL for a clone without logs). Returns 0, or -1
 * with err_msg (err_refused() for a path the gate refuses). */
int run_logs_open(struct run_logs *logs, struct worker *workers, unsigned nr);
/* Flushes and closes everything. Returns 0 or -1 with err_msg (a write
 * failed). */
int run_logs_close(struct run_logs *logs);

/* A synchronous engine's clone: its I/O has no submission latency (fio
 * records none), so the slat log stays empty, as fio's. */
void loop_log_without_slat(struct loop_log *lg);

/* Hooks of the loop. t_ns: time since the measurement started. */
/* One completed I/O of the measured part (after its latencies were added
 * to the result). */
void loop_log_io(struct loop_log *lg, unsigned dir, uint64_t offset, uint64_t bytes,
		 uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns, uint64_t t_ns);
/* The bandwidth and IOPS samples the clone just took at t_ns: with
 * log_avg_msec they are the bw and iops logs' entries, as in fio, where
 * bwavgtime (iopsavgtime) takes log_avg_msec and each sample is logged. */
void loop_log_rates(struct loop_log *lg, const struct rates_taken *taken, uint64_t t_ns);
/* The clone's loop ended at t_ns: pending averages written, buffers out. */
void loop_log_finish(struct loop_log *lg, uint64_t t_ns);

/* The file name fio gives a log: PREFIX_TYPE.N.log, or PREFIX_TYPE.log
 * without per_job_logs (PREFIX the log's name or the job's). 0, or -1
 * with err_msg when it does not fit. */
int loop_log_path(const struct job_spec *spec, enum job_log_kind kind, const char *type,
		  unsigned number, char *out, size_t len);

#endif
