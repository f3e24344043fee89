/* pts_html.c - the PTS report page: its head and style, the device and
 * test-platform header of each run, every test's set-up table (purge,
 * preconditioning, steady state), the steady-state convergence plot and
 * the measurement window with its range and slope figures, and the test
 * pages in the specification's order. */
#include "report/pts/pts_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/analysis/report.h"
#include "report/svg/svg.h"
#include "util/error.h"
#include "util/units.h"

static const char pts_css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1600px;color:#222;"
	"padding:0 24px;box-sizing:border-box}"
	"h1{font-size:22px}h2{font-size:18px;border-bottom:2px solid #335;margin-top:36px}"
	"h3{font-size:15px;margin:20px 0 6px}"
	"table{border-collapse:collapse;margin:8px 0 14px}"
	"th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}"
	"th{background:#eef}td.l,th.l{text-align:left}"
	"table.setup td{text-align:left}table.setup th{text-align:left;width:220px}"
	"figure{display:inline-block;margin:6px 10px 10px 0;vertical-align:top}"
	"figcaption{font-size:12px;color:#555;max-width:760px}"
	".note{color:#555;font-size:13px}.warn{background:#fee;border:1px solid #c66;padding:6px}"
	".pass{color:#1a7f37;font-weight:bold}.fail{color:#b42318;font-weight:bold}"
	"svg text{font:11px system-ui,sans-serif}.legend-item{cursor:pointer}"
	".off{opacity:.15}@media print{nav{display:none}}";

/* a legend click hides a series; a second shows it again */
static const char pts_script[] =
	"document.addEventListener('click',function(e){var g=e.target.closest&&"
	"e.target.closest('.legend-item');if(!g)return;var k=g.getAttribute('data-legend'),"
	"s=g.closest('svg'),on=!g.classList.contains('off');"
	"s.querySelectorAll('[data-series=\"'+k+'\"],.legend-item[data-legend=\"'+k+'\"]')"
	".forEach(function(x){x.classList.toggle('off',on)})});";

void pts_esc(FILE *out, const char *s)
{
	svg_escape(out, s ? s : "");
}

void pts_num(FILE *out, double v)
{
	char buf[64];

	report_format_number(v, false, buf, sizeof(buf));
	fputs(buf, out);
}

void pts_figure_open(FILE *out, const char *id)
{
	fprintf(out, "<figure data-pts=\"%s\">\n", id);
}

void pts_figure_close(FILE *out, const char *caption)
{
	if (caption) {
		fputs("<figcaption>", out);
		pts_esc(out, caption);
		fputs("</figcaption>", out);
	}
	fputs("</figure>\n", out);
}

static void date_cell(FILE *out, uint64_t ms)
{
	char buf[64];
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!ms || !gmtime_r(&t, &tm)) {
		fputs("-", out);
		return;
	}
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm);
	fputs(buf, out);
}

static void row(FILE *out, const char *head, const char *value)
{
	fputs("<tr><th>", out);
	pts_esc(out, head);
	fputs("</th><td>", out);
	pts_esc(out, value && value[0] ? value : "-");
	fputs("</td></tr>\n", out);
}

/* The device under test and the platform: the head of every PTS report. */
static void device_header(FILE *out, const struct pts_run *run)
{
	const struct pts_device *d = &run->dev;
	char buf[128], blocks[64];

	fprintf(out, "<h2 id=\"run-%lld\">Device under test: ", (long long)run->id);
	pts_esc(out, d->model[0] ? d->model : d->target);
	fputs("</h2>\n", out);
	if (!d->finished_ms || d->partial)
		fprintf(out, "<p class=\"warn\">Run %lld is %s: its tests are shown as stored, "
			"some may be missing or cut short.</p>\n", (long long)run->id,
			d->finished_ms ? "partial" : "incomplete (it never finished)");
	fputs("<table class=\"setup\" data-pts=\"device\"><tr><th colspan=\"2\" class=\"l\">Device "
	      "under test</th></tr>\n", out);
	row(out, "model", d->model);
	row(out, "serial", d->serial);
	row(out, "firmware", d->firmware);
	row(out, "user capacity", d->size_bytes ?
	    units_format_bytes(d->size_bytes, UNITS_SI, 2, buf, sizeof(buf)) : "");
	snprintf(blocks, sizeof(blocks), "%u / %u bytes", d->logical_block, d->physical_block);
	row(out, "logical / physical block", d->logical_block ? blocks : "");
	row(out, "target", d->target);
	row(out, "label", d->label);
	fputs("<tr><th colspan=\"2\" class=\"l\">Test platform</th></tr>\n", out);
	row(out, "host", d->host);
	row(out, "server", d->server);
	row(out, "operating system", d->os);
	row(out, "kernel", d->kernel);
	snprintf(buf, sizeof(buf), "%s, %u cores", d->cpu[0] ? d->cpu : "-", d->cores);
	row(out, "CPU", d->cpu[0] || d->cores ? buf : "");
	row(out, "memory", d->memory_bytes ?
	    units_format_bytes(d->memory_bytes, UNITS_IEC, 0, buf, sizeof(buf)) : "");
	row(out, "test software", "drivebench");
	row(out, "suite", d->suite);
	row(out, "command", d->command);
	fputs("<tr><th>test run</th><td>", out);
	date_cell(out, d->started_ms);
	fputs(" .. ", out);
	date_cell(out, d->finished_ms);
	fprintf(out, "</td></tr>\n<tr><th>run</th><td>%lld</td></tr>\n</table>\n",
		(long long)run->id);
}

/* A precondition step's line: what it wrote and how fast. */
static void precondition_row(FILE *out, const struct pts_step *st)
{
	const struct result_record *r = st->nr_recs ? st->recs[0] : NULL;
	char bs[32], bytes[32];

	fputs("<tr><th>preconditioning (", out);
	pts_esc(out, st->name);
	fputs(")</th><td>", out);
	if (!r) {
		fputs("not stored</td></tr>\n", out);
		return;
	}
	pts_bs_name(r->bs, bs, sizeof(bs));
	fprintf(out, "%s %s, TC %u / QD %u: %s written in %.1f s (", strstr(r->rw, "rand") ?
		"random" : "sequential", bs, r->numjobs, r->iodepth,
		units_format_bytes(r->dir[DIR_WRITE].bytes, UNITS_SI, 2, bytes, sizeof(bytes)),
		(double)r->runtime_ns / 1e9);
	pts_num(out, pts_fig(r, PTS_MBS));
	fputs(" MB/s)</td></tr>\n", out);
}

/* A steady step's line: rounds, window, verdict. */
static void steady_row(FILE *out, const struct pts_step *st)
{
	const struct result_record *r = st->nr_recs ? st->recs[0] : NULL;

	fputs("<tr><th>rounds (", out);
	pts_esc(out, st->name);
	fputs(")</th><td>", out);
	if (r)
		fprintf(out, "TC %u / QD %u, ", r->numjobs, r->iodepth);
	fprintf(out, "%u point%s a round, %u round%s; ", st->points_per_round,
		st->points_per_round == 1 ? "" : "s", st->nr_rounds, st->nr_rounds == 1 ? "" : "s");
	if (st->reached || st->steady_round)
		fprintf(out, "<span class=\"pass\">steady state reached</span> (window of %u, "
			"rounds %u..%u)", st->window, pts_window_first(st) + 1, st->nr_rounds);
	else
		fprintf(out, "<span class=\"fail\">steady state not reached</span> in %u rounds "
			"(window of %u)", st->nr_rounds, st->window);
	fputs("</td></tr>\n", out);
}

/* The stimulus as it ran: "...; each point 0.6 s (the specification: one
 * minute)" from the median runtime of the test's steady results, so that
 * a run at --time-scale 0.01 does not read as one of minutes. */
static void stimulus_row(FILE *out, const struct pts_run *run, const char *test,
			 const char *stimulus)
{
	uint64_t t[512];
	unsigned n = 0;
	char text[512], dur[48];

	for (unsigned i = 0; i < run->nr_steps; i++) {
		const struct pts_step *st = &run->steps[i];
		if (strcmp(st->test, test) || strcmp(st->kind, "steady"))
			continue;
		for (unsigned r = 0; r < st->nr_recs && n < 512; r++)
			if (st->recs[r]->runtime_ns)
				t[n++] = st->recs[r]->runtime_ns;
	}
	if (!n) {
		row(out, "test stimulus", stimulus);
		return;
	}
	for (unsigned i = 1; i < n; i++)   /* insertion sort: the median */
		for (unsigned j = i; j && t[j - 1] > t[j]; j--) {
			uint64_t x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	double s = t[n / 2] / 1e9;
	if (s >= 120)
		snprintf(dur, sizeof(dur), "%.1f minutes", s / 60);
	else
		snprintf(dur, sizeof(dur), "%.3g s", s);
	snprintf(text, sizeof(text), "%s; each point ran %s%s", stimulus, dur,
		 fabs(s - 60) > 3 ? " (the specification: one minute)" : "");
	row(out, "test stimulus", text);
}

void pts_test_header(FILE *out, const struct pts_run *run, const char *test,
		     const char *title, const char *section, const char *stimulus)
{
	bool purged = false;

	fprintf(out, "<section data-pts-test=\"%s\">\n<h2 id=\"%s-%lld\">", test, test,
		(long long)run->id);
	pts_esc(out, title);
	fputs("</h2>\n<p class=\"note\">", out);
	pts_esc(out, section);
	fprintf(out, "</p>\n<table class=\"setup\" data-pts=\"%s-setup\">\n", test);
	stimulus_row(out, run, test, stimulus);
	row(out, "data pattern", "random");
	row(out, "active range", "100% of the target");
	for (unsigned i = 0; i < run->nr_steps; i++) {
		const struct pts_step *st = &run->steps[i];
		char text[128], bytes[32];

		if (strcmp(st->test, test))
			continue;
		if (!strcmp(st->kind, "purge")) {
			snprintf(text, sizeof(text), "%s over %s", st->purge_method[0] ?
				 st->purge_method : "not stored",
				 units_format_bytes(st->purge_bytes, UNITS_SI, 2, bytes, sizeof(bytes)));
			row(out, "purge", text);
			purged = true;
		} else if (!strcmp(st->kind, "precondition")) {
			precondition_row(out, st);
		} else if (st->steady) {
			steady_row(out, st);
		}
	}
	if (!purged)
		row(out, "purge", "none stored");
	fputs("</table>\n", out);
}

/* The series name of point k: the values the round varies. */
static void point_name(const struct pts_step *st, unsigned k, char *buf, size_t len)
{
	const struct result_record *r = pts_at(st, k);
	char bs[32];

	if (!r) {
		snprintf(buf, len, "point %u", k + 1);
		return;
	}
	pts_bs_name(r->bs, bs, sizeof(bs));
	snprintf(buf, len, "%u/%u %s TC%u/QD%u", pts_mix(r), 100 - pts_mix(r), bs, r->numjobs,
		 r->iodepth);
}

int pts_convergence(FILE *out, const char *id, const char *title, const struct pts_step *st,
		    const unsigned *ks, unsigned nk, enum pts_fig f)
{
	unsigned n = st->nr_rounds, np = st->points_per_round ? st->points_per_round : 1;
	struct svg_series *series = calloc(nk + 1, sizeof(*series));
	char (*names)[96] = calloc(nk + 1, sizeof(*names));
	double *x = calloc(n + 1, sizeof(*x)), *y = calloc((size_t)nk * n + 1, sizeof(*y));
	int rc = -1;

	if (!series || !names || !x || !y) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned r = 0; r < n; r++)
		x[r] = r + 1;
	for (unsigned s = 0; s < nk; s++) {
		for (unsigned r = 0; r < n; r++)
			y[s * n + r] = pts_fig(pts_at(st, r * np + ks[s]), f);
		point_name(st, ks[s], names[s], sizeof(names[s]));
		series[s] = (struct svg_series){ names[s], x, &y[s * n], n };
	}
	pts_figure_open(out, id);
	struct svg_chart c = { .title = title, .x_label = "round", .y_label = pts_fig_unit(f),
			       .series = series, .nr_series = nk };
	rc = n ? svg_line_chart(out, &c) : 0;
	pts_figure_close(out, "Steady-state convergence: every round of the points the test "
			 "tracks (the steady-state variable among them).");
out:
	free(series);
	free(names);
	free(x);
	free(y);
	return rc;
}

static const char *metric_unit(const struct pts_step *st, double *scale)
{
	*scale = 1;
	if (!strcmp(st->metric, "bw_bytes")) {
		*scale = 1e-6;
		return "MB/s";
	}
	if (!strcmp(st->metric, "lat_mean_ns")) {
		*scale = 1e-3;
		return "mean response time (\u00b5s)";
	}
	return "IOPS";
}

/* The window's figures against the limits. */
static void window_table(FILE *out, const char *id, const struct pts_step *st, double scale,
			 const char *unit)
{
	unsigned first = pts_window_first(st);
	double mean = st->mean * scale, range = st->range * scale;
	double excursion = st->slope_excursion * scale;
	bool range_ok = st->mean == 0 || st->range <= st->range_limit * st->mean * (1 + 1e-12);
	bool slope_ok = st->mean == 0 ||
		st->slope_excursion <= st->slope_limit * st->mean * (1 + 1e-12);

	fprintf(out, "<table data-pts=\"%s-table\"><tr><th class=\"l\">measurement window</th>"
		"<th>value</th><th>allowed</th><th class=\"l\">verdict</th></tr>\n", id);
	fprintf(out, "<tr><td class=\"l\">rounds</td><td>%u..%u</td><td>%u</td><td class=\"l\">"
		"</td></tr>\n", first + 1, st->nr_rounds, st->window);
	fputs("<tr><td class=\"l\">average (", out);
	pts_esc(out, unit);
	fputs(")</td><td>", out);
	pts_num(out, mean);
	fputs("</td><td></td><td></td></tr>\n<tr><td class=\"l\">range (max - min)</td><td>", out);
	pts_num(out, range);
	fprintf(out, " (%.1f%%)</td><td>%.0f%% of the average</td><td class=\"l %s\">%s</td></tr>\n",
		mean ? 100 * range / mean : 0, 100 * st->range_limit, range_ok ? "pass" : "fail",
		range_ok ? "within" : "over");
	fputs("<tr><td class=\"l\">slope (per round)</td><td>", out);
	pts_num(out, st->slope * scale);
	fputs("</td><td></td><td></td></tr>\n<tr><td class=\"l\">slope excursion "
	      "(|slope| x (window - 1))</td><td>", out);
	pts_num(out, excursion);
	fprintf(out, " (%.1f%%)</td><td>%.0f%% of the average</td><td class=\"l %s\">%s</td></tr>\n",
		mean ? 100 * excursion / mean : 0, 100 * st->slope_limit, slope_ok ? "pass" : "fail",
		slope_ok ? "within" : "over");
	fprintf(out, "<tr><td class=\"l\">steady state</td><td colspan=\"3\" class=\"l %s\">%s</td>"
		"</tr>\n</table>\n", st->reached ? "pass" : "fail",
		st->reached ? "reached" : "not reached");
}

int pts_window(FILE *out, const char *id, const struct pts_step *st)
{
	unsigned first = pts_window_first(st), n = st->nr_rounds - first;
	double x[2 * 64], y[6][64], scale, mean = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, slope;
	const char *unit = metric_unit(st, &scale);
	char title[256];
	int rc;

	if (!n)
		return 0;
	if (!st->has_window) {
		fprintf(out, "<p class=\"note\" data-pts=\"%s\"><span data-pts=\"%s-table\">%s: %u "
			"round%s, fewer than the window of %u: no measurement window.</span></p>\n",
			id, id, st->name, st->nr_rounds, st->nr_rounds == 1 ? "" : "s", st->window);
		return 0;
	}
	if (n > 64) {
		first = st->nr_rounds - 64;
		n = 64;
	}
	for (unsigned i = 0; i < n; i++) {
		x[i] = first + i + 1;
		y[0][i] = st->rounds[first + i] * scale;
		mean += y[0][i] / n;
		sx += x[i];
		sy += y[0][i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[0][i];
	}
	slope = n > 1 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
	for (unsigned i = 0; i < n; i++) {
		y[1][i] = mean;
		y[2][i] = 1.1 * mean;
		y[3][i] = 0.9 * mean;
		y[4][i] = sy / n + slope * (x[i] - sx / n);
	}
	struct svg_series s[5] = {
		{ unit, x, y[0], n }, { "average", x, y[1], n }, { "110% of the average", x, y[2], n },
		{ "90% of the average", x, y[3], n }, { "least-squares line", x, y[4], n },
	};
	snprintf(title, sizeof(title), "%s: steady-state measurement window", st->name);
	pts_figure_open(out, id);
	struct svg_chart c = { .title = title, .x_label = "round", .y_label = unit, .series = s,
			       .nr_series = 5 };
	rc = svg_line_chart(out, &c);
	pts_figure_close(out, "The steady-state variable over the measurement window, its "
			 "average, the 20% band (110% and 90% of the average) and the "
			 "least-squares line whose excursion is judged.");
	if (rc == 0)
		window_table(out, id, st, scale, unit);
	return rc;
}

/* A test that has steps but no page of its own: its steps and results. */
static void other_test(FILE *out, const struct pts_run *run, const char *test)
{
	pts_test_header(out, run, test, test, "A test of the suite without a PTS page: its "
			"steps are listed.", "");
	fputs("<table><tr><th class=\"l\">step</th><th class=\"l\">kind</th><th>results</th></tr>\n",
	      out);
	for (unsigned i = 0; i < run->nr_steps; i++)
		if (!strcmp(run->steps[i].test, test)) {
			fputs("<tr><td class=\"l\">", out);
			pts_esc(out, run->steps[i].name);
			fputs("</td><td class=\"l\">", out);
			pts_esc(out, run->steps[i].kind);
			fprintf(out, "</td><td>%u</td></tr>\n", run->steps[i].nr_recs);
		}
	fputs("</table>\n</section>\n", out);
}

static int test_page(FILE *out, const struct pts_run *run, const char *test)
{
	if (!strcmp(test, "iops"))
		return pts_iops_page(out, run);
	if (!strcmp(test, "tp"))
		return pts_tp_page(out, run);
	if (!strcmp(test, "lat"))
		return pts_lat_page(out, run);
	if (!strcmp(test, "wsat"))
		return pts_wsat_page(out, run);
	if (!strcmp(test, "hir"))
		return pts_hir_page(out, run);
	if (!strcmp(test, "xsr"))
		return pts_xsr_page(out, run);
	if (!strcmp(test, "dirth") || !strcmp(test, "cbw"))
		return pts_dirth_page(out, run, test);
	other_test(out, run, test);
	return 0;
}

/* Each test of the run once, in the order its first step ran. */
static int run_pages(FILE *out, const struct pts_run *run)
{
	device_header(out, run);
	for (unsigned i = 0; i < run->nr_steps; i++) {
		const char *test = run->steps[i].test;
		bool seen = false;

		for (unsigned k = 0; k < i && !seen; k++)
			seen = !strcmp(run->steps[k].test, test);
		if (test[0] && !seen && test_page(out, run, test) < 0)
			return -1;
	}
	return 0;
}

int pts_report_html(FILE *out, const struct pts_run *runs, unsigned nr,
		    const struct pts_options *opt)
{
	const char *title = opt && opt->title ? opt->title :
		"SNIA Solid State Storage Performance Test Specification (PTS-E) report";

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
	pts_esc(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<h1>", pts_css);
	pts_esc(out, title);
	fputs("</h1>\n", out);
	if (opt && opt->subtitle) {
		fputs("<p class=\"note\">", out);
		pts_esc(out, opt->subtitle);
		fputs("</p>\n", out);
	}
	fputs("<nav><b>Contents</b><ol>\n", out);
	for (unsigned r = 0; r < nr; r++) {
		fprintf(out, "<li><a href=\"#run-%lld\">run %lld: ", (long long)runs[r].id,
			(long long)runs[r].id);
		pts_esc(out, runs[r].dev.model[0] ? runs[r].dev.model : runs[r].dev.target);
		fputs("</a></li>\n", out);
	}
	fputs("</ol></nav>\n", out);
	for (unsigned r = 0; r < nr; r++)
		if (run_pages(out, &runs[r]) < 0)
			return -1;
	fputs("<p class=\"note\">Generated by drivebench from its results database. MB/s = 10^6 "
	      "bytes/s; response times in \u00b5s; TC/QD = thread count (numjobs) / queue depth "
	      "(iodepth); percentiles of a measurement window are its rounds' worst. "
	      "docs/pts.md describes each page.</p>\n", out);
	fprintf(out, "<script>%s</script>\n</body></html>\n", pts_script);
	if (fflush(out) != 0 || ferror(out))
		return err_set("report: write error");
	return 0;
}
