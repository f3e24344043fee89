/* pts.h - the SNIA PTS report (`report --format pts`): one run of a suite
 * whose steps carry `test = NAME` (suites/snia-pts-e.suite) drawn in the
 * specification's layout, test by test: the device and test-platform
 * header, purge and preconditioning, the steady-state convergence plot and
 * measurement window with its range and slope figures, then each test's
 * tables and plots. Built from plain structs (pts_load.c fills them from
 * the store), so the page is testable without a database. */
#ifndef DRIVEBENCH_PTS_H
#define DRIVEBENCH_PTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/record.h"
#include "store/store.h"

/* One step of the run, with what its detail says. */
struct pts_step {
	char name[128], kind[32], test[64], status[16];
	/* steady steps (suitesteady.c's detail) */
	bool steady;
	double *rounds;                 /* the tracked figure per round */
	unsigned nr_rounds;
	char metric[16];                /* "iops", "bw_bytes", "lat_mean_ns" */
	bool reached;
	unsigned window, max_rounds, window_start, points_per_round, tracked_point;
	unsigned steady_round;          /* first round the window passed (0 none) */
	bool has_window;                /* mean, range, slope were stored */
	double mean, range, slope, slope_excursion, range_limit, slope_limit;
	uint64_t write_limit, written;  /* write_capacities (WSAT) */
	/* a sweep that repeats (HIR, XSR): the idle after each run */
	double pause_ns;
	/* purge */
	char purge_method[32];
	uint64_t purge_bytes;
	/* a measure step at an operating point */
	char operating_point[8], operating_from[128];
	double lat_ceiling_ns;
	/* its results, in point order (pointers into the run's records) */
	const struct result_record **recs;
	unsigned nr_recs;
};

/* The device under test and the platform, as the run stored them. */
struct pts_device {
	char label[128], target[1024], command[1024], suite[1024];
	char model[128], serial[128], firmware[128], kind[32];
	uint64_t size_bytes;
	unsigned logical_block, physical_block;
	char host[128], os[128], kernel[128], cpu[128], server[128];
	unsigned cores;
	uint64_t memory_bytes;
	uint64_t started_ms, finished_ms;
	bool partial;
};

struct pts_run {
	int64_t id;
	struct pts_device dev;
	struct pts_step *steps;
	unsigned nr_steps;
	/* what store_results_load returned (the steps point into it) */
	struct result_record *recs;
	unsigned nr;
};

/* Loads a run: its device, steps and their details, results by step. 0,
 * or -1 with err_msg. */
int pts_load(struct store *db, int64_t run_id, struct pts_run *run);
/* Whether any step of a run belongs to a test. */
bool pts_run_has_tests(const struct pts_run *run);
void pts_run_free(struct pts_run *run);

struct pts_options {
	const char *title;              /* NULL: the specification's name */
	const char *subtitle;           /* or NULL */
};

/* Writes the page for runs[0..nr). -1 with err_msg on a write error. */
int pts_report_html(FILE *out, const struct pts_run *runs, unsigned nr,
		    const struct pts_options *opt);

#endif
