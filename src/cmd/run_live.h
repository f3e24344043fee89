/* run_live.h - what `drivebench run` shows while it runs, as fio does:
 * --status-interval prints the full results so far every N seconds in
 * the chosen formats (documents one after another), --eta draws fio's
 * ETA line on stderr (always, never, or auto: when stderr is a terminal). */
#ifndef DRIVEBENCH_RUN_LIVE_H
#define DRIVEBENCH_RUN_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "output/metrics.h"
#include "run/runner.h"

struct run_args;
struct disk_util;
struct run_client;

/* Prints the results in a's formats (fio's order: terse, json, normal);
 * clients[nr_clients]: an MPI run's ranks (output/output.h), or none. */
int run_command_print(FILE *f, const struct run_args *a, const struct run_output *out,
		      const struct job_result *entries, unsigned nr,
		      const char *note, time_t started, const struct disk_util *du,
		      const struct run_client *clients, unsigned nr_clients);

struct run_live {
	const struct run_args *a;
	FILE **output;
	const char *note;
	time_t started;
	uint64_t status_ns, next_status_ns;   /* 0 = no --status-interval */
	bool eta;                             /* draw the ETA line */
	bool eta_drawn;                       /* a line to end before output */
	uint64_t last_ns, last_bytes[DIR_ALL], last_ios[DIR_ALL];
	/* --metrics-file: written every metrics_ns and at the end */
	const char *metrics_path;
	uint64_t metrics_ns, next_metrics_ns;
	struct metrics_state metrics;
	bool metrics_failed;                  /* said once */
	struct run_metrics_note metrics_note; /* the other ranks' (MPI) */
};

/* Writes the final metrics from the entries to report (when asked for). */
void run_live_final_metrics(struct run_live *live, const struct job_result *entries,
			    unsigned nr);

/* --status-interval and --eta: 0, or -1 with err_msg naming the option. */
int run_live_parse(const char *status_interval, const char *eta, uint64_t *status_ns,
		   int *eta_mode);

/* Sets opt's status callback for live when it has anything to show. */
void run_live_start(struct run_live *live, struct run_options *opt);
/* Ends the ETA line before the final output. */
void run_live_finish(struct run_live *live);

#define RUN_METRICS_DEFAULT_NS 5000000000ull

enum { RUN_ETA_AUTO, RUN_ETA_ALWAYS, RUN_ETA_NEVER };

#endif
