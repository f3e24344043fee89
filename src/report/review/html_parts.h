/* html_parts.h - what the pieces of the review page (html.c: the page,
 * its tables and helpers; html_sweeps.c: a test's charts and the
 * differential heatmaps; html_steady.c: steady-state rounds and checkpoint
 * passes; html_gds.c: the GDS sweep; html_waf.c: write amplification)
 * share. Private to src/report/review/. */
#ifndef DRIVEBENCH_HTML_PARTS_H
#define DRIVEBENCH_HTML_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/analysis/slices.h"
#include "report/review/review.h"

#define POINT_NAME_MAX 24

void html_esc(FILE *out, const char *s);
void html_point_name(const struct report_point *p, char *buf, size_t len);
void html_cell_number(FILE *out, double v, bool compact);
/* The three charts of a test section, in values[] order: MB/s, IOPS, mean
 * latency. */
extern const char *const html_metric_title[3];
extern const char *const html_metric_unit[3];

/* sections: 0, or -1 with err_msg */
/* reviewed: the drive drawn heavier (the page's default; the selector moves it) */
int html_sweep_section(FILE *out, const struct report_drive *drives,
		       const struct slice *slices, unsigned nr, unsigned reviewed,
		       const struct report_point *test);
int html_single_section(FILE *out, const struct report_drive *drives,
			const struct slice *slices, unsigned nr, const struct report_point *test);
/* The buffer-memory note of nt tests (slices [t * nr + d]): one line,
 * the points folded under it; nothing when no point's buffers were capped. */
void html_buffer_note(FILE *out, const struct report_drive *drives,
		      const struct slice *slices, unsigned nt, unsigned nr);
int html_heatmaps(FILE *out, const struct report_drive *drives, const struct drive_points *dp,
		  unsigned nr, unsigned reviewed);
int html_steady_section(FILE *out, const struct report_drive *drives, unsigned nr);
int html_checkpoint_section(FILE *out, const struct report_drive *drives, unsigned nr);
/* The checkpoints across drives, ranked (html_ckpt_rank.c); nothing with
 * fewer than two drives with checkpoints. */
/* The reviewed drive's conclusion (html_conclusion.c): strengths,
 * weaknesses, ratings missed, what it suits; nothing for a drive alone. */
void html_conclusion(FILE *out, const struct report_drive *drives,
		     const struct slice *slices_per_test, const struct report_point *const *tests,
		     unsigned nt, unsigned nr, unsigned reviewed);
int html_checkpoint_ranking(FILE *out, const struct report_drive *drives, unsigned nr);
int html_gds_section(FILE *out, const struct report_drive *drives, unsigned nr,
		     unsigned reviewed);
/* drive d's GDS findings (each block size's peak, drops past it), a
 * paragraph or a list item per transfer type and direction */
int html_gds_findings(FILE *out, const struct report_drive *drives, unsigned nr,
		      unsigned d, bool as_item);
/* Blocks that tell of one reviewed drive k: with two drives or more each
 * drive's block is drawn and all but the page's reviewed drive's hidden
 * until the drive selector picks another; with one, no wrapper. */
void html_review_open(FILE *out, unsigned k, unsigned reviewed, unsigned nr);
void html_review_close(FILE *out, unsigned nr);
/* html_summary.c: drive reviewed's findings on test (slices: every
 * drive's points of it), as a paragraph or a list item named by the test;
 * *fired counts the findings beyond the peak. 0 / -1. */
int html_test_findings(FILE *out, const struct report_drive *drives, const struct slice *slices,
		       unsigned nr, unsigned reviewed, const struct report_point *test,
		       bool as_item, unsigned *fired);
/* per drive its peak point's mean and tail latency (99 .. 99.9999), in
 * ms past 10,000 µs; nothing when no drive recorded percentiles */
void html_peak_percentiles(FILE *out, const struct report_drive *drives,
			   const struct slice *slices, unsigned nr, const struct report_point *test);
/* the summary table's head and one row per test (anchor: its section) */
void html_summary_head(FILE *out, const struct report_drive *drives, unsigned reviewed,
		       unsigned nr);
void html_summary_row(FILE *out, const struct report_drive *drives, const struct slice *slices,
		      unsigned nr, unsigned reviewed, const struct report_point *test,
		      const char *anchor);
/* a section's two lines: its tests, and the reviewed drive's peaks and
 * ranks (slices_per_test: nr slices per test, test after test) */
void html_section_summary(FILE *out, const struct report_drive *drives,
			  const struct slice *slices_per_test, const struct report_point *const *tests,
			  unsigned nt, unsigned nr, unsigned reviewed);
/* A counter of a drive delta (drive_delta's JSON): a decimal string (exact
 * to 128 bits in the store) or a number; NAN when absent or null. */
struct cJSON;
double html_delta_counter(const struct cJSON *delta, const char *key);
/* per drive, its results with a write amplification (drive_delta) */
int html_waf_section(FILE *out, const struct report_drive *drives, unsigned nr);
/* per drive measured on an NVMe namespace, its results' I/Os and bytes
 * beside the health log's commands and data units over each (drive_delta) */
int html_counters_section(FILE *out, const struct report_drive *drives, unsigned nr);

#endif
