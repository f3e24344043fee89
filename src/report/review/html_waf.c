/* html_waf.c - the write amplification tables of the review page: per
 * drive, every result whose drive delta has a write_amplification (a fill,
 * a steady round, a sweep's write point, a checkpoint pass), in run order,
 * with the host and NAND bytes behind it; a drive with more than
 * WAF_MAX_ROWS of them is summarised by step, so the page stays short. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/error.h"

#define WAF_MAX_ROWS 40

struct waf_row {
	const struct result_record *rec;
	double host, nand, waf;        /* bytes; NAN when the delta lacks one */
};

/* One step's rows (results without a step: one job name's). */
struct waf_step {
	const struct result_record *first_rec;
	unsigned n;
	double host, nand;             /* sums; NAN when a row lacks one */
	double first, last, min, max;
};

double html_delta_counter(const cJSON *delta, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(delta, key);
	char *end;
	double d;

	if (cJSON_IsNumber(v))
		return v->valuedouble;
	if (!cJSON_IsString(v))
		return NAN;
	d = strtod(v->valuestring, &end);
	return end != v->valuestring && !*end ? d : NAN;
}

/* The row of a result, false when its delta has no write amplification
 * (no host writes, no OCP log, a counter that went backwards, no delta). */
static bool waf_of(const struct result_record *rec, struct waf_row *row)
{
	cJSON *delta = rec->drive_delta ? cJSON_Parse(rec->drive_delta) : NULL;
	const cJSON *waf = cJSON_GetObjectItemCaseSensitive(delta, "write_amplification");
	bool have = cJSON_IsNumber(waf) && isfinite(waf->valuedouble);

	if (have) {
		row->rec = rec;
		row->waf = waf->valuedouble;
		row->host = html_delta_counter(delta, "host_bytes_written");
		row->nand = html_delta_counter(delta, "media_bytes_written");
	}
	cJSON_Delete(delta);
	return have;
}

static const char *step_name(const struct report_drive *d, int64_t id)
{
	for (unsigned i = 0; id && i < d->nr_steps; i++)
		if (d->steps[i].id == id)
			return d->steps[i].name;
	return NULL;
}

static void gb_cell(FILE *out, double bytes)
{
	if (isnan(bytes))
		fputs("<td>-</td>", out);
	else
		fprintf(out, "<td>%.2f</td>", bytes / 1e9);
}

/* "step: job", or the job's name alone when it already says its step (a
 * suite names its jobs after their step, a run's groups after their jobs) */
static void name_cell(FILE *out, const struct report_drive *d, const struct result_record *rec)
{
	const char *step = step_name(d, rec->step_id);

	fputs("<td class=\"l\">", out);
	if (step && strncmp(rec->job_name, step, strlen(step)) && !strstr(step, rec->job_name)) {
		html_esc(out, step);
		fputs(": ", out);
	}
	html_esc(out, rec->job_name);
	fputs("</td>", out);
}

static void rows_table(FILE *out, const struct report_drive *d,
		       const struct waf_row *rows, unsigned n)
{
	fputs("<table><tr><th>#</th><th class=\"l\">test / step</th><th>host GB written</th>"
	      "<th>NAND GB written</th><th>WAF</th></tr>\n", out);
	for (unsigned i = 0; i < n; i++) {
		fprintf(out, "<tr><td>%u</td>", i + 1);
		name_cell(out, d, rows[i].rec);
		gb_cell(out, rows[i].host);
		gb_cell(out, rows[i].nand);
		fprintf(out, "<td>%.3f</td></tr>\n", rows[i].waf);
	}
	fputs("</table>\n", out);
}

static bool same_step(const struct result_record *a, const struct result_record *b)
{
	if (a->step_id || b->step_id)
		return a->step_id == b->step_id;
	return !strcmp(a->job_name, b->job_name);
}

static void step_add(struct waf_step *s, const struct waf_row *row)
{
	if (!s->n++) {
		s->first_rec = row->rec;
		s->first = s->min = s->max = row->waf;
	}
	s->host += row->host;          /* a NAN stays NAN: "-" */
	s->nand += row->nand;
	s->last = row->waf;
	s->min = fmin(s->min, row->waf);
	s->max = fmax(s->max, row->waf);
}

/* Many rows: one per step, in the order the steps first appear. */
static int steps_table(FILE *out, const struct report_drive *d,
		       const struct waf_row *rows, unsigned n)
{
	struct waf_step *steps = calloc(n, sizeof(*steps));
	unsigned nr = 0;

	if (!steps)
		return err_set("report: out of memory");
	for (unsigned i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < nr && !same_step(steps[k].first_rec, rows[i].rec); k++)
			;
		step_add(&steps[k], &rows[i]);
		if (k == nr)
			nr++;
	}
	fprintf(out, "<p class=\"note\">%u results: one row per step, its WAF over the step "
		"(NAND / host) and the first, last, lowest and highest of its results.</p>\n", n);
	fputs("<table><tr><th class=\"l\">step</th><th>results</th><th>host GB written</th>"
	      "<th>NAND GB written</th><th>WAF</th><th>first</th><th>last</th><th>min</th>"
	      "<th>max</th></tr>\n", out);
	for (unsigned k = 0; k < nr; k++) {
		const struct waf_step *s = &steps[k];
		const char *name = step_name(d, s->first_rec->step_id);

		fputs("<tr><td class=\"l\">", out);
		html_esc(out, name ? name : s->first_rec->job_name);
		fprintf(out, "</td><td>%u</td>", s->n);
		gb_cell(out, s->host);
		gb_cell(out, s->nand);
		if (s->host > 0 && !isnan(s->nand))
			fprintf(out, "<td>%.3f</td>", s->nand / s->host);
		else
			fputs("<td>-</td>", out);
		fprintf(out, "<td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n",
			s->first, s->last, s->min, s->max);
	}
	fputs("</table>\n", out);
	free(steps);
	return 0;
}

int html_waf_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	bool heading = false;

	for (unsigned d = 0; d < nr; d++) {
		struct waf_row *rows = calloc(drives[d].nr + 1, sizeof(*rows));
		unsigned n = 0;
		int rc = 0;

		if (!rows)
			return err_set("report: out of memory");
		for (unsigned i = 0; i < drives[d].nr; i++)
			n += waf_of(&drives[d].recs[i], &rows[n]);
		if (n && !heading) {
			fputs("<section class=\"waf\">\n<h2>Write amplification</h2>\n"
			      "<p class=\"note\">Host and NAND bytes written over each result, from "
			      "the drive counters: NVMe Health log data units and OCP media bytes "
			      "written, or the model's counters for a modelled drive; WAF = NAND / "
			      "host. In run order; GB = 10^9 bytes.</p>\n", out);
			heading = true;
		}
		if (n) {
			fputs("<h3>", out);
			html_esc(out, drives[d].label);
			fputs("</h3>\n", out);
			if (n > WAF_MAX_ROWS)
				rc = steps_table(out, &drives[d], rows, n);
			else
				rows_table(out, &drives[d], rows, n);
		}
		free(rows);
		if (rc < 0)
			return -1;
	}
	if (heading)
		fputs("</section>\n", out);
	return 0;
}
