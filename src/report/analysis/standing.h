/* standing.h - where the reviewed drive stands on one test (issue 16): its
 * headline figure and where it occurs, against its rating, and its rank
 * in the comparison group with the leader and the gap. Shared by the
 * summary table at the top of the page, the sections' own summaries and
 * the computed findings. Used by the review page. */
#ifndef DRIVEBENCH_REPORT_STANDING_H
#define DRIVEBENCH_REPORT_STANDING_H

#include <stdbool.h>

#include "report/analysis/slices.h"

/* drives past this many are never ranked */
#define STANDING_MAX_DRIVES 64

struct standing {
	bool has;                  /* the reviewed drive ran the test */
	bool iops;                 /* headline IOPS (else MB/s) */
	const struct report_point *peak;   /* the reviewed drive's best point */
	double value;              /* its headline figure there */
	double rating;             /* 0: none applies */
	unsigned above_rating, points;     /* points at or above it, of all */
	unsigned rank, of;         /* 1-based among the drives with the test */
	unsigned leader;           /* drive index of the best */
	double leader_value;
	double gap_pct;            /* (value - leader) / leader, 0 when leading */
	double runner_up_pct;      /* leading: the margin over the second */
	/* rank, leader and gap compare each ranked drive's best of the
	 * points every ranked drive ran (issue 27.1): */
	unsigned shared;           /* how many such points */
	double shared_value;       /* the reviewed drive's best of them */
	bool ranked[STANDING_MAX_DRIVES];  /* ran the test and is ranked */
	unsigned not_ranked;       /* ran it but not those points */
	unsigned ran;              /* drives with the test */
};

/* A drive's best point of a test by the headline metric; NULL if none. */
const struct report_point *standing_best_point(const struct slice *s, bool iops);

/* The standing of drive reviewed (an index of slices) on test; slices are
 * every drive's points of it. The ranked drives: from all that ran the
 * test, drives are left out one at a time while that raises drives x
 * shared points (the one whose leaving raises it most; of equals, the
 * last); the reviewed drive is always ranked. */
void standing_of(const struct report_drive *drives, const struct slice *slices,
		 unsigned nr, unsigned reviewed, const struct report_point *test,
		 struct standing *st);

#endif
