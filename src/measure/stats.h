/* stats.h - what one job (or a merged group) measured: per direction
 * counters, slat/clat/lat summaries with histograms, and the per-interval
 * series. Definitions are fio's: IOPS = ios / runtime, bandwidth =
 * bytes / runtime, runtime excludes ramp. */
#ifndef DRIVEBENCH_STATS_H
#define DRIVEBENCH_STATS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "measure/depths.h"
#include "measure/hist.h"
#include "measure/rate.h"
#include "job/job_spec.h"

/* One latency kind: count, min, max, sum, sum of squares, histogram. */
struct lat_stat {
	uint64_t n, min, max, sum;
	double sumsq;
	struct hist hist;
};

static inline void lat_add(struct lat_stat *s, uint64_t ns)
{
	s->n++;
	s->sum += ns;
	s->sumsq += (double)ns * (double)ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	hist_add(&s->hist, ns);
}

void lat_stat_init(struct lat_stat *s);          /* min = UINT64_MAX */
double lat_mean(const struct lat_stat *s);       /* 0 when n == 0 */
double lat_stddev(const struct lat_stat *s);     /* sample (n-1), as fio */
void lat_merge(struct lat_stat *dst, const struct lat_stat *src);

struct dir_stats {
	uint64_t ios;            /* completed requests (a chunked request is 1) */
	uint64_t bytes;
	uint64_t errors;         /* failed I/Os, never counted in ios */
	int first_error;         /* -errno of the first failure */
	uint64_t first_error_offset;
	struct lat_stat slat, clat, lat;
};

/* Per-interval sample: what completed in [t_ns - interval, t_ns). */
struct series_point {
	uint64_t t_ns;           /* end of the interval, from measurement start */
	uint64_t ios[DIR_ALL];
	uint64_t bytes[DIR_ALL];
	uint64_t lat_sum_ns[DIR_ALL];    /* sum of total latencies, for means */
};

struct series {
	uint64_t interval_ns;
	struct series_point *points;
	unsigned nr, cap;
};

/* Room for want points in all (allocated now, so the loop never grows it). */
int series_reserve(struct series *s, unsigned want);
int series_append(struct series *s, const struct series_point *p);
/* Halves the points: each pair becomes one point of twice the interval
 * (an odd last point stays, a shorter last interval). What a series does
 * when it reaches its reserved size, so its memory stays bounded. */
void series_coarsen(struct series *s);
/* Adds src into dst point by point, extending dst; the finer of the two
 * is coarsened first when one interval is the other's power-of-two
 * multiple (else an error). */
int series_merge(struct series *dst, const struct series *src);
void series_free(struct series *s);

/* Counts of enum fault_call (io/fault.h, which loop.c checks). */
#define ENGINE_CALL_COUNTS 4
/* The clat of the I/Os issued with one priority (cmdprio, io/cmdprio.h):
 * fio's per-direction "prios". */
struct prio_clat {
	unsigned ioprio;         /* class << 13 | hint << 3 | level */
	struct lat_stat clat;
};

/* The result of one job clone, or of a reporting group after merging. */
struct job_result {
	char name[JOB_NAME_MAX];
	unsigned groupid;
	unsigned clone;          /* numjobs index */
	unsigned nr_merged;      /* clones merged into this result */
	const struct job_spec *spec;
	int error;               /* 0, or -errno that stopped the job */
	bool partial;            /* stopped early (Ctrl-C) */
	uint64_t runtime_ns;     /* measured time, ramp excluded; max on merge */
	uint64_t total_run_ns;   /* the same, summed on merge (fio's job_runtime) */
	uint64_t ramp_ns;        /* ramp actually spent */
	uint64_t start_unix_ms;  /* wall clock at measurement start */
	struct dir_stats dir[DIR_ALL];   /* read, write, trim */
	/* the measured part's syncs (fsync=N, fdatasync=N): fio's "sync" */
	uint64_t sync_ios;
	struct lat_stat sync_lat;
	/* fio's bandwidth (KiB/s) and IOPS samples, every bwavgtime and
	 * iopsavgtime; summed on merge as group_reporting does */
	struct rate_stat bw_stat[DIR_ALL], iops_stat[DIR_ALL];
	struct series series;
	double usr_cpu_s, sys_cpu_s;   /* CPU seconds used by the thread(s) */
	uint64_t ctx_switches;
	uint64_t major_faults, minor_faults;   /* page faults (fio's majf, minf) */
	uint64_t max_buffer_bytes;     /* buffer memory the job held */
	/* the target's drive snapshot (target/snapshot.h) as JSON text, taken
	 * before and after the job's phase, and what changed in between;
	 * NULL when there is none (null engine, later clones of a job) */
	char *drive_before, *drive_after, *drive_delta;
	/* verification (verify/verify.h): units due to be checked, checked and
	 * failed (all counted), whether verify_fatal stopped the check at the
	 * first failure, and the first failures with offset and verdict
	 * (owned, freed with the result) */
	uint64_t verify_units, verify_checked, verify_failed;
	bool verify_stopped;
	struct verify_failure *verify_failures;
	unsigned nr_verify_failures;
	uint64_t verify_seed;    /* the seed the headers carry (verify on) */
	/* what the fault engine injected, by enum fault_kind, and the calls
	 * it saw, by enum fault_call (io/fault.h): the submission pattern */
	uint64_t faults_injected[FAULT_KINDS];
	/* fio's queue-depth distributions over the measured part */
	struct io_depths depths;
	uint64_t engine_calls[ENGINE_CALL_COUNTS];
	/* fio's steady state and the sprandom plan, when the job had them
	 * (measure/check_results.h); owned, NULL without */
	struct check_results *checks;
	/* the queue depth latency_target settled on (fio's latency_depth);
	 * 0 = the job's iodepth (no latency target) */
	unsigned latency_depth;
	/* clat by I/O priority (cmdprio), owned; NULL without cmdprio */
	struct prio_clat *prio_clat[DIR_COUNT];
	unsigned nr_prio_clat[DIR_COUNT];
	/* when the measurement started (CLOCK_MONOTONIC, the one I/O clock),
	 * and when the job's phase began: its workers left the start barrier
	 * (across MPI ranks, the ranks' barrier), on the same clock and on
	 * the wall clock; the ranks' results align on the phase start */
	uint64_t measure_start_ns, phase_start_ns, phase_start_wall_ns;
	/* an MPI run's aggregate (record/rank_merge.h): the ranks merged (0
	 * or 1 = one process), and the first-done figures: from the earliest
	 * start until the first rank finished, and what every rank had done
	 * by then (per direction, at the series' interval) */
	unsigned nr_ranks;
	uint64_t first_done_ns;
	uint64_t first_done_ios[DIR_ALL], first_done_bytes[DIR_ALL];
};

void job_result_init(struct job_result *r, const struct job_spec *spec);
/* Merges src into dst as fio's group_reporting does: counters and
 * histograms add, min/max combine, runtime is the longest, the job
 * runtimes (total_run_ns) and the bandwidth / IOPS samples add up. */
int job_result_merge(struct job_result *dst, const struct job_result *src);
void job_result_free(struct job_result *r);
/* Adds src's clat by priority into dst's (the same ioprio merges). */
int prio_clat_merge(struct job_result *dst, const struct job_result *src);

/* Copies src's drive snapshots where dst has none (strdup). */
int job_result_copy_drive(struct job_result *dst, const struct job_result *src);

/* fio's bandwidth and IOPS samples of one clone (measure/rate.h): both
 * samplers, and when the next one is due. */
struct rate_samples {
	struct rate_sampler bw, iops;
	uint64_t next_ns;        /* the earlier of the two; UINT64_MAX: none */
};

/* Starts r's rate samples at now (windows in ms; none due at or after
 * deadline), emptying its bw_stat and iops_stat. */
void job_result_start_rates(struct job_result *r, struct rate_samples *rs,
			    unsigned bw_ms, unsigned iops_ms, uint64_t now,
			    uint64_t deadline);
/* The samples one call took, per direction; -1: none. */
struct rates_taken {
	int64_t bw[DIR_ALL], iops[DIR_ALL];
};
/* Takes the samples due by now from r's counters (call when now >=
 * rs->next_ns); what it took into *taken when that is not NULL. */
void job_result_sample_rates(struct job_result *r, struct rate_samples *rs,
			     uint64_t now, uint64_t deadline, struct rates_taken *taken);

/* Whether the error that stopped the job is a failed verification (fio's
 * EILSEQ): a result to report, not a failure of the I/O. */
static inline bool result_failed_verify(const struct job_result *r)
{
	return r->error == -EILSEQ || r->error == EILSEQ;
}

/* Figures derived exactly as fio does (0 when runtime is 0). */
double result_iops(const struct job_result *r, enum io_dir d);
double result_bw_bytes(const struct job_result *r, enum io_dir d);

#endif
