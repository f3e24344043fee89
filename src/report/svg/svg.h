/* svg.h - inline SVG chart primitives for the HTML report: value scales
 * (linear, or log when the range spans more than 100x), tick choice, line
 * charts (categorical or numeric x), bar charts and a differential heatmap. */
#ifndef DRIVEBENCH_SVG_H
#define DRIVEBENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_MAX_TICKS 24
/* A scale switches to log when max/min exceeds this (and min > 0). */
#define SVG_LOG_RATIO 100.0

struct svg_scale {
	double dmin, dmax;      /* domain after rounding to ticks */
	double pmin, pmax;      /* pixel range (pmin maps dmin) */
	double step;            /* linear tick step */
	bool log;
};

/* Sets up a scale over [lo, hi]. Linear scales start at 0 for non-negative
 * data and extend to a 1-2-5 tick step; with allow_log and hi/lo > 100 the
 * scale is log10 over whole decades. */
void svg_scale_init(struct svg_scale *s, double lo, double hi,
		    double pmin, double pmax, bool allow_log);
double svg_scale_map(const struct svg_scale *s, double v);
/* Tick values, ascending; returns how many (at most max). */
unsigned svg_ticks(const struct svg_scale *s, double *ticks, unsigned max);
/* Short axis label: 0, 2.5, 120, 1.5K, 2M, 0.01 ... */
void svg_format_tick(double v, char *buf, size_t len);
/* Writes text with & < > " ' escaped. */
void svg_escape(FILE *out, const char *text);

/* Heatmap cell colour for a percentage difference: green for positive, red
 * for negative, white at 0, full colour at |pct| >= 50. buf gets "#rrggbb". */
void svg_heat_color(double pct, char *buf, size_t len);

/* Line colour i of the drive palette. */
const char *svg_palette(unsigned i);

struct svg_series {
	const char *name;
	const double *x;         /* numeric x; NULL = index on a categorical axis */
	const double *y;         /* NAN = no value (gap) */
	unsigned n;
	/* 1 + the drive's index among all the page's drives: its colour and
	 * data-drive in every chart; 0: not a drive, coloured by series index */
	unsigned drive;
};

struct svg_chart {
	const char *title;
	const char *x_label;     /* with unit */
	const char *y_label;     /* with unit */
	const char *const *x_names;  /* categorical axis labels, or NULL */
	unsigned nx;
	const struct svg_series *series;
	unsigned nr_series;
	/* a second y axis on the right, its ticks the left's x y2_factor
	 * (IOPS and MB/s of one block size are one curve); 0: none */
	double y2_factor;
	const char *y2_label;
	/* 1 + the series drawn heavier (the reviewed drive); 0: none. The
	 * chart is marked data-emph so the page's drive selector can move it. */
	unsigned emphasis;
	/* series i is drive i of the page: a legend click hides that drive in
	 * every such chart (the page's script), not in this one only */
	bool series_are_drives;
};

/* A line chart with axes, ticks, labels and a legend. -1 when there is no
 * value to draw (err_msg). */
int svg_line_chart(FILE *out, const struct svg_chart *c);
/* Bars: one per name, coloured by drive[i] - 1 (the drive's page index,
 * as struct svg_series.drive; drive NULL: by bar index). With drives, a
 * legend click hides that drive's bars in every chart as it hides lines. */
int svg_bar_chart(FILE *out, const char *title, const char *y_label,
		  const char *const *names, const double *values, unsigned n,
		  const unsigned *drive);
/* A grid of cells, row-major. Each cell is coloured by its score (how many
 * % the first drive is ahead: green ahead, red behind, svg_heat_color) and
 * shows its label; NAN score: no shared value (grey, no label). */
struct svg_heat {
	const char *title;
	const char *id;                  /* data-heat (the page script's handle), or NULL */
	const char *const *row_names;
	unsigned rows;
	const char *const *col_names;
	unsigned cols;
	const double *score;
	const char *const *label;        /* per cell, or NULL: the score as +x.x% */
	const char *const *hover;        /* per cell tooltip, or NULL */
	const char *key;                 /* caption of a colour key under the grid, or NULL */
};
int svg_heatmap(FILE *out, const struct svg_heat *h);

#endif
