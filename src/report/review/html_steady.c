/* html_steady.c - the steady-state rounds and the checkpoint passes on the review
 * page. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg/svg.h"
#include "report/analysis/findings.h"
#include "report/analysis/record_kind.h"
#include "report/analysis/sections.h"
#include "util/error.h"

int html_steady_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	bool any = false;

	for (unsigned d = 0; d < nr; d++)
		any = any || drives[d].nr_steady;
	if (!any)
		return 0;
	fputs("<section class=\"test\">\n<h2>Steady state (SNIA PTS)</h2>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 0; k < drives[d].nr_steady; k++) {
			const struct report_steady *st = &drives[d].steady[k];
			bool bw = !strcmp(st->metric, "bw_bytes");
			bool lat = !strcmp(st->metric, "lat_mean_ns");
			double scale = bw ? 1e-6 : lat ? 1e-3 : 1.0;
			double *y = calloc(st->nr_rounds + 1, sizeof(double));
			char (*names)[12] = calloc(st->nr_rounds + 1, sizeof(*names));
			const char **name_ptrs = calloc(st->nr_rounds + 1, sizeof(*name_ptrs));
			char title[320];
			int rc = 0;

			if (!y || !names || !name_ptrs) {
				free(y);
				free(names);
				free(name_ptrs);
				return err_set("report: out of memory");
			}
			for (unsigned r = 0; r < st->nr_rounds; r++) {
				y[r] = st->rounds[r] * scale;
				snprintf(names[r], sizeof(names[r]), "%u", r + 1);
				name_ptrs[r] = names[r];
			}
			snprintf(title, sizeof(title), "%s: %s, per round", drives[d].label, st->step);
			struct svg_series series = { drives[d].label, NULL, y, st->nr_rounds, d + 1 };
			struct svg_chart c = { title, "round",
					       bw ? "MB/s (10^6 bytes/s)" : lat ? "mean latency (\u00b5s)" : "IOPS",
					       name_ptrs, st->nr_rounds, &series, 1 };
			if (st->nr_rounds)
				rc = svg_line_chart(out, &c);
			free(y);
			free(names);
			free(name_ptrs);
			if (rc < 0)
				return -1;
		}
	/* the verdicts under the charts, so that the charts sit two a row */
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 0; k < drives[d].nr_steady; k++) {
			const struct report_steady *st = &drives[d].steady[k];

			fputs("<p class=\"say\"><b>", out);
			if (nr > 1) {
				html_esc(out, drives[d].label);
				fputs(", ", out);
			}
			html_esc(out, st->step);
			if (st->reached)
				fprintf(out, ":</b> steady state reached after %u rounds: over the last %u, "
					"range %.1f%% and slope excursion %.1f%% of the mean "
					"(limits %.0f%% and %.0f%%).</p>\n", st->nr_rounds, st->window,
					st->mean ? 100.0 * st->range / st->mean : 0.0,
					st->mean ? 100.0 * st->slope_excursion / st->mean : 0.0,
					100.0 * st->range_limit, 100.0 * st->slope_limit);
			else
				fprintf(out, ":</b> steady state <b>not reached</b> in %u rounds "
					"(last window: range %.1f%%, slope excursion %.1f%% of the mean; "
					"limits %.0f%% and %.0f%%).</p>\n", st->nr_rounds,
					st->mean ? 100.0 * st->range / st->mean : 0.0,
					st->mean ? 100.0 * st->slope_excursion / st->mean : 0.0,
					100.0 * st->range_limit, 100.0 * st->slope_limit);
		}
	fputs("</section>\n", out);
	return 0;
}

/* DLIO-style checkpoint results (named "passP-ckptNNN", read-back
 * "read-ckptNNN"; see docs/checkpoint.md): seconds per checkpoint against
 * its index, one line per pass (and drive), and the pass means. Partial
 * (stopped) checkpoints are left out. */
#define CHECKPOINT_MAX_PASSES 32
static bool checkpoint_of(const struct result_record *rec, unsigned *pass, unsigned *index)
{
	return record_checkpoint(rec, pass, index) && *index > 0 &&
	       *pass < CHECKPOINT_MAX_PASSES && !rec->partial;
}

/* The pass means: per drive and pass, checkpoints, mean seconds, GB/s. */
static void checkpoint_pass_table(FILE *out, const struct report_drive *drives, unsigned nr)
{
	unsigned pass, index;

	fputs("<table><tr><th class=\"l\">drive</th><th class=\"l\">pass</th><th>checkpoints</th>"
	      "<th>mean seconds</th><th>GB/s</th><th>GB per checkpoint</th></tr>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned k = 1; k <= CHECKPOINT_MAX_PASSES; k++) {
			unsigned want = k % CHECKPOINT_MAX_PASSES, count = 0;
			double seconds = 0, bytes = 0;

			for (unsigned r = 0; r < drives[d].nr; r++) {
				const struct result_record *rec = &drives[d].recs[r];

				if (checkpoint_of(rec, &pass, &index) && pass == want) {
					seconds += (double)rec->runtime_ns / 1e9;
					bytes += (double)(rec->dir[DIR_READ].bytes + rec->dir[DIR_WRITE].bytes);
					count++;
				}
			}
			if (!count)
				continue;
			fputs("<tr><td class=\"l\">", out);
			html_esc(out, drives[d].label);
			if (want)
				fprintf(out, "</td><td class=\"l\">%u</td>", want);
			else
				fputs("</td><td class=\"l\">read-back</td>", out);
			fprintf(out, "<td>%u</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n", count,
				seconds / count, seconds > 0 ? bytes / 1e9 / seconds : 0.0,
				bytes / 1e9 / count);
		}
}

/* The drive's own measured 128K sequential write (MB/s), 0 if none. */
static double own_seq_write_mbs(const struct report_drive *d)
{
	double best = 0;

	for (unsigned r = 0; r < d->nr; r++) {
		const struct result_record *rec = &d->recs[r];
		struct report_identity id;

		report_identity_of(rec, &id);
		if (id.section == SECTION_SEQ128K && !strcmp(rec->rw, "write"))
			best = fmax(best, rec->dir[DIR_WRITE].bw_bytes / 1e6);
	}
	return best;
}

/* Per drive: the finding (pass-to-pass drift, the band of pass 1, GB/s
 * against its own 128K sequential write), the continuous trace over all
 * passes, and the pass means as bars. */
static int checkpoint_story(FILE *out, const struct report_drive *drives, unsigned nr)
{
	enum { PASSES = CHECKPOINT_MAX_PASSES };
	unsigned pass, index;

	for (unsigned d = 0; d < nr; d++) {
		double mean[PASSES] = { 0 }, lo[PASSES], hi[PASSES], bytes = 0;
		unsigned count[PASSES] = { 0 }, passes = 0, total = 0;
		char text[512];

		for (unsigned k = 0; k < PASSES; k++) {
			lo[k] = INFINITY;
			hi[k] = -INFINITY;
		}
		for (unsigned r = 0; r < drives[d].nr; r++) {
			const struct result_record *rec = &drives[d].recs[r];
			if (!checkpoint_of(rec, &pass, &index) || pass == 0)
				continue;
			double s = (double)rec->runtime_ns / 1e9;
			mean[pass - 1] += s;
			lo[pass - 1] = fmin(lo[pass - 1], s);
			hi[pass - 1] = fmax(hi[pass - 1], s);
			count[pass - 1]++;
			total++;
			bytes = (double)rec->dir[DIR_WRITE].bytes;
			passes = pass > passes ? pass : passes;
		}
		if (!total)
			continue;
		for (unsigned k = 0; k < passes; k++)
			mean[k] = count[k] ? mean[k] / count[k] : 0;
		if (finding_checkpoint(mean, lo, hi, passes, bytes, own_seq_write_mbs(&drives[d]),
				       text, sizeof(text))) {
			fputs("<p class=\"say finding\"><b>", out);
			html_esc(out, drives[d].label);
			fputs(":</b> ", out);
			html_esc(out, text);
			fputs("</p>\n", out);
		}
		/* one trace, checkpoint after checkpoint over the passes */
		double *x = calloc(total, sizeof(*x)), *y = calloc(total, sizeof(*y));
		if (!x || !y) {
			free(x);
			free(y);
			return err_set("report: out of memory");
		}
		unsigned n = 0;
		for (unsigned k = 1; k <= passes; k++)
			for (unsigned r = 0; r < drives[d].nr; r++) {
				const struct result_record *rec = &drives[d].recs[r];
				if (checkpoint_of(rec, &pass, &index) && pass == k && n < total) {
					x[n] = n + 1;
					y[n++] = (double)rec->runtime_ns / 1e9;
				}
			}
		char title[200], names[PASSES][16];
		const char *name_ptrs[PASSES];
		snprintf(title, sizeof(title), "%s: seconds per checkpoint, all passes in order",
			 drives[d].label);
		struct svg_series s = { drives[d].label, x, y, n, d + 1 };
		struct svg_chart c = { .title = title, .x_label = "checkpoint (pass after pass)",
				       .y_label = "seconds", .series = &s, .nr_series = 1 };
		int rc = svg_line_chart(out, &c);
		free(x);
		free(y);
		if (rc < 0)
			return -1;
		for (unsigned k = 0; k < passes; k++) {
			snprintf(names[k], sizeof(names[k]), "pass %u", k + 1);
			name_ptrs[k] = names[k];
		}
		snprintf(title, sizeof(title), "%s: mean seconds per checkpoint by pass",
			 drives[d].label);
		unsigned of[CHECKPOINT_MAX_PASSES];
		for (unsigned k = 0; k < passes; k++)
			of[k] = d + 1;
		if (svg_bar_chart(out, title, "seconds", name_ptrs, mean, passes, of) < 0)
			return -1;
	}
	return 0;
}

int html_checkpoint_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	unsigned pass, index;
	bool any = false;

	for (unsigned d = 0; d < nr && !any; d++)
		for (unsigned r = 0; r < drives[d].nr && !any; r++)
			any = checkpoint_of(&drives[d].recs[r], &pass, &index);
	if (!any)
		return 0;
	fputs("<section class=\"test\">\n<h2>DLIO checkpoints</h2>\n<p class=\"note\">Time to "
	      "write one checkpoint, from the barrier before the first write to the last "
	      "rank's last fsync (lower is better); pass 1 starts on an empty drive, later "
	      "passes write over the previous pass's checkpoints. GB = 10^9 bytes.</p>\n", out);
	if (html_checkpoint_ranking(out, drives, nr) < 0)
		return -1;
	/* the trace over all passes and the pass means (the read-back's are
	 * in the table below) */
	if (checkpoint_story(out, drives, nr) < 0)
		return -1;
	checkpoint_pass_table(out, drives, nr);
	fputs("</table>\n</section>\n", out);
	return 0;
}

/* GDS points (gdsio-style sweeps, workload/gds.h; their options carry
 * gds_xfer): per direction and transfer type, throughput, IOPS and mean
 * latency against threads, one line per block size (and drive), and with
 * two drives the differential heatmap of block size x threads. */
