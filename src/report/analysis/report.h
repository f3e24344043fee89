/* report.h - the analysis every product of the report room shares (the
 * review page, the PTS pages, compare): the drives as plain result
 * records, so it is testable without a database; the per-point view;
 * the reviewer sentences computed from a sweep. */
#ifndef DRIVEBENCH_REPORT_H
#define DRIVEBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/analysis/sections.h"
#include "report/analysis/spec.h"
#include "store/record.h"

/* A suite's steady-state step: the tracked figure per round and the
 * SNIA verdict (from the step's stored detail). */
struct report_steady {
	char step[128];
	char metric[16];                   /* "iops", "bw_bytes", "lat_mean_ns" */
	double *rounds;
	unsigned nr_rounds;
	bool reached;
	unsigned window, max_rounds;
	double mean, range, slope_excursion;   /* over the last window */
	double range_limit, slope_limit;       /* fractions of the mean */
};

/* A step's name by its store id (results name theirs in step_id). */
struct report_step_name {
	int64_t id;
	char name[128];
	/* the steady step of the same run last before it, when that one did
	 * not reach steady state ("" when none or it did) */
	char unsteady[128];
};

/* A host as the store keeps it (hosts): what `run` read of the machine. */
struct report_host {
	const char *name, *kernel, *cpu;
	unsigned cores;
	uint64_t memory_bytes;
	const char *os, *server;           /* "" when not known */
};

struct report_drive {
	const char *label;
	const struct result_record *recs;
	unsigned nr;
	const struct drive_spec *spec;     /* NULL = none */
	const struct report_steady *steady;
	unsigned nr_steady;
	/* runs of the drive that are not whole: a mark by its label
	 * ("incomplete" when one never finished, else "partial"; NULL = all
	 * whole) and one warning line per run above everything */
	const char *state;
	const char *const *warnings;
	unsigned nr_warnings;
	/* what its runs were measured on: their stored drive models, each
	 * distinct one once, in run order ("NAME (model, scale S)" for a
	 * modelled drive; report/analysis/measured.h); none for imported runs */
	const char *const *measured_on;
	unsigned nr_measured_on;
	/* what its runs ran: suite, time scale, target (model file and
	 * scale, or the path), each distinct line once */
	const char *const *ran;
	unsigned nr_ran;
	/* where its spec sheet came from when it is not the label's stored
	 * one ("the model file F"), and the line saying why it has none when
	 * that file can no longer be read; NULL = nothing to say */
	const char *spec_note, *spec_warning;
	/* the host its first run with one ran on (NULL: not known) */
	const struct report_host *host;
	/* the names of the steps its results belong to (the write
	 * amplification table's summary by step) */
	const struct report_step_name *steps;
	unsigned nr_steps;
};

/* One direction of one result: a point of a test. */
struct report_point {
	const char *rw;                    /* points into the record */
	uint64_t bs;
	char mix[64];                      /* bs 0: the size split (bssplit or
					    * bssplit_file), so different mixes
					    * are different tests */
	int dir;                           /* DIR_READ / DIR_WRITE */
	/* the step identity beyond rw and bs (report/analysis/sections.h): a fill, a
	 * CDN phase or an object test is its own test */
	enum report_section section;
	char group[REPORT_GROUP_MAX];
	unsigned iodepth, numjobs;
	double mbs, iops, lat_mean_us;     /* MB/s = 10^6 B/s */
	double p99_us, p999_us, p9999_us;  /* NAN when not recorded */
	double p999999_us;                 /* 99.9999th, NAN when not recorded */
	const struct result_record *rec;
	/* its size split is part of its name: set where another test of the
	 * same name has another split (issue 27.2) */
	bool name_split;
};

/* The failed steady step a point was measured after (its step's
 * unsteady), NULL when none: a result quoted from it is flagged. */
const char *report_point_unsteady(const struct report_drive *d, const struct report_point *p);

/* Every direction with I/O of every record that is a point of a test (not
 * a steady-state round, checkpoint or GDS point); a later record of the
 * same test and point replaces an earlier one. Sorted in the reviews'
 * order (report_test_order), then point order. *points is malloc'd. */
int report_points(const struct result_record *recs, unsigned nr,
		  struct report_point **points, unsigned *nr_points);
/* Same test: section and group, rw, bs (and size split) and direction. */
bool report_same_test(const struct report_point *a, const struct report_point *b);
/* The reviews' order of tests: by section, then random before sequential,
 * read before write, block size, size split and group. <0, 0, >0. */
int report_test_order(const struct report_point *a, const struct report_point *b);
/* The reviews' point order: by numjobs, then iodepth (1/1, 2/1 .. 32/1,
 * 1/4 .. 32/8, 1/16 ..). Returns <0, 0, >0. */
int report_point_order(unsigned iodepth_a, unsigned numjobs_a,
		       unsigned iodepth_b, unsigned numjobs_b);
/* "4K random read", "128K sequential write", "CDN random read", "Object
 * storage: random read, 1 thread QD40" ... */
void report_test_name(const struct report_point *p, char *buf, size_t len);
/* "4K", "128K", "1M", "mixed" */
void report_bs_name(uint64_t bs, char *buf, size_t len);
/* Percentage difference of a over b ((a-b)/b*100), NAN when b is 0. */
double report_pct_diff(double a, double b);

/* What a reviewer reads out of a sweep of one drive (points in the
 * reviews' order). value is the test's headline metric (IOPS for blocks up
 * to 16K, else MB/s). */
struct sweep_point {
	unsigned iodepth, numjobs;
	double value, lat_mean_us;
};

struct sweep_facts {
	unsigned peak;             /* index of the highest value */
	unsigned flat;             /* first point reaching >= 95% of the peak */
	int one_one;               /* index of 1/1, -1 when absent */
	unsigned worst_lat;        /* index of the highest mean latency */
	bool rated;                /* a rating applies */
	unsigned above_rating;     /* points at or above the rating */
};

int sweep_facts(const struct sweep_point *pts, unsigned n, double rating,
		struct sweep_facts *facts);
/* Sentences as plain text: "Peak 120.5K IOPS at 32/8. ..." unit is "IOPS"
 * or "MB/s". */
int sweep_sentences(const struct sweep_point *pts, unsigned n, const char *unit,
		    double rating, char *buf, size_t len);
/* The rated figure that applies to a test (0 when none). *unit_iops says
 * whether the rating is IOPS (else MB/s). */
double spec_rating_for(const struct drive_spec *spec, const char *rw, uint64_t bs,
		       int dir, bool *unit_iops);
/* The rating a test is judged against, in its headline unit: 0 when none
 * applies, when the sheet rates it in the other unit, or when the test is a
 * workload's phase (a CDN fill, an object test: never rated; a fill step
 * is). Every sentence that quotes a rating goes through this. */
double report_test_rating(const struct drive_spec *spec, const struct report_point *test);
/* 1234567.8 -> "1.23M", 7124.7 -> "7,124.7" (thousands, one decimal). */
void report_format_number(double v, bool compact, char *buf, size_t len);
/* A rated figure: as report_format_number, without a trailing ".0". */
void report_format_rating(double v, bool compact, char *buf, size_t len);
/* A margin of pct percent (report_pct_diff) as the page writes it:
 * "+38.3%", or past twice the other figure the ratio "11.8x". */
void report_format_margin(double pct, char *buf, size_t len);

#endif
