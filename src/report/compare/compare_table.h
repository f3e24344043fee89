/* compare_table.h - what `drivebench compare` shows, as data: for 2 to 16
 * drives, one block per result kind that any of them has - points (sweeps
 * and single points), checkpoint passes, GDS points, steady-state steps -
 * each a list of rows (a point, a pass, a GDS point, a step) with every
 * drive's figures (or none: the drive does not have it) and each drive's
 * difference against the first (A) in %. Built from plain result records
 * and steady steps (report/analysis/select.h loads them), printed as text or JSON
 * (compare_print.c), so it is testable without a database. */
#ifndef DRIVEBENCH_COMPARE_TABLE_H
#define DRIVEBENCH_COMPARE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/analysis/report.h"
#include "store/record.h"

#define COMPARE_MIN_DRIVES 2
#define COMPARE_MAX_DRIVES 16
#define COMPARE_MAX_METRICS 4

/* The blocks, in the order they are shown. */
enum compare_kind {
	COMPARE_POINTS,        /* sweep and single points, per rw/bs/dir/QD/jobs */
	COMPARE_CHECKPOINTS,   /* checkpoint passes (results with a pass) */
	COMPARE_GDS,           /* GDS points (options with gds_xfer) */
	COMPARE_STEADY,        /* steady-state steps (their stored rounds) */
	COMPARE_KINDS
};

/* One figure of a block's rows. */
struct compare_metric {
	const char *key;       /* JSON key: "mbs" */
	const char *head;      /* text column: "MB/s" */
	const char *fmt;       /* printf format of the value: "%.1f" */
	int width;             /* text column width */
	bool diff;             /* has a % against A */
	bool flag;             /* a yes/no (0 or 1) */
};

/* What a row is: the fields of its kind (the others 0 or ""). */
struct compare_key {
	char rw[32];
	uint64_t bs;
	char mix[64];          /* points of bs 0: the size split */
	/* points: the report's section and group (report/analysis/sections.h), so a
	 * fill or a workload's phase is its own row, as on the page */
	enum report_section section;
	char group[REPORT_GROUP_MAX];
	int dir;               /* DIR_READ / DIR_WRITE (points, GDS) */
	unsigned iodepth, numjobs;   /* points; GDS: numjobs = threads */
	unsigned pass;         /* checkpoints: 1.., 0 = the read-back */
	char xfer[16];         /* GDS: the XferType */
	char step[128];        /* steady: the step's name */
	char metric[16];       /* steady: "iops", "bw_bytes", "lat_mean_ns" */
};

struct compare_cell {
	bool present;          /* false: the drive has no such row ("-") */
	double v[COMPARE_MAX_METRICS];   /* NAN: not recorded */
};

struct compare_row {
	struct compare_key key;
	struct compare_cell cells[COMPARE_MAX_DRIVES];
};

struct compare_block {
	enum compare_kind kind;
	const struct compare_metric *metrics;
	unsigned nr_metrics;
	struct compare_row *rows;
	unsigned nr_rows;
	unsigned shared;       /* rows every drive has */
};

/* One drive as compare takes it: its name ("A"), results and steady steps
 * (a later result of the same row replaces an earlier one). */
struct compare_drive {
	const char *name;
	const struct result_record *recs;
	unsigned nr;
	const struct report_steady *steady;
	unsigned nr_steady;
};

struct compare_table {
	unsigned nr_drives;
	char names[COMPARE_MAX_DRIVES][8];
	struct compare_block blocks[COMPARE_KINDS];   /* the kinds some drive has */
	unsigned nr_blocks;
};

/* Builds the blocks. -1 with err_msg for fewer than 2 or more than 16
 * drives, or out of memory. Free with compare_table_free (also after -1). */
int compare_table_build(const struct compare_drive *drives, unsigned nr,
			struct compare_table *t);
void compare_table_free(struct compare_table *t);

/* The block of a kind, or NULL when no drive has results of it. */
const struct compare_block *compare_table_block(const struct compare_table *t,
						enum compare_kind kind);

/* Drive d's difference against A (d = 0 included: 0) in % for a metric
 * with a diff, (d - A) / A * 100; NAN when either has no value. */
double compare_diff(const struct compare_block *b, const struct compare_row *r,
		    unsigned drive, unsigned metric);

/* The block's name for JSON ("points", "checkpoints", "gds", "steady") and
 * its title ("Points: sweeps and single points"). */
const char *compare_kind_key(enum compare_kind kind);
const char *compare_kind_title(enum compare_kind kind);

/* A row's two text columns: its name ("4K random read", "pass 2", "16K read
 * (CPUONLY)", the step's name) and where it is ("1/1", threads, the unit). */
void compare_row_name(const struct compare_block *b, const struct compare_row *r,
		      char *name, size_t name_len, char *where, size_t where_len);

/* Who each drive is, for the header: what was asked for (a run id or a
 * label), the group it resolved to, whether it is whole ("incomplete",
 * "partial", NULL) and the warning lines of its runs that are not. */
struct compare_who {
	const char *selector;
	const char *label;
	const char *state;
	const char *const *warnings;
	unsigned nr_warnings;
};

/* The table as text: a header naming the drives, each block with its
 * title, columns and count line (how many rows every drive has, and how
 * many each has that not every drive has), and a warning line at the end
 * when a drive is not whole. Only the rows every drive has, unless all.
 * A block wider than COMPARE_TEXT_WIDTH columns is split into panels, one
 * per figure, each with A and as many other drives as fit. -1 with
 * err_msg on a write error. */
#define COMPARE_TEXT_WIDTH 120
int compare_print_text(FILE *out, const struct compare_table *t,
		       const struct compare_who *who, bool all);
/* The same as one JSON object: the drives, and one object per block. */
int compare_print_json(FILE *out, const struct compare_table *t,
		       const struct compare_who *who);

#endif
