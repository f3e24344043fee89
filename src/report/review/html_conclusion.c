/* html_conclusion.c - the conclusion of a reviewed drive (issue 27.14), as
 * each review ends: its strengths (the tests it leads), its weaknesses
 * (the tests it ranks last in, of three or more, and the ratings it
 * misses), and the workloads it suits, each line with the figures that
 * support it, all drawn from the same standing the findings quote. */
#include "report/review/html_parts.h"

#include <math.h>
#include <string.h>

#include "report/analysis/standing.h"

void html_conclusion(FILE *out, const struct report_drive *drives,
		     const struct slice *slices_per_test, const struct report_point *const *tests,
		     unsigned nt, unsigned nr, unsigned reviewed)
{
	bool lead_any = false, weak_any = false, rated_any = false;
	bool suits_seq = false, suits_rand_read = false, suits_rand_write = false, suits_cdn = false;
	char name[160], v[48], l[48];

	if (nr < 2)
		return;
	fputs("<h3>Conclusion</h3>\n<ul class=\"conclusion\">\n", out);
	for (unsigned t = 0; t < nt; t++) {
		struct standing st;
		standing_of(drives, &slices_per_test[(size_t)t * nr], nr, reviewed, tests[t], &st);
		if (!st.has || st.of < 2 || st.rank != 1)
			continue;
		report_test_name(tests[t], name, sizeof(name));
		report_format_number(st.shared_value, st.iops, v, sizeof(v));
		if (!lead_any)
			fputs("<li><b>Strengths:</b> leads ", out);
		else
			fputs("; ", out);
		html_esc(out, name);
		if (isfinite(st.runner_up_pct) && st.runner_up_pct > 100)
			fprintf(out, " (%s %s, %.1fx the next of %u)", v, st.iops ? "IOPS" : "MB/s",
				1 + st.runner_up_pct / 100, st.of);
		else
			fprintf(out, " (%s %s, %.1f%% over the next of %u)", v,
				st.iops ? "IOPS" : "MB/s",
				isfinite(st.runner_up_pct) ? st.runner_up_pct : 0, st.of);
		lead_any = true;
		const struct report_point *p = tests[t];
		if (p->section == SECTION_CDN)
			suits_cdn = true;
		else if (!strcmp(p->rw, "read") || !strcmp(p->rw, "write"))
			suits_seq = true;
		else if (!strcmp(p->rw, "randread"))
			suits_rand_read = true;
		else if (!strcmp(p->rw, "randwrite"))
			suits_rand_write = true;
	}
	if (lead_any)
		fputs(".</li>\n", out);
	for (unsigned t = 0; t < nt; t++) {
		struct standing st;
		standing_of(drives, &slices_per_test[(size_t)t * nr], nr, reviewed, tests[t], &st);
		if (!st.has || st.of < 3 || st.rank != st.of)
			continue;
		report_test_name(tests[t], name, sizeof(name));
		report_format_number(st.shared_value, st.iops, v, sizeof(v));
		report_format_number(st.leader_value, st.iops, l, sizeof(l));
		fputs(weak_any ? "; " : "<li><b>Weaknesses:</b> ", out);
		fprintf(out, "last of %u in ", st.of);
		html_esc(out, name);
		fprintf(out, " (%s %s, %.1f%% behind ", v, st.iops ? "IOPS" : "MB/s", -st.gap_pct);
		html_esc(out, drives[st.leader].label);
		fprintf(out, " at %s)", l);
		weak_any = true;
	}
	if (weak_any)
		fputs(".</li>\n", out);
	for (unsigned t = 0; t < nt; t++) {
		struct standing st;
		standing_of(drives, &slices_per_test[(size_t)t * nr], nr, reviewed, tests[t], &st);
		if (!st.has || st.rating <= 0 || st.value >= st.rating)
			continue;
		report_test_name(tests[t], name, sizeof(name));
		report_format_number(st.value, st.iops, v, sizeof(v));
		report_format_rating(st.rating, st.iops, l, sizeof(l));
		fputs(rated_any ? "; " : "<li><b>Below its rating:</b> ", out);
		html_esc(out, name);
		fprintf(out, " (best %s against %s %s, %.1f%%)", v, l, st.iops ? "IOPS" : "MB/s",
			report_pct_diff(st.value, st.rating));
		rated_any = true;
	}
	if (rated_any)
		fputs(".</li>\n", out);
	if (suits_seq || suits_rand_read || suits_rand_write || suits_cdn) {
		bool first = true;
		fputs("<li><b>Suits:</b> ", out);
		const char *what[] = { "large sequential transfers", "random reads",
				       "random writes", "CDN serving" };
		bool on[] = { suits_seq, suits_rand_read, suits_rand_write, suits_cdn };
		for (unsigned i = 0; i < 4; i++)
			if (on[i]) {
				fprintf(out, "%s%s", first ? "" : ", ", what[i]);
				first = false;
			}
		fputs(" (where it leads, above).</li>\n", out);
	}
	if (!lead_any && !weak_any && !rated_any)
		fputs("<li>Neither leads nor trails a test of three drives or more, and meets every "
		      "rating that applies.</li>\n", out);
	fputs("</ul>\n", out);
}
