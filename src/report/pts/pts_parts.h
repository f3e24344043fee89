/* pts_parts.h - what the pieces of the PTS report share (private to
 * src/report/): per-result figures, a steady step's points and rounds,
 * and the blocks every test page has (pts_html.c); the test pages
 * themselves are pts_matrix.c (IOPS, throughput, latency), pts_time.c
 * (WSAT, HIR, XSR) and pts_dirth.c (DIRTH, CBW). */
#ifndef DRIVEBENCH_PTS_PARTS_H
#define DRIVEBENCH_PTS_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/pts/pts.h"

/* A figure of one result. */
enum pts_fig { PTS_IOPS, PTS_MBS, PTS_LAT_MEAN_US, PTS_LAT_MAX_US };

double pts_fig(const struct result_record *r, enum pts_fig f);
/* The read share of a result's workload (rwmixread; 100 / 0 for a pure
 * read / write). */
unsigned pts_mix(const struct result_record *r);
/* The response-time percentile pct (99.99) in µs of results: the worst of
 * their stored total-latency percentiles (percentile_list), else from
 * their merged completion-latency histograms; NAN without either. */
double pts_percentile_us(const struct result_record *const *recs, unsigned n, double pct);
/* Whether a histogram bin of direction dir can be (at most the direction's
 * maximum total latency). */
bool pts_bin_possible(const struct result_record *r, int dir, const struct bin *b);
/* "4K", "0.5K", "1024K" as the specification names block sizes. */
void pts_bs_name(uint64_t bs, char *buf, size_t len);
const char *pts_fig_unit(enum pts_fig f);

/* A step's result at a point (NULL: none). */
const struct result_record *pts_at(const struct pts_step *st, unsigned point);
/* The steps of a test in run order: the nth (0..) of a kind ("steady",
 * "purge" ..., NULL: any kind); NULL when there is none. */
const struct pts_step *pts_step_of(const struct pts_run *run, const char *test,
				   const char *kind, unsigned nth);
/* The first round of a steady step's measurement window (its last
 * `window` rounds; 0-based). */
unsigned pts_window_first(const struct pts_step *st);
/* The mean of figure f at point k of a round over the window's rounds. */
double pts_window_mean(const struct pts_step *st, unsigned k, enum pts_fig f);
/* The results of point k in the window's rounds (into recs, at most max). */
unsigned pts_window_recs(const struct pts_step *st, unsigned k,
			 const struct result_record **recs, unsigned max);

/* --- page blocks (pts_html.c) --- */
void pts_esc(FILE *out, const char *s);
void pts_num(FILE *out, double v);
/* <figure data-pts="id"> around one chart, and its end */
void pts_figure_open(FILE *out, const char *id);
void pts_figure_close(FILE *out, const char *caption);
/* The test's heading and set-up table: its purge, its preconditioning
 * (the precondition step, or the steady step named), its stimulus. */
void pts_test_header(FILE *out, const struct pts_run *run, const char *test,
		     const char *title, const char *section, const char *stimulus);
/* A steady step's convergence plot: figure f of the points ks[0..nk) of
 * every round (one line each, named from its first result), id suffix. */
int pts_convergence(FILE *out, const char *id, const char *title, const struct pts_step *st,
		    const unsigned *ks, unsigned nk, enum pts_fig f);
/* The measurement window of a steady step: the tracked figure over the
 * window's rounds with its mean, 110% / 90% of it and the least-squares
 * line, and the table of its range and slope against the limits. */
int pts_window(FILE *out, const char *id, const struct pts_step *st);

/* --- the test pages --- */
int pts_iops_page(FILE *out, const struct pts_run *run);
int pts_tp_page(FILE *out, const struct pts_run *run);
int pts_lat_page(FILE *out, const struct pts_run *run);
int pts_wsat_page(FILE *out, const struct pts_run *run);
int pts_hir_page(FILE *out, const struct pts_run *run);
int pts_xsr_page(FILE *out, const struct pts_run *run);
/* DIRTH and CBW (test "dirth" or "cbw") */
int pts_dirth_page(FILE *out, const struct pts_run *run, const char *test);

#endif
