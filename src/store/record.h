/* record.h - one stored result, the shape the database keeps and the report
 * reads: fio's per-direction figures (as fio JSON defines them), latency
 * summaries, percentiles, histogram bins, the per-interval series and the
 * drive snapshots. Made from a measured job_result or from imported fio
 * JSON, so both kinds of result compare alike. */
#ifndef DRIVEBENCH_RECORD_H
#define DRIVEBENCH_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/stats.h"
#include "verify/verify.h"

#define RECORD_PCT_MAX 64

struct lat_summary {
	uint64_t n, min, max;          /* ns */
	double mean, stddev;           /* ns */
};

struct pct_value {
	double pct;                    /* 99.99 */
	uint64_t value_ns;
};

struct bin {
	uint64_t value_ns;             /* bucket value, as fio's json+ bins */
	uint64_t count;
};

struct dir_record {
	uint64_t ios, bytes, errors;
	int first_error;               /* (v6) positive errno of the first, 0 = none */
	uint64_t first_error_offset;
	uint64_t runtime_ms;           /* fio's per-direction runtime */
	double iops, bw_bytes;         /* fio's definitions */
	struct lat_summary slat, clat, lat;
	struct pct_value clat_pct[RECORD_PCT_MAX];
	unsigned nr_clat_pct;
	struct pct_value lat_pct[RECORD_PCT_MAX];
	unsigned nr_lat_pct;
	struct bin *bins;              /* clat histogram, non-empty buckets */
	unsigned nr_bins;
};

struct series_record {
	uint64_t t_ms;                 /* end of the interval */
	uint64_t ios[DIR_COUNT], bytes[DIR_COUNT];
	double lat_mean_ns[DIR_COUNT];
};

struct result_record {
	char job_name[JOB_NAME_MAX];
	unsigned groupid;
	int64_t step_id;               /* store step it belongs to; 0 = none */
	/* (v7) the point of its step (sweep point, steady round, checkpoint)
	 * that suite --resume keeps; a point's results are stored together */
	bool has_point;
	unsigned point;
	/* (v9) the pass of its step (checkpoint passes 1.., 0 = the
	 * read-back) and its index there (the checkpoint's number, 1..) */
	bool has_pass;
	unsigned pass, pass_index;
	/* the kind of its step (steps.kind: "jobs", "sweep", "checkpoint",
	 * "gds" ...; "" when it has none), read back with it, never written */
	char step_kind[32];
	char step_name[64];            /* steps.name, the same way ("" none) */
	int error;                     /* positive errno, 0 = none */
	bool partial;
	char *options_json;            /* {"rw":"randread","bs":"4k",...} as given */
	/* the workload point, for sweeps and grids (from the options) */
	char rw[32];
	uint64_t bs;                   /* bytes; 0 = mixed (bssplit) */
	unsigned iodepth, numjobs;
	uint64_t runtime_ns;
	struct dir_record dir[DIR_COUNT];
	struct series_record *series;
	unsigned nr_series;
	uint64_t series_interval_ms;
	uint64_t max_buffer_bytes;     /* I/O buffers the job held (all clones) */
	char *drive_before, *drive_after, *drive_delta;  /* JSON text or NULL */
	/* (v6) verification: on or off, the seed, counts, the kept failures;
	 * (v7) units due, and whether verify_fatal stopped the check */
	bool verify;
	uint64_t verify_seed, verify_checked, verify_failed;
	uint64_t verify_units;
	bool verify_stopped;
	struct verify_failure *verify_failures;   /* malloc'd */
	unsigned nr_verify_failures;
	/* (v11) MPI: has_rank: one rank's part of the run's result (the run's
	 * own results have none); an aggregate names the ranks it merged and
	 * its first-done figures (until the first rank finished: time, and
	 * I/Os and bytes of every direction by then) */
	bool has_rank;
	unsigned rank;
	unsigned nr_ranks;
	uint64_t first_done_ns, first_done_ios, first_done_bytes;
	/* (v12) the fio JSON of the result as `run` writes it (export --format
	 * fio): the document's top level without "jobs", and the result's
	 * object in "jobs"; unformatted JSON text, or NULL (older rows, MPI
	 * ranks' parts). Written, not read by store_results_load
	 * (store_fio_json_load reads them). */
	char *fio_head, *fio_job;
};

/* Builds a record from a measured result (percentiles from the spec's
 * list, bins from the clat histogram). Returns 0 or -1 (err_msg). */
int record_from_result(const struct job_result *r, struct result_record *rec);
void record_free(struct result_record *rec);

#endif
