/* html_ckpt_rank.c - the DLIO checkpoints across drives (issue 27.15): per
 * drive the mean seconds per checkpoint of each write pass, side by side,
 * ranked. Ranked by the mean over all write passes (lower is better) when
 * every drive wrote checkpoints of one size, else by GB/s over all passes
 * (higher is better), and the table says which. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/record_kind.h"
#include "util/error.h"

#define RANK_MAX_PASSES 8

struct ckpt_row {
	unsigned drive;
	unsigned passes;
	double mean[RANK_MAX_PASSES];   /* seconds per checkpoint, per pass */
	double all_s, gbs, bytes;       /* over every write pass */
	bool one_size;
};

static bool ckpt_row_of(const struct report_drive *d, unsigned di, struct ckpt_row *row)
{
	unsigned count[RANK_MAX_PASSES] = { 0 }, pass, index, n = 0;
	double sum = 0, moved = 0;

	memset(row, 0, sizeof(*row));
	row->drive = di;
	row->one_size = true;
	for (unsigned r = 0; r < d->nr; r++) {
		const struct result_record *rec = &d->recs[r];
		if (!record_checkpoint(rec, &pass, &index) || !index || rec->partial || pass == 0 ||
		    pass > RANK_MAX_PASSES)
			continue;
		double s = (double)rec->runtime_ns / 1e9, b = (double)rec->dir[DIR_WRITE].bytes;
		if (row->bytes > 0 && b != row->bytes)
			row->one_size = false;
		row->bytes = b;
		row->mean[pass - 1] += s;
		count[pass - 1]++;
		row->passes = pass > row->passes ? pass : row->passes;
		sum += s;
		moved += b;
		n++;
	}
	if (!n)
		return false;
	for (unsigned k = 0; k < row->passes; k++)
		row->mean[k] = count[k] ? row->mean[k] / count[k] : NAN;
	row->all_s = sum / n;
	row->gbs = sum > 0 ? moved / 1e9 / sum : 0;
	return true;
}

static bool by_seconds;

static int row_order(const void *a, const void *b)
{
	const struct ckpt_row *x = a, *y = b;
	double u = by_seconds ? x->all_s : -x->gbs, v = by_seconds ? y->all_s : -y->gbs;

	return (u > v) - (u < v);
}

int html_checkpoint_ranking(FILE *out, const struct report_drive *drives, unsigned nr)
{
	struct ckpt_row *rows = calloc(nr ? nr : 1, sizeof(*rows));
	unsigned n = 0, passes = 0;
	bool same = true;

	if (!rows)
		return err_set("report: out of memory");
	for (unsigned d = 0; d < nr; d++)
		if (ckpt_row_of(&drives[d], d, &rows[n])) {
			same = same && rows[n].one_size && rows[n].bytes == rows[0].bytes;
			passes = rows[n].passes > passes ? rows[n].passes : passes;
			n++;
		}
	if (n < 2) {
		free(rows);
		return 0;
	}
	by_seconds = same;
	qsort(rows, n, sizeof(*rows), row_order);
	fprintf(out, "<p class=\"note\">Checkpoints across drives: the mean seconds per checkpoint "
		"of each write pass, side by side, ranked by %s.</p>\n<table class=\"ckpt-rank\">"
		"<tr><th>rank</th><th class=\"l\">drive</th><th>GB per checkpoint</th>",
		same ? "the mean over all passes (lower is better)"
		     : "GB/s over all passes (higher is better; the drives wrote checkpoints of "
		       "different sizes, so seconds do not compare)");
	for (unsigned k = 0; k < passes; k++)
		fprintf(out, "<th>pass %u s</th>", k + 1);
	fputs("<th>all passes s</th><th>GB/s</th><th>vs first</th></tr>\n", out);
	for (unsigned i = 0; i < n; i++) {
		const struct ckpt_row *r = &rows[i];
		fprintf(out, "<tr><td>%u</td><td class=\"l\">", i + 1);
		html_esc(out, drives[r->drive].label);
		fprintf(out, "</td><td>%.3f</td>", r->bytes / 1e9);
		for (unsigned k = 0; k < passes; k++)
			if (k < r->passes && isfinite(r->mean[k]))
				fprintf(out, "<td>%.3f</td>", r->mean[k]);
			else
				fputs("<td>-</td>", out);
		double a = same ? r->all_s : r->gbs, b = same ? rows[0].all_s : rows[0].gbs;
		double pct = report_pct_diff(a, b);
		fprintf(out, "<td>%.3f</td><td>%.2f</td>", r->all_s, r->gbs);
		char m[32];
		report_format_margin(pct, m, sizeof(m));
		fprintf(out, "<td>%s</td></tr>\n", i ? m : "-");
	}
	fputs("</table>\n", out);
	free(rows);
	return 0;
}
