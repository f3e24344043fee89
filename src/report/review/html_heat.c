/* html_heat.c - a differential heatmap the reader can point at any two
 * drives: drawn for the page's default pair, with every drive's values
 * beside it as inert JSON, from which the page's script redraws the cells
 * for the pair picked in the drive selector (report/review/html.c). */
#include "report/review/html_heat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/report.h"
#include "report/svg/svg.h"
#include "util/error.h"

#define LABEL_MAX 32
#define HOVER_MAX 256

/* The difference of drive a over drive b at cell k: a - b in the unit and
 * its score (how many % a is ahead: negated when lower is better). */
static bool cell_diff(const struct html_heat *h, unsigned a, unsigned b, unsigned k,
		      double *diff, double *score)
{
	size_t cells = (size_t)h->rows * h->cols;
	double va = h->values[a * cells + k], vb = h->values[b * cells + k];

	if (!isfinite(va) || !isfinite(vb) || vb == 0)
		return false;
	*diff = va - vb;
	*score = (va - vb) / vb * 100.0 * (h->lower_better ? -1 : 1);
	return true;
}

void html_heat_title(const struct html_heat *h, unsigned a, unsigned b, char *buf, size_t len)
{
	snprintf(buf, len, "%s vs %s: %s", h->drive_names[a], h->drive_names[b], h->what);
}

/* The values as the script reads them; '<' written as \u003c so that no
 * name can close the script element. */
static int write_data(FILE *out, const struct html_heat *h)
{
	size_t cells = (size_t)h->rows * h->cols;
	cJSON *root = cJSON_CreateObject(), *v, *names[3];
	char *text = NULL;
	int rc = -1;

	if (!root)
		goto out;
	cJSON_AddStringToObject(root, "what", h->what);
	cJSON_AddStringToObject(root, "unit", h->unit);
	cJSON_AddNumberToObject(root, "dec", h->decimals);
	cJSON_AddBoolToObject(root, "lower", h->lower_better);
	names[0] = cJSON_AddArrayToObject(root, "rows");
	names[1] = cJSON_AddArrayToObject(root, "cols");
	names[2] = cJSON_AddArrayToObject(root, "drives");
	v = cJSON_AddArrayToObject(root, "v");
	if (!names[0] || !names[1] || !names[2] || !v)
		goto out;
	for (unsigned r = 0; r < h->rows; r++)
		cJSON_AddItemToArray(names[0], cJSON_CreateString(h->row_names[r]));
	for (unsigned c = 0; c < h->cols; c++)
		cJSON_AddItemToArray(names[1], cJSON_CreateString(h->col_names[c]));
	for (unsigned d = 0; d < h->nr; d++) {
		cJSON *grid = cJSON_CreateArray();

		cJSON_AddItemToArray(names[2], cJSON_CreateString(h->drive_names[d]));
		if (!grid)
			goto out;
		cJSON_AddItemToArray(v, grid);
		for (size_t k = 0; k < cells; k++) {
			double x = h->values[d * cells + k];
			cJSON_AddItemToArray(grid, isfinite(x) ? cJSON_CreateNumber(x) : cJSON_CreateNull());
		}
	}
	if (!(text = cJSON_PrintUnformatted(root)))
		goto out;
	fputs("<script type=\"application/json\" data-heat-of=\"", out);
	svg_escape(out, h->id);
	fputs("\">", out);
	for (const char *p = text; *p; p++)
		if (*p == '<')
			fputs("\\u003c", out);
		else
			fputc(*p, out);
	fputs("</script>\n", out);
	rc = 0;
out:
	if (rc < 0)
		err_set("report: out of memory");
	free(text);
	cJSON_Delete(root);
	return rc;
}

int html_heat_pair(FILE *out, const struct html_heat *h, unsigned a, unsigned b)
{
	size_t cells = (size_t)h->rows * h->cols;
	double *score = calloc(cells ? cells : 1, sizeof(*score));
	char (*labels)[LABEL_MAX] = calloc(cells ? cells : 1, sizeof(*labels));
	char (*hovers)[HOVER_MAX] = calloc(cells ? cells : 1, sizeof(*hovers));
	const char **lp = calloc(cells ? cells : 1, sizeof(*lp));
	const char **hp = calloc(cells ? cells : 1, sizeof(*hp));
	char title[400], key[300];
	int rc = -1;

	if (!score || !labels || !hovers || !lp || !hp) {
		err_set("report: out of memory");
		goto out;
	}
	for (size_t k = 0; k < cells; k++) {
		double diff, sc;
		char margin[32];

		score[k] = NAN;
		lp[k] = labels[k];
		hp[k] = NULL;
		if (!cell_diff(h, a, b, (unsigned)k, &diff, &sc))
			continue;
		score[k] = sc;
		snprintf(labels[k], LABEL_MAX, "%+.*f", h->decimals, diff);
		report_format_margin(sc * (h->lower_better ? -1 : 1), margin, sizeof(margin));
		snprintf(hovers[k], HOVER_MAX, "%s, %s: %s %.*f, %s %.*f %s (%s)",
			 h->row_names[k / h->cols], h->col_names[k % h->cols],
			 h->drive_names[a], h->decimals, h->values[a * cells + k],
			 h->drive_names[b], h->decimals, h->values[b * cells + k], h->unit,
			 margin);
		hp[k] = hovers[k];
	}
	html_heat_title(h, a, b, title, sizeof(title));
	snprintf(key, sizeof(key), "cells: the first drive's %s minus the second's; colour: green "
		 "where the first is ahead (%s), red where behind, full at \u00b150%%",
		 h->unit, h->lower_better ? "lower" : "higher");
	struct svg_heat grid = { title, h->id, h->row_names, h->rows, h->col_names, h->cols,
				 score, lp, hp, key };
	/* drawn at its own size (never shrunk under 12 px text), scrolled
	 * sideways when wider than the page */
	fputs("<div class=\"heatwrap\">", out);
	if (svg_heatmap(out, &grid) < 0)
		goto out;
	fputs("</div>\n", out);
	if (h->nr >= 2 && write_data(out, h) < 0)
		goto out;
	rc = 0;
out:
	free(score);
	free(labels);
	free(hovers);
	free(lp);
	free(hp);
	return rc;
}

unsigned html_heat_shared(const struct html_heat *h, unsigned a, unsigned b)
{
	size_t cells = (size_t)h->rows * h->cols;
	unsigned n = 0;

	for (size_t k = 0; k < cells; k++) {
		double diff, score;
		n += cell_diff(h, a, b, (unsigned)k, &diff, &score);
	}
	return n;
}

static unsigned measured_cells(const struct html_heat *h, unsigned d)
{
	size_t cells = (size_t)h->rows * h->cols;
	unsigned n = 0;

	for (size_t k = 0; k < cells; k++)
		n += isfinite(h->values[d * cells + k]);
	return n;
}

/* a pair worth a grid: it shares a quarter of the cells of the drive that
 * measured fewer (and one at least) */
static bool shares_enough(const struct html_heat *h, unsigned a, unsigned b)
{
	unsigned s = html_heat_shared(h, a, b), ca = measured_cells(h, a);
	unsigned cb = measured_cells(h, b);

	return s >= 1 && s * 4 >= (ca < cb ? ca : cb);
}

int html_heat_default(FILE *out, const struct html_heat *h, unsigned reviewed)
{
	unsigned a = reviewed, b = reviewed ? 0 : 1, best = 0;

	if (h->nr < 2)
		return html_heat_pair(out, h, a, b);
	/* the old default first: ties keep it */
	best = html_heat_shared(h, a, b);
	for (unsigned d = 0; d < h->nr; d++) {
		unsigned s = d == reviewed ? 0 : html_heat_shared(h, reviewed, d);
		if (s > best) {
			b = d;
			best = s;
		}
	}
	if (!best || !shares_enough(h, a, b))
		for (unsigned x = 0; x < h->nr; x++)
			for (unsigned y = x + 1; y < h->nr; y++) {
				unsigned s = html_heat_shared(h, x, y);
				if (s > best && shares_enough(h, x, y)) {
					best = s;
					a = x;
					b = y;
				}
			}
	if (!best || !shares_enough(h, a, b)) {
		fputs("<p class=\"note\">No heatmap of ", out);
		svg_escape(out, h->what);
		fputs(": no two drives measured enough of the same cells (each pair shares "
		      "under a quarter of them); the values tables list every drive's.</p>\n", out);
		return 0;
	}
	return html_heat_pair(out, h, a, b);
}
