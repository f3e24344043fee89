/* test_html_bench.c - the "Bench and drives" fragment (report/
 * html_bench.h) on plain structs: the drive identity read from snapshot
 * JSON, the masked serial, escaping, "-" for every field not known, the
 * DWPD ratings with their derived PBW and assumed terms, density, and a
 * write error. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/review/html_bench.h"
#include "report/analysis/spec.h"
#include "util/error.h"
#include "helpers/fixtures.h"

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void masked_is(const char *serial, size_t len, const char *want)
{
	char buf[64];

	bench_mask_serial(serial, buf, len);
	assert_string_equal(buf, want);
}

static void test_mask_serial(void **state)
{
	char untouched[4] = "abc";
	(void)state;

	masked_is("S6CKNE0W900123", 64, "**********0123");
	masked_is("12345", 64, "*2345");
	masked_is("1234", 64, "****");
	masked_is("1", 64, "*");
	masked_is("", 64, "");
	masked_is(NULL, 64, "");
	/* a short buffer truncates, from the front: never the whole serial */
	masked_is("S6CKNE0W900123", 5, "****");
	bench_mask_serial("S6CKNE0W900123", untouched, 0);
	assert_string_equal(untouched, "abc");
}

static void test_id_from_snapshot(void **state)
{
	struct bench_drive_id id;
	(void)state;

	assert_true(bench_drive_id_from_snapshot(
		"{\"kind\":\"nvme\",\"model\":\"Micron_6600\",\"serial\":\"ABCD12345678\","
		"\"firmware\":\"E2MU200\",\"nvme\":{\"identify_controller\":{\"model\":\"other\"}}}",
		&id));
	assert_string_equal(id.model, "Micron_6600");
	assert_string_equal(id.serial, "ABCD12345678");
	assert_string_equal(id.firmware, "E2MU200");
	/* null or empty top-level fields: from Identify Controller */
	assert_true(bench_drive_id_from_snapshot(
		"{\"model\":null,\"serial\":\"\",\"firmware\":\"F1\","
		"\"nvme\":{\"identify_controller\":{\"model\":\"SOLIDIGM SBFPF2BV307T\","
		"\"serial\":\"PHAX0001\",\"firmware\":\"G70YG030\"}}}", &id));
	assert_string_equal(id.model, "SOLIDIGM SBFPF2BV307T");
	assert_string_equal(id.serial, "PHAX0001");
	assert_string_equal(id.firmware, "F1");
	/* a part that failed (identify_controller null) */
	assert_true(bench_drive_id_from_snapshot(
		"{\"model\":\"m\",\"serial\":null,\"nvme\":{\"identify_controller\":null}}", &id));
	assert_string_equal(id.model, "m");
	assert_string_equal(id.serial, "");
	/* nothing to read */
	assert_false(bench_drive_id_from_snapshot(
		"{\"model\":null,\"serial\":null,\"firmware\":null,\"nvme\":null}", &id));
	assert_false(bench_drive_id_from_snapshot("{\"model\":7}", &id));
	assert_false(bench_drive_id_from_snapshot("not json", &id));
	assert_false(bench_drive_id_from_snapshot("[\"model\"]", &id));
	assert_false(bench_drive_id_from_snapshot(NULL, &id));
	assert_string_equal(id.model, "");
}

static void test_id_from_results(void **state)
{
	struct result_record recs[3];
	struct bench_drive_id id;
	(void)state;

	memset(recs, 0, sizeof(recs));
	recs[1].drive_before = "{\"model\":null}";
	recs[2].drive_before = "{\"model\":\"third\",\"serial\":\"SER123456\"}";
	assert_true(bench_drive_id_from_results(recs, 3, &id));
	assert_string_equal(id.model, "third");
	assert_false(bench_drive_id_from_results(recs, 2, &id));
	assert_false(bench_drive_id_from_results(NULL, 0, &id));
}

struct fragment {
	const struct bench_host *hosts;
	unsigned nr_hosts;
	const struct bench_drive *drives;
	unsigned nr_drives;
};

static char *draw(const struct fragment *f)
{
	struct fx_capture c;
	FILE *out = fx_capture_open(&c);

	assert_int_equal(html_bench_section(out, f->hosts, f->nr_hosts, f->drives,
					    f->nr_drives), 0);
	return fx_capture_text(&c);
}

static const char sheet[] =
	"[drive]\nmodel = Micron 6600 ION <245.76TB> & \"E3.L\"\ncapacity_tb = 245.76\n"
	"form_factor = E3.L 9.5mm, U.2 15mm\nnand = G9 QLC\n"
	"interface = PCIe Gen5 x4\nmtbf_hours = 2500000\nuber = 1e-17\n"
	"[rated]\npower_active_w = 30\ndwpd = 0.3\ndwpd_workload = rand16k\n"
	"dwpd_seq128k = 1.0\ndwpd_rand4k_3y = 0.075\n";

static void test_fragment(void **state)
{
	struct drive_spec spec;
	struct bench_host host = {
		"bench-01", "Dell PowerEdge R760", "2 x Intel Xeon Gold 6430 <32C>", 128,
		1024ull << 30, "Ubuntu 22.04.2 LTS", "Linux 6.8.0 x86_64",
	};
	struct bench_drive drives[2] = {
		{ "6600 <reviewed> & 'co'", { "MTFDLAL245T6", "E2MU200", "S6CKNE0W900123" }, &spec },
		{ NULL, { "", "", "" }, NULL },
	};
	struct fragment f = { &host, 1, drives, 2 };
	char *html;
	(void)state;

	assert_int_equal(spec_parse(sheet, "x.ini", &spec), 0);
	html = draw(&f);
	assert_non_null(strstr(html, "<section id=\"bench\" class=\"bench\">\n<h2>Bench and drives</h2>"));
	assert_non_null(strstr(html, "</section>\n"));
	/* escaped, never raw */
	assert_non_null(strstr(html, "6600 &lt;reviewed&gt; &amp; &#39;co&#39;"));
	assert_non_null(strstr(html, "Micron 6600 ION &lt;245.76TB&gt; &amp; &quot;E3.L&quot;"));
	assert_non_null(strstr(html, "2 x Intel Xeon Gold 6430 &lt;32C&gt;"));
	assert_null(strstr(html, "<reviewed>"));
	assert_null(strstr(html, "<32C>"));
	/* the serial masked but for its last 4, the full one nowhere */
	assert_non_null(strstr(html, "<td class=\"l\">**********0123</td>"));
	assert_null(strstr(html, "S6CKNE0W9"));
	assert_non_null(strstr(html, "<td class=\"l\">E2MU200</td>"));
	/* the host */
	assert_non_null(strstr(html, "<td class=\"l\">bench-01</td><td class=\"l\">Dell PowerEdge R760</td>"
				     "<td class=\"l\">2 x Intel Xeon Gold 6430 &lt;32C&gt;</td>"
				     "<td>128</td><td>1024</td>"
				     "<td class=\"l\">Ubuntu 22.04.2 LTS</td>"
				     "<td class=\"l\">Linux 6.8.0 x86_64</td>"));
	/* the record: no layers, no warranty */
	assert_non_null(strstr(html, "<td>245.76</td><td class=\"l\">E3.L 9.5mm, U.2 15mm</td>"
				     "<td class=\"l\">PCIe Gen5 x4</td><td class=\"l\">G9 QLC</td>"
				     "<td>2,500,000</td>"
				     "<td>1 sector per 10<sup>17</sup> bits read</td><td>-</td>"));
	/* three ratings, each with its workload and term: the warranty is
	 * missing, so five years assumed, but for the rating with its own */
	assert_int_equal(count(html, "<tr><td class=\"l\">6600 &lt;reviewed&gt; &amp; &#39;co&#39;"
				     "</td><td>0."), 2);
	assert_non_null(strstr(html, "<td>0.3</td><td class=\"l\">16K random write</td>"
				     "<td>5 (assumed)</td><td>134.6</td><td>-</td>"));
	assert_non_null(strstr(html, "<td>1</td><td class=\"l\">128K sequential write</td>"
				     "<td>5 (assumed)</td><td>448.5</td><td>-</td>"));
	assert_non_null(strstr(html, "<td>0.075</td><td class=\"l\">4K random write, over 3 "
				     "years</td><td>3</td><td>20.2</td><td>-</td>"));
	/* density: 245.76 / 30 W, 20 per U */
	assert_non_null(strstr(html, "<td>8.19</td><td class=\"l\">1U, 20 E3 1T bays (4 rows "
				     "of 5)</td><td>20</td><td>4.92</td>"));
	/* the drive without a label, identity or sheet: dashes */
	assert_non_null(strstr(html, "<tr><td class=\"l\">-</td><td class=\"l\">-</td>"
				     "<td class=\"l\">-</td><td class=\"l\">-</td>"
				     "<td class=\"l\" colspan=\"8\">no spec sheet</td></tr>"));
	assert_non_null(strstr(html, "<tr><td class=\"l\">-</td><td>-</td><td class=\"l\">-</td>"
				     "<td>-</td><td>-</td><td>-</td></tr>"));
	assert_non_null(strstr(html, "<tr><td class=\"l\">-</td><td>-</td><td class=\"l\">-</td>"
				     "<td>-</td><td>-</td></tr>"));
	/* the formulas and the default term */
	assert_non_null(strstr(html, "else 5 years (assumed)"));
	free(html);
}

static void test_fragment_unknowns(void **state)
{
	struct drive_spec bare, rated;
	struct bench_host empty = { NULL, NULL, "", 0, 0, NULL, NULL };
	struct bench_drive drives[2] = {
		{ "bare", { "", "", "1234" }, &bare },
		{ "rated", { "m", "", "" }, &rated },
	};
	struct fragment f = { NULL, 0, drives, 2 };
	char *html;
	(void)state;

	assert_int_equal(spec_parse("[drive]\nmodel = bare\n[rated]\npbw = 9\n", "x.ini",
				    &bare), 0);
	assert_int_equal(spec_parse("[drive]\nmodel = r\ncapacity_tb = 20\nnand_layers = 176\n"
				    "uber = 2e-17\nwarranty_years = 3\nform_factor = M.2\n"
				    "[rated]\ndwpd = 1\npbw = 22\n", "x.ini", &rated), 0);
	/* no host: one row of dashes */
	html = draw(&f);
	assert_non_null(strstr(html, "<tr><td class=\"l\">-</td><td class=\"l\">-</td><td class=\"l\">-</td><td>-</td>"
				     "<td>-</td><td class=\"l\">-</td><td class=\"l\">-</td></tr>"));
	/* a 4-character serial is all masked */
	assert_non_null(strstr(html, "<td class=\"l\">****</td>"));
	/* a bare sheet: every record field "-", its PBW as rated */
	assert_non_null(strstr(html, "<td class=\"l\">bare</td><td>-</td><td class=\"l\">-</td>"
				     "<td class=\"l\">-</td><td class=\"l\">-</td><td>-</td>"
				     "<td>-</td><td>-</td></tr>"));
	assert_non_null(strstr(html, "<tr><td class=\"l\">bare</td><td>-</td><td class=\"l\">-</td>"
				     "<td>-</td><td>-</td><td>9</td></tr>"));
	/* layers without a type; a rate that is not a power of ten; the
	 * warranty as the term; no workload stated; an unknown form factor */
	assert_non_null(strstr(html, "<td class=\"l\">176 layers</td>"));
	assert_non_null(strstr(html, "<td>2e-17 sectors per bit read</td><td>3</td>"));
	assert_non_null(strstr(html, "<td>1</td><td class=\"l\">-</td><td>3</td><td>21.9</td>"
				     "<td>22</td>"));
	assert_non_null(strstr(html, "<tr><td class=\"l\">rated</td><td>-</td>"
				     "<td class=\"l\">-</td><td>-</td><td>-</td></tr>"));
	free(html);

	/* a host with nothing known */
	f.hosts = &empty;
	f.nr_hosts = 1;
	html = draw(&f);
	assert_int_equal(count(html, "<tr><td class=\"l\">-</td><td class=\"l\">-</td><td class=\"l\">-</td><td>-</td>"
				     "<td>-</td><td class=\"l\">-</td><td class=\"l\">-</td></tr>"), 1);
	free(html);
}

static void test_write_error(void **state)
{
	struct bench_drive d = { "x", { "", "", "" }, NULL };
	FILE *full = fopen("/dev/full", "w");
	(void)state;

	if (!full)
		skip();
	assert_int_equal(html_bench_section(full, NULL, 0, &d, 1), -1);
	assert_non_null(strstr(err_msg(), "writing the bench and drives section failed"));
	fclose(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask_serial),
		cmocka_unit_test(test_id_from_snapshot),
		cmocka_unit_test(test_id_from_results),
		cmocka_unit_test(test_fragment),
		cmocka_unit_test(test_fragment_unknowns),
		cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
