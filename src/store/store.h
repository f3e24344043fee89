/* store.h - the results database (SQLite): every run, its results per
 * direction, percentiles, histogram bins, series and drive snapshots; drive
 * labels with their spec sheets. Schema in docs/schema.md, versioned with
 * PRAGMA user_version and migrated forward on open; WAL; each result is
 * written in one transaction, so a crash never leaves half a result. */
#ifndef DRIVEBENCH_STORE_H
#define DRIVEBENCH_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/record.h"

#define STORE_DEFAULT_PATH "./drivebench.db"
#define STORE_PATH_ENV "DRIVEBENCH_DB"
/* The rule as help texts say it: "$DRIVEBENCH_DB or ./drivebench.db". */
#define STORE_PATH_HELP "$" STORE_PATH_ENV " or " STORE_DEFAULT_PATH

/* The database a command uses without --db: $DRIVEBENCH_DB, else
 * ./drivebench.db. The one place that rule lives. */
const char *store_default_path(void);

struct store;

struct run_meta {
	const char *label;        /* drive label for comparisons ("" = none) */
	const char *source;       /* "run", "import", "suite" */
	const char *command;      /* command line or imported file */
	const char *target;       /* filename, or "" */
	uint64_t started_ms;      /* Unix ms */
	const char *drive_json;   /* identity snapshot (JSON) or NULL */
	const char *suite;        /* (v4) the suite file a suite run runs, or NULL */
};

struct stored_run {
	int64_t id;
	char label[128];
	char source[16];
	char command[1024];
	char target[1024];
	uint64_t started_ms, finished_ms;   /* finished 0 = never ended */
	bool partial;
	unsigned nr_results;
	char drive_model[128], drive_serial[128];
	/* the host it ran on ("" / 0 when not known: imported runs) */
	char host_name[128], host_kernel[128], host_cpu[128];
	char host_os[128], host_server[128];  /* "" before schema v10 */
	unsigned host_cores;
	uint64_t host_memory_bytes;
};

/* Opens (creating or migrating) the database. -1 with err_msg naming the
 * file on failure (not a database, newer schema than this build, ...). */
int store_open(const char *path, struct store **out);
/* A stop (the flag set by SIGINT/SIGTERM) ends store_open's wait for
 * another process's lock at once; storing results still waits. */
void store_stop_on(volatile sig_atomic_t *flag);
/* Opens an existing database only to read it (report, compare, export):
 * SQLite read-only, no pragma that changes the file, no migration of the
 * file: an older schema is read as it is (a copy in memory, migrated
 * there); if that fails the error names the reader (command) and
 * `drivebench migrate`, which upgrades the file. -1 with err_msg. */
int store_open_read(const char *path, const char *command, struct store **out);
void store_close(struct store *s);

/* Everything stored from begin to commit is one transaction: a crash or a
 * failure in between leaves all of it or none (`run` stores its whole run
 * so, a suite each point's results). The functions below nest inside it
 * (each stays whole on its own). Rollback keeps err_msg. */
int store_transaction_begin(struct store *s);
int store_transaction_commit(struct store *s);
void store_transaction_rollback(struct store *s);

int store_run_begin(struct store *s, const struct run_meta *meta, int64_t *run_id);

/* (v11) One rank of an MPI run: its host, its wall clock's offset from
 * rank 0's at the first phase start, its drive snapshot. Stored once per
 * run and rank (a later call for the same rank changes nothing). */
#include "store/host_facts.h"
struct run_rank {
	int rank, local_rank;
	const struct host_facts *host;
	int64_t clock_offset_ns;
	const char *drive_json;       /* or NULL */
};
int store_run_rank_add(struct store *s, int64_t run_id, const struct run_rank *r);
/* The host's row (inserted when new), from facts read on any machine. */
int store_host_id(struct store *s, const struct host_facts *h, int64_t *id);
/* Writes one result with everything under it in one transaction. */
int store_result_add(struct store *s, int64_t run_id,
		     const struct result_record *rec, int64_t *result_id);
int store_run_end(struct store *s, int64_t run_id, bool partial);
/* Marks a run partial (interrupted) or not, leaving it unfinished: an
 * interrupted suite stays resumable, its finish clears the mark. */
int store_run_mark_partial(struct store *s, int64_t run_id, bool partial);

/* Steps of a run: a job file's reporting groups, a suite's steps. Results
 * name theirs in result_record.step_id. status: "done", "partial",
 * "failed". */
int store_step_begin(struct store *s, int64_t run_id, unsigned idx,
		     const char *name, const char *kind, int64_t *step_id);
int store_step_end(struct store *s, int64_t step_id, const char *status);

/* --- suites and resume (v4) --- */

struct stored_step {
	int64_t id;
	unsigned idx;
	char name[128];
	char kind[32];
	char status[16];          /* "running", "done", "partial", "failed" */
	uint64_t started_ms, finished_ms;
};

/* The newest run with this source and target; *run_id = 0 when none. */
int store_run_find_last(struct store *s, const char *source, const char *target,
			int64_t *run_id);
/* The suite file recorded for a run ("" for runs that are not suites). */
int store_run_suite(struct store *s, int64_t run_id, char *path, size_t len);
/* The drive snapshot a run was begun with (runs.drive_json); *json =
 * NULL when it has none; caller frees. */
int store_run_drive_json(struct store *s, int64_t run_id, char **json);
/* The steps of a run in idx order (malloc'd; caller frees). */
int store_steps_list(struct store *s, int64_t run_id, struct stored_step **steps,
		     unsigned *nr);
/* Deletes a step and every result stored under it, in one transaction. */
int store_step_discard(struct store *s, int64_t step_id);
/* Deletes the results of one point of a step (v7 results.point). */
int store_point_discard(struct store *s, int64_t step_id, unsigned point);
/* A resumed step runs again under its id: status 'running', unfinished. */
int store_step_reopen(struct store *s, int64_t step_id);
/* Sets a step's detail (JSON text, or NULL). */
int store_step_detail_set(struct store *s, int64_t step_id, const char *json);
/* A step's detail; *json = NULL when it has none; caller frees. */
int store_step_detail_get(struct store *s, int64_t step_id, char **json);

/* A run that never ended (finished_ms = 0: killed, failed before its end,
 * or still running) holds only part of its results. */
static inline bool stored_run_incomplete(const struct stored_run *run)
{
	return run->finished_ms == 0;
}

/* Reading, for export, report and compare. Arrays are malloc'd; free
 * results with store_results_free. */
int store_runs_list(struct store *s, struct stored_run **runs, unsigned *nr);
int store_run_get(struct store *s, int64_t run_id, struct stored_run *run);
/* Runs whose label is label, oldest first. */
int store_runs_by_label(struct store *s, const char *label,
			int64_t **ids, unsigned *nr);
int store_results_load(struct store *s, int64_t run_id,
		       struct result_record **recs, unsigned *nr);
void store_results_free(struct result_record *recs, unsigned nr);
/* (v12) The stored fio JSON of the run's results, in store_results_load's
 * order: docs[i].head / .job as result_record's fio_head / fio_job (NULL
 * when the row has none). Free with store_fio_json_free. */
struct stored_fio_json {
	char *head, *job;
};
int store_fio_json_load(struct store *s, int64_t run_id,
			struct stored_fio_json **docs, unsigned *nr);
void store_fio_json_free(struct stored_fio_json *docs, unsigned nr);

/* Drive spec sheets (the text of a specs/ INI file) attached to a label. */
int store_spec_set(struct store *s, const char *label, const char *ini_text);
/* *ini_text = NULL when the label has none; caller frees. */
int store_spec_get(struct store *s, const char *label, char **ini_text);

#endif
