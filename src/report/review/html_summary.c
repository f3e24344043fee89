/* html_summary.c - what the review page says before the data: the summary
 * table (per test the reviewed drive's headline figure, where, against
 * its rating, its rank in the group), the computed findings under it, each
 * section's own two-line summary, and a test's findings in its section. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/findings.h"
#include "report/analysis/standing.h"
#include "util/error.h"

static const char *unit_of(bool iops)
{
	return iops ? "IOPS" : "MB/s";
}

static struct finding_point *finding_points(const struct slice *s, bool iops)
{
	struct finding_point *fp = calloc(s->n ? s->n : 1, sizeof(*fp));

	if (!fp) {
		err_set("report: out of memory");
		return NULL;
	}
	for (unsigned i = 0; i < s->n; i++)
		fp[i] = (struct finding_point){ s->pts[i].iodepth, s->pts[i].numjobs,
			report_headline(&s->pts[i], iops), s->pts[i].iops, s->pts[i].lat_mean_us };
	return fp;
}

/* The labels of the drives that ran the test but are not ranked. */
static void not_ranked_list(const struct report_drive *drives, const struct slice *slices,
			    unsigned nr, const struct standing *st, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned d = 0; d < nr && d < STANDING_MAX_DRIVES && used + 1 < len; d++)
		if (slices[d].n && !st->ranked[d])
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 drives[d].label);
}

/* The failed steady step drive d's points of a test were measured after
 * (the first such point's), NULL when none. */
static const char *slice_unsteady(const struct report_drive *drives, const struct slice *slices,
				  unsigned d)
{
	for (unsigned i = 0; i < slices[d].n; i++) {
		const char *u = report_point_unsteady(&drives[d], &slices[d].pts[i]);
		if (u)
			return u;
	}
	return NULL;
}

/* Appends a sentence to buf (a space between). */
static void add_sentence(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (text[0] && used + 2 < len)
		snprintf(buf + used, len - used, "%s%s", used ? " " : "", text);
}

int html_test_findings(FILE *out, const struct report_drive *drives, const struct slice *slices,
		       unsigned nr, unsigned reviewed, const struct report_point *test,
		       bool as_item, unsigned *fired)
{
	struct standing st;
	char text[512], lead[512] = "", found[2048] = "";
	unsigned count = 0;

	standing_of(drives, slices, nr, reviewed, test, &st);
	if (!st.has)
		return 0;
	struct finding_point *fp = finding_points(&slices[reviewed], st.iops);
	if (!fp)
		return -1;
	const char *unit = unit_of(st.iops);
	unsigned n = slices[reviewed].n;
	char peak[48];

	/* the lead: the peak and the 1/1 figure (the summary table has them) */
	report_format_number(st.value, st.iops, peak, sizeof(peak));
	snprintf(text, sizeof(text), "Peak %s %s at %u/%u.", peak, unit, st.peak->iodepth,
		 st.peak->numjobs);
	add_sentence(lead, sizeof(lead), text);
	for (unsigned i = 0; i < n && n > 1; i++)
		if (fp[i].iodepth == 1 && fp[i].numjobs == 1) {
			char v[48], l[48];
			report_format_number(fp[i].value, st.iops, v, sizeof(v));
			report_format_number(fp[i].lat_mean_us, false, l, sizeof(l));
			snprintf(text, sizeof(text), "At 1/1: %s %s, mean latency %s \u00b5s.", v, unit, l);
			add_sentence(lead, sizeof(lead), text);
			break;
		}
	/* the findings proper, each only where it fires */
	bool (*const per_sweep[])(const struct finding_point *, unsigned, const char *,
				  char *, size_t) = { finding_plateau, finding_drop };
	for (unsigned k = 0; k < sizeof(per_sweep) / sizeof(per_sweep[0]); k++)
		if (per_sweep[k](fp, n, unit, text, sizeof(text))) {
			add_sentence(found, sizeof(found), text);
			count++;
		}
	if (finding_littles_law(fp, n, text, sizeof(text))) {
		add_sentence(found, sizeof(found), text);
		count++;
	}
	const struct drive_spec *spec = drives[reviewed].spec;
	if (!st.iops && spec && finding_bus(st.value, spec->interface, text, sizeof(text))) {
		add_sentence(found, sizeof(found), text);
		count++;
	}
	if (finding_rating(fp, n, unit, st.rating, text, sizeof(text))) {
		add_sentence(found, sizeof(found), text);
		count++;
	}
	char left_out[512];
	not_ranked_list(drives, slices, nr, &st, left_out, sizeof(left_out));
	if (finding_rank(st.rank, st.of, st.shared, st.shared_value, unit, drives[st.leader].label,
			 st.leader_value, st.runner_up_pct, left_out, text, sizeof(text))) {
		add_sentence(found, sizeof(found), text);
		count++;
	}
	/* a result after a steady state not reached is flagged where quoted */
	const char *unsteady = slice_unsteady(drives, slices, reviewed);
	if (unsteady) {
		snprintf(text, sizeof(text), "Steady state not reached: measured after %s, which "
			 "did not reach steady state.", unsteady);
		add_sentence(found, sizeof(found), text);
		count++;
	}
	const char *leader_unsteady = st.of >= 2 && st.leader != reviewed
					      ? slice_unsteady(drives, slices, st.leader) : NULL;
	if (leader_unsteady) {
		snprintf(text, sizeof(text), "The leader, %s, was measured after its %s did not "
			 "reach steady state.", drives[st.leader].label, leader_unsteady);
		add_sentence(found, sizeof(found), text);
	}
	free(fp);
	*fired += count;
	/* the summary's list is short: a test only with what fired for it */
	if (as_item) {
		if (!count)
			return 0;
		char name[128];
		report_test_name(test, name, sizeof(name));
		fputs("<li><b>", out);
		html_esc(out, name);
		fputs(":</b> ", out);
		html_esc(out, found);
		fputs("</li>\n", out);
		return 0;
	}
	fputs("<p class=\"say finding\"><b>", out);
	html_esc(out, drives[reviewed].label);
	fputs(":</b> ", out);
	html_esc(out, lead);
	if (found[0]) {
		fputs(" ", out);
		html_esc(out, found);
	}
	fputs("</p>\n", out);
	return 0;
}

void html_summary_row(FILE *out, const struct report_drive *drives, const struct slice *slices,
		      unsigned nr, unsigned reviewed, const struct report_point *test,
		      const char *anchor)
{
	struct standing st;
	char name[128], v[48], r[48], where[POINT_NAME_MAX];

	standing_of(drives, slices, nr, reviewed, test, &st);
	report_test_name(test, name, sizeof(name));
	fprintf(out, "<tr><td class=\"l\"><a href=\"#%s\">", anchor);
	html_esc(out, name);
	fputs("</a></td>", out);
	if (!st.has) {
		fputs("<td colspan=\"6\" class=\"l\">not run by the reviewed drive</td></tr>\n", out);
		return;
	}
	report_format_number(st.value, st.iops, v, sizeof(v));
	html_point_name(st.peak, where, sizeof(where));
	fprintf(out, "<td>%s %s%s</td><td>%s</td>", v, unit_of(st.iops),
		slice_unsteady(drives, slices, reviewed) ? " (not steady)" : "", where);
	if (st.rating > 0) {
		report_format_rating(st.rating, st.iops, r, sizeof(r));
		char m[32];
		report_format_margin(report_pct_diff(st.value, st.rating), m, sizeof(m));
		fprintf(out, "<td>%s</td><td>%s</td>", r, m);
	} else {
		fputs("<td>-</td><td>-</td>", out);
	}
	if (!st.shared && st.ran >= 2) {
		fputs("<td>-</td><td class=\"l\">not ranked: no point run by every drive</td></tr>\n",
		      out);
		return;
	}
	if (st.of < 2) {
		fputs("<td>-</td><td class=\"l\">-</td></tr>\n", out);
		return;
	}
	fprintf(out, "<td>%u of %u</td><td class=\"l\">", st.rank, st.of);
	if (st.leader == reviewed) {
		if (isfinite(st.runner_up_pct) && st.runner_up_pct > 100)
			fprintf(out, "leads at %.1fx the next", 1 + st.runner_up_pct / 100);
		else
			fprintf(out, "leads by %.1f%%",
				isfinite(st.runner_up_pct) ? st.runner_up_pct : 0);
	} else {
		report_format_number(st.leader_value, st.iops, v, sizeof(v));
		html_esc(out, drives[st.leader].label);
		fprintf(out, " (%s%s), %.1f%% behind", v,
			slice_unsteady(drives, slices, st.leader) ? ", not steady" : "", -st.gap_pct);
	}
	fprintf(out, " at the %u point%s all %u ran", st.shared, st.shared == 1 ? "" : "s", st.of);
	char left_out[512];
	not_ranked_list(drives, slices, nr, &st, left_out, sizeof(left_out));
	if (left_out[0]) {
		fputs("; not ranked (ran a different matrix): ", out);
		html_esc(out, left_out);
	}
	fputs("</td></tr>\n", out);
}

/* What a drive ran without its target's path: "suite quick.suite, time
 * scale 0.2", whether on a model (and its scale) or a device, each line;
 * compared across drives. */
static void ran_key(const struct report_drive *d, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < d->nr_ran && used + 1 < len; i++) {
		const char *on = strstr(d->ran[i], " on "), *sc = strstr(d->ran[i], " at scale ");
		int n = on ? (int)(on - d->ran[i]) : (int)strlen(d->ran[i]);
		const char *where = !on ? "" : !strncmp(on, " on model ", 10) ? " on a model"
									  : " on a device";
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s%s%s", i ? "; " : "", n,
					 d->ran[i], where, sc ? sc : "");
	}
}

/* Above the table: when the drives did not all run the same suite, time
 * scale and model scale, each drive's runs. */
static void provenance_note(FILE *out, const struct report_drive *drives, unsigned nr)
{
	char first[2048], key[2048];
	bool differ = false;

	if (nr < 2)
		return;
	ran_key(&drives[0], first, sizeof(first));
	for (unsigned d = 1; d < nr && !differ; d++) {
		ran_key(&drives[d], key, sizeof(key));
		differ = strcmp(first, key) != 0;
	}
	if (!differ)
		return;
	fputs("<p class=\"note provenance\">The drives did not all run the same suite, time "
	      "scale and kind of target (model and its scale, or device); compare with care. ", out);
	for (unsigned d = 0; d < nr; d++) {
		fputs(d ? "; " : "", out);
		fputs("<b>", out);
		html_esc(out, drives[d].label);
		fputs("</b>: ", out);
		if (!drives[d].nr_ran)
			fputs("not known", out);
		for (unsigned i = 0; i < drives[d].nr_ran; i++) {
			fputs(i ? ", " : "", out);
			html_esc(out, drives[d].ran[i]);
		}
	}
	fputs(".</p>\n", out);
}

void html_summary_head(FILE *out, const struct report_drive *drives, unsigned reviewed,
		       unsigned nr)
{
	provenance_note(out, drives, nr);
	fputs("<p class=\"note\">The reviewed drive: <b>", out);
	html_esc(out, drives[reviewed].label);
	fprintf(out, "</b>; the comparison group: %u drive%s. Headline figure: IOPS up to 16K "
		"blocks, MB/s above; rank, leader and gap by each drive's best of the points every ranked drive "
		"ran (a drive that lacks them is not ranked). \"not steady\": measured after a "
		"steady-state step that did not reach steady state.</p>\n",
		nr, nr == 1 ? "" : "s");
	fputs("<table class=\"summary\"><tr><th class=\"l\">test</th><th>headline</th>"
	      "<th>at QD/jobs</th><th>rated</th><th>vs rated</th><th>rank</th>"
	      "<th class=\"l\">leader, gap</th></tr>\n", out);
}

void html_section_summary(FILE *out, const struct report_drive *drives,
			  const struct slice *slices_per_test, const struct report_point *const *tests,
			  unsigned nt, unsigned nr, unsigned reviewed)
{
	char name[128], v[48], where[POINT_NAME_MAX];
	bool any = false;

	fputs("<p class=\"say section-summary\"><b>Tests:</b> ", out);
	for (unsigned t = 0; t < nt; t++) {
		report_test_name(tests[t], name, sizeof(name));
		fputs(t ? ", " : "", out);
		html_esc(out, name);
	}
	fputs(".<br><b>", out);
	html_esc(out, drives[reviewed].label);
	fputs(":</b> ", out);
	for (unsigned t = 0; t < nt; t++) {
		struct standing st;

		standing_of(drives, &slices_per_test[(size_t)t * nr], nr, reviewed, tests[t], &st);
		if (!st.has)
			continue;
		report_test_name(tests[t], name, sizeof(name));
		report_format_number(st.value, st.iops, v, sizeof(v));
		html_point_name(st.peak, where, sizeof(where));
		fputs(any ? "; " : "", out);
		html_esc(out, name);
		fprintf(out, " peaks at %s %s (%s%s)", v, unit_of(st.iops), where,
			slice_unsteady(drives, &slices_per_test[(size_t)t * nr], reviewed)
				? ", not steady" : "");
		if (st.of >= 2)
			fprintf(out, ", rank %u of %u", st.rank, st.of);
		any = true;
	}
	fputs(any ? ".</p>\n" : "did not run these tests.</p>\n", out);
}

/* A latency in the column's unit (ms when scale is 1000, else µs). */
static void latency_cell(FILE *out, double us, double scale)
{
	char v[48];

	if (!isfinite(us)) {
		fputs("<td>-</td>", out);
		return;
	}
	report_format_number(us / scale, false, v, sizeof(v));
	fprintf(out, "<td>%s</td>", v);
}

/* One unit per column: ms when the column's largest latency is 10,000 µs
 * or more, else µs. */
static double column_scale(const struct slice *slices, unsigned nr, bool iops, unsigned col)
{
	double most = 0;

	for (unsigned d = 0; d < nr; d++) {
		const struct report_point *p = standing_best_point(&slices[d], iops);
		if (!p)
			continue;
		double v[] = { p->lat_mean_us, p->p99_us, p->p999_us, p->p9999_us, p->p999999_us };
		if (isfinite(v[col]))
			most = fmax(most, v[col]);
	}
	return most >= 10000 ? 1000 : 1;
}

void html_peak_percentiles(FILE *out, const struct report_drive *drives,
			   const struct slice *slices, unsigned nr, const struct report_point *test)
{
	bool iops = report_headline_iops(test), any = false;
	char where[POINT_NAME_MAX];

	for (unsigned d = 0; d < nr; d++) {
		const struct report_point *peak = standing_best_point(&slices[d], iops);
		if (!peak || !isfinite(peak->p99_us))
			continue;
		static const char *const heads[] = { "mean", "p99", "p99.9", "p99.99", "p99.9999" };
		if (!any) {
			fputs("<table class=\"pct\"><tr><th class=\"l\">latency at the peak</th>"
			      "<th>QD/jobs</th>", out);
			for (unsigned c = 0; c < 5; c++)
				fprintf(out, "<th>%s %s</th>", heads[c],
					column_scale(slices, nr, iops, c) > 1 ? "ms" : "\u00b5s");
			fputs("</tr>\n", out);
		}
		any = true;
		html_point_name(peak, where, sizeof(where));
		fputs("<tr><td class=\"l\">", out);
		html_esc(out, drives[d].label);
		fprintf(out, "</td><td>%s</td>", where);
		latency_cell(out, peak->lat_mean_us, column_scale(slices, nr, iops, 0));
		latency_cell(out, peak->p99_us, column_scale(slices, nr, iops, 1));
		latency_cell(out, peak->p999_us, column_scale(slices, nr, iops, 2));
		latency_cell(out, peak->p9999_us, column_scale(slices, nr, iops, 3));
		latency_cell(out, peak->p999999_us, column_scale(slices, nr, iops, 4));
		fputs("</tr>\n", out);
	}
	if (any)
		fputs("</table>\n", out);
}
