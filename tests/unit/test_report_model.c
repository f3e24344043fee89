/* test_report_model.c - the report on modelled drives, on synthetic data:
 * a stored drive model split into name and scale, the mark a modelled
 * drive carries in the Drives table and the name every section shows it
 * under, the spec sheet's note and warning lines, and the write
 * amplification table (rows in run order, counters missing, summary by
 * step past 40 rows). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/measured.h"
#include "report/analysis/report.h"
#include "report/review/review.h"
#include "report/analysis/spec.h"
#include "job/job_spec.h"
#include "helpers/fixtures.h"

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static char *page(const struct report_drive *d, unsigned nr)
{
	struct fx_capture c;

	assert_int_equal(report_html(fx_capture_open(&c), d, nr, NULL), 0);
	return fx_capture_text(&c);
}

static void test_model_split(void **state)
{
	char name[128], scale[64];
	(void)state;

	assert_true(measured_model_split("Solidigm D5-P5336 122.88TB (model, scale 1/1000)",
					 name, sizeof(name), scale, sizeof(scale)));
	assert_string_equal(name, "Solidigm D5-P5336 122.88TB");
	assert_string_equal(scale, "1/1000");
	/* the last tag counts: a name may hold the words itself */
	assert_true(measured_model_split("x (model, scale 2) (model, scale 8g)", name,
					 sizeof(name), scale, sizeof(scale)));
	assert_string_equal(name, "x (model, scale 2)");
	assert_string_equal(scale, "8g");
	/* real drives, and what is not a whole tag */
	assert_false(measured_model_split("SOLIDIGM SSDPF2NQ307TZ", name, sizeof(name),
					  scale, sizeof(scale)));
	assert_string_equal(name, "");
	assert_false(measured_model_split("", name, sizeof(name), scale, sizeof(scale)));
	assert_false(measured_model_split(NULL, name, sizeof(name), scale, sizeof(scale)));
	assert_false(measured_model_split("x (model, scale )", name, sizeof(name), scale,
					  sizeof(scale)));
	assert_false(measured_model_split("x (model, scale 1/1000", name, sizeof(name), scale,
					  sizeof(scale)));
}

static void test_model_mark(void **state)
{
	const char *one[] = { "A (model, scale 1/1000)", "B (model, scale 1/1000)" };
	const char *two[] = { "A (model, scale 1/1000)", "A (model, scale 1/100)" };
	const char *mixed[] = { "SOLIDIGM SSDPF2NQ307TZ", "A (model, scale 1/1000)" };
	const char *real[] = { "SOLIDIGM SSDPF2NQ307TZ" };
	char buf[200];
	(void)state;

	assert_true(measured_model_mark(one, 2, buf, sizeof(buf)));
	assert_string_equal(buf, "model, scale 1/1000");
	assert_true(measured_model_mark(two, 2, buf, sizeof(buf)));
	assert_string_equal(buf, "model, scales 1/1000, 1/100");
	assert_true(measured_model_mark(mixed, 2, buf, sizeof(buf)));
	assert_string_equal(buf, "partly model, scale 1/1000");
	assert_false(measured_model_mark(real, 1, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_false(measured_model_mark(NULL, 0, buf, sizeof(buf)));

	measured_shown_label("p5336", one, 1, buf, sizeof(buf));
	assert_string_equal(buf, "p5336 (model, scale 1/1000)");
	measured_shown_label("p5430", real, 1, buf, sizeof(buf));
	assert_string_equal(buf, "p5430");
	/* a long label is cut, never the mark */
	char label[161], name[160];
	memset(label, 'x', 160);
	label[160] = '\0';
	measured_shown_label(label, one, 1, name, sizeof(name));
	assert_non_null(strstr(name, " (model, scale 1/1000)"));
}

static void write_record(struct result_record *r, const char *job, int64_t step_id,
			 double mbs, char *delta)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->job_name, sizeof(r->job_name), "%s", job);
	snprintf(r->rw, sizeof(r->rw), "write");
	r->bs = 131072;
	r->iodepth = 16;
	r->numjobs = 1;
	r->step_id = step_id;
	r->dir[DIR_WRITE].ios = 1000;
	r->dir[DIR_WRITE].iops = mbs * 1e6 / 131072;
	r->dir[DIR_WRITE].bw_bytes = mbs * 1e6;
	r->dir[DIR_WRITE].lat.n = r->dir[DIR_WRITE].clat.n = 1000;
	r->dir[DIR_WRITE].lat.mean = r->dir[DIR_WRITE].clat.mean = 1e5;
	r->drive_delta = delta;
}

static char delta_1[] = "{\"host_bytes_written\":\"2000000000\","
			"\"media_bytes_written\":\"5000000000\",\"write_amplification\":2.5}";
static char delta_2[] = "{\"host_bytes_written\":1000000000,"
			"\"media_bytes_written\":\"1100000000\",\"write_amplification\":1.1}";
static char delta_none[] = "{\"host_bytes_written\":\"0\",\"media_bytes_written\":\"0\","
			   "\"write_amplification\":null}";
static char delta_bad[] = "{not json";
/* a real drive without the OCP log has no NAND bytes: no WAF either, but a
 * delta could carry a WAF whose counters were dropped */
static char delta_odd[] = "{\"write_amplification\":3.0,\"media_bytes_written\":null}";

/* A modelled drive beside a real one: the mark by its label, the measured-on
 * column, the sheet's model marked too, and its name in every section. */
static void test_model_marked_everywhere(void **state)
{
	const char *model_on[] = { "Solidigm D5-P5336 122.88TB (model, scale 1/1000)" };
	const char *real_on[] = { "SOLIDIGM SSDPF2NQ307TZ" };
	struct result_record a[2], b[1];
	struct drive_spec spec;
	struct report_drive d[2] = {
		{ .label = "p5336", .recs = a, .nr = 2, .spec = &spec, .measured_on = model_on,
		  .nr_measured_on = 1,
		  .spec_note = "spec sheet from the model file /m/p5336.ini ([drive] and [rated])" },
		{ .label = "p5430", .recs = b, .nr = 1, .measured_on = real_on, .nr_measured_on = 1,
		  .spec_warning = "no spec sheet: the model file of run 2 can no longer be read" },
	};
	char *html;
	(void)state;

	assert_int_equal(spec_parse("[drive]\nmodel = Solidigm D5-P5336 122.88TB\n[model]\n"
				    "cell = qlc\n", "p5336.ini", &spec), 0);
	write_record(&a[0], "seq-fill", 0, 3000, delta_1);
	write_record(&a[1], "seq-write", 0, 3000, NULL);
	write_record(&b[0], "seq-write", 0, 2800, NULL);
	html = page(d, 2);
	assert_non_null(strstr(html, ">p5336<span class=\"model\">model, scale 1/1000</span></td>"));
	assert_non_null(strstr(html, "<td class=\"l\">Solidigm D5-P5336 122.88TB &mdash; "
			   "<b>model, scale 1/1000</b></td>"));
	assert_non_null(strstr(html, "<td class=\"l\">Solidigm D5-P5336 122.88TB &mdash; "
			   "model, scale 1/1000</td>"));
	/* the real drive: its model as stored, no mark */
	assert_non_null(strstr(html, ">p5430</td><td class=\"l\">SOLIDIGM SSDPF2NQ307TZ</td>"));
	assert_null(strstr(html, "p5430 (model"));
	/* legends, bars and tables name the modelled drive with its mark */
	assert_true(count(html, "p5336 (model, scale 1/1000)") >= 3);
	assert_non_null(strstr(html, "<td class=\"l\">p5336 (model, scale 1/1000)</td><td>16/1</td>"));
	assert_non_null(strstr(html, "p5336 (model, scale 1/1000) vs p5430"));
	/* where the sheet came from; why the other has none */
	assert_non_null(strstr(html, "<p class=\"note\">p5336: spec sheet from the model file "
			   "/m/p5336.ini"));
	assert_non_null(strstr(html, "<div class=\"warn\">p5430: no spec sheet: the model file "
			   "of run 2 can no longer be read</div>"));
	free(html);

	/* imported results: nothing known, nothing marked */
	d[0].nr_measured_on = d[1].nr_measured_on = 0;
	d[0].spec_note = d[1].spec_warning = NULL;
	html = page(d, 2);
	assert_null(strstr(html, "span class=\"model\""));
	assert_null(strstr(html, "(model, scale"));
	assert_non_null(strstr(html, ">p5336</td><td class=\"l\">-</td>"));
	free(html);
}

/* The WAF table: the results with a write amplification, in run order,
 * with "-" for a counter the delta lacks; none without one. */
static void test_waf_rows(void **state)
{
	const struct report_step_name steps[] = { { 7, "checkpoint" }, { 8, "seq-fill" } };
	struct result_record r[6];
	struct report_drive d = { .label = "m", .recs = r, .nr = 6, .steps = steps, .nr_steps = 2 };
	char *html;
	(void)state;

	write_record(&r[0], "seq-fill-r0-fill", 8, 3000, delta_1);
	write_record(&r[1], "pass1-ckpt001", 7, 3000, delta_2);
	write_record(&r[2], "read", 0, 3000, delta_none);
	write_record(&r[3], "bad", 0, 3000, delta_bad);
	write_record(&r[4], "odd", 0, 3000, delta_odd);
	write_record(&r[5], "none", 0, 3000, NULL);
	html = page(&d, 1);
	assert_non_null(strstr(html, "<h2>Write amplification</h2>"));
	assert_non_null(strstr(html, "NVMe Health log data units and OCP media bytes written, "
			   "or the model's counters"));
	assert_non_null(strstr(html, "<tr><td>1</td><td class=\"l\">seq-fill-r0-fill</td>"
			   "<td>2.00</td><td>5.00</td><td>2.500</td></tr>"));
	assert_non_null(strstr(html, "<tr><td>2</td><td class=\"l\">checkpoint: pass1-ckpt001</td>"
			   "<td>1.00</td><td>1.10</td><td>1.100</td></tr>"));
	assert_non_null(strstr(html, "<tr><td>3</td><td class=\"l\">odd</td>"
			   "<td>-</td><td>-</td><td>3.000</td></tr>"));
	assert_null(strstr(html, "<td>4</td><td class=\"l\">"));
	assert_null(strstr(html, "one row per step"));
	free(html);

	d.nr = 0;
	html = page(&d, 1);
	assert_null(strstr(html, "Write amplification"));
	free(html);
}

/* Past 40 rows: one row per step (first appearance order) with its WAF
 * over the step and the first, last, min and max of its results. */
static void test_waf_summary(void **state)
{
	enum { N = 45 };
	static char deltas[N][160];
	const struct report_step_name steps[] = { { 3, "precondition-4k" } };
	struct result_record r[N];
	struct report_drive d = { .label = "m", .recs = r, .nr = N, .steps = steps, .nr_steps = 1 };
	char *html;
	(void)state;

	/* 40 steady rounds, WAF 1.0 .. 4.9, then 5 unstepped fills at WAF 1 */
	for (unsigned i = 0; i < N; i++) {
		bool round = i < 40;
		double waf = round ? 1.0 + 0.1 * (i % 40) : 1.0;

		snprintf(deltas[i], sizeof(deltas[i]), "{\"host_bytes_written\":\"1000000000\","
			 "\"media_bytes_written\":\"%.0f\",\"write_amplification\":%g}",
			 waf * 1e9, waf);
		write_record(&r[i], round ? "precondition-4k-round" : "fill", round ? 3 : 0,
			     3000, deltas[i]);
	}
	/* the lowest round is not the first */
	snprintf(deltas[5], sizeof(deltas[5]), "{\"host_bytes_written\":\"1000000000\","
		 "\"media_bytes_written\":\"500000000\",\"write_amplification\":0.5}");
	html = page(&d, 1);
	assert_non_null(strstr(html, "45 results: one row per step"));
	const char *pre = strstr(html, "<tr><td class=\"l\">precondition-4k</td><td>40</td>");
	const char *fill = strstr(html, "<tr><td class=\"l\">fill</td><td>5</td><td>5.00</td>"
				  "<td>5.00</td><td>1.000</td><td>1.000</td><td>1.000</td>"
				  "<td>1.000</td><td>1.000</td></tr>");
	assert_non_null(pre);
	assert_non_null(fill);
	assert_true(pre < fill);
	assert_non_null(strstr(pre, "<td>40.00</td><td>117.00</td><td>2.925</td><td>1.000</td>"
			       "<td>4.900</td><td>0.500</td><td>4.900</td></tr>"));
	assert_null(strstr(html, "<th>#</th>"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_split),
		cmocka_unit_test(test_model_mark),
		cmocka_unit_test(test_model_marked_everywhere),
		cmocka_unit_test(test_waf_rows),
		cmocka_unit_test(test_waf_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
