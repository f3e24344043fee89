/* html_heat.h - a differential heatmap of any two drives (html_heat.c):
 * drawn for one pair, with every drive's values for the page's script to
 * redraw it for another. Private to src/report/. */
#ifndef DRIVEBENCH_HTML_HEAT_H
#define DRIVEBENCH_HTML_HEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct html_heat {
	const char *id;                  /* unique on the page */
	const char *what;                /* "GDS read (GPUD) throughput, GiB/s" */
	const char *unit;                /* of the values and the cell labels */
	int decimals;                    /* of the cell labels */
	bool lower_better;               /* latency: the lower value is ahead */
	const char *const *row_names;
	unsigned rows;
	const char *const *col_names;
	unsigned cols;
	const char *const *drive_names;
	unsigned nr;
	const double *values;            /* nr x rows x cols, NAN: not measured */
};

/* "A vs B: what" */
void html_heat_title(const struct html_heat *h, unsigned a, unsigned b, char *buf, size_t len);
/* The heatmap of drive a over drive b (cells a - b), and, with two drives
 * or more, the values for the script. 0, or -1 with err_msg. */
int html_heat_pair(FILE *out, const struct html_heat *h, unsigned a, unsigned b);
/* Cells both drives measured. */
unsigned html_heat_shared(const struct html_heat *h, unsigned a, unsigned b);
/* The heatmap for the default pair: the reviewed drive and the drive that
 * shares the most cells with it (or, sharing none, the two drives that
 * share the most). When no pair shares a quarter of the cells of the
 * drive that measured fewer, a note says so instead of an empty grid. 0, or -1 with err_msg. */
int html_heat_default(FILE *out, const struct html_heat *h, unsigned reviewed);

#endif
