/* output.h - how results leave the program: the concise human summary and
 * fio-schema JSON (normal and json+ with histogram bins). */
#ifndef DRIVEBENCH_OUTPUT_H
#define DRIVEBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/stats.h"

#define DRIVEBENCH_VERSION "0.1.0"

struct disk_util;

/* One rank of an MPI run, shown as fio's client/server output shows a
 * client (fio --client): its host and its own entries, per clone or group
 * as the aggregate's are. */
struct run_client {
	const char *hostname;
	unsigned rank, local_rank;
	const struct job_result *res;
	unsigned nr;
};

struct run_info {
	const char *target_note;   /* e.g. "default target ./drivebench-scratch.dat" */
	bool partial;              /* interrupted: results so far */
	uint64_t timestamp_s;      /* run start, Unix seconds */
	uint64_t timestamp_ms;
	bool json_plus;            /* add clat_ns "bins" (fio's json+) */
	/* the block devices under the targets and what they counted during
	 * the run (fio's disk_util); NULL or empty: none */
	const struct disk_util *disk_util;
	/* MPI: every rank's own entries (the JSON's "client_stats", the
	 * summary's per-rank blocks) beside the aggregate in res; none for
	 * one process */
	const struct run_client *clients;
	unsigned nr_clients;
};


/* res[0..nr): the entries to report, already merged per group when the
 * jobs asked for group_reporting. Both print every entry, then the
 * per-group totals ("Run status group N") merged from entries sharing a
 * groupid. Return 0 or -1 (err_msg). */
int output_summary(FILE *f, const struct job_result *res, unsigned nr,
		   const struct run_info *info);
int output_json(FILE *f, const struct job_result *res, unsigned nr,
		const struct run_info *info);
/* What the store keeps of res[index] to write its fio JSON again (export
 * --format fio): the document output_json writes for res[0..nr) with info,
 * split in two unformatted JSON texts, the top level without "jobs"
 * (*head) and the entry's object of "jobs" (*job); the other entries
 * still count in the group's bw_agg. Caller frees both with free(). 0 or
 * -1 (err_msg). */
int output_json_stored(const struct job_result *res, unsigned nr, unsigned index,
		       const struct run_info *info, char **head, char **job);
/* fio's terse lines (one per entry), terse version 2 to 5 (fio's default
 * is 3). */
int output_terse(FILE *f, const struct job_result *res, unsigned nr,
		 const struct run_info *info, int version);

/* A result's verification counts, from a job result or a stored record. */
struct verify_totals {
	const char *method;                /* fio's name; NULL = crc32c */
	uint64_t seed;
	uint64_t units, checked, failed;   /* due, checked, failed units */
	bool stopped;                      /* verify_fatal stopped the check */
};

/* The "verify" object of a result (run's JSON and export): method, seed,
 * counts, what is not listed, and the kept failures with their verdicts;
 * 64-bit values exact. NULL when out of memory. */
struct cJSON;
struct cJSON *output_verify_json(const struct verify_totals *t,
				 const struct verify_failure *failures, unsigned nr);

#endif
