/* test_spec.c - the spec sheet's drive record and DWPD ratings (the keys
 * docs/report.md's "Spec sheets" adds to the rated figures test_report.c
 * covers): form factor, NAND, MTBF, UBER, warranty, dwpd_workload and the
 * dwpd_<workload> ratings, their spellings and every error they have, and
 * the five sheets in specs/ as filled from the reviews. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/spec.h"
#include "util/error.h"

static const char record_sheet[] =
	"[drive]\nmodel = Solidigm D5-P5336 122.88TB\ncapacity_tb = 122.88\n"
	"form_factor = U.2 15mm, E1.L 9.5mm\nnand = QLC\nnand_layers = 192\n"
	"mtbf_hours = 2000000\nuber = 1e-17\nwarranty_years = 5\n"
	"[rated]\ndwpd = 0.6\npbw = 134.3\ndwpd_workload = rand32k\n"
	"dwpd_seq128k = 1.0\ndwpd_rand4k_3y = 0.075\ndwpd_3y = 4.98\n";

static void test_record_keys(void **state)
{
	struct drive_spec s;
	(void)state;

	assert_int_equal(spec_parse(record_sheet, "x.ini", &s), 0);
	assert_string_equal(s.form_factor, "U.2 15mm, E1.L 9.5mm");
	assert_string_equal(s.nand, "QLC");
	assert_int_equal(s.nand_layers, 192);
	assert_true(s.mtbf_hours == 2e6);
	assert_true(s.uber == 1e-17);
	assert_true(s.warranty_years == 5);
	assert_true(s.dwpd == 0.6 && s.pbw == 134.3);
	assert_int_equal(s.dwpd_workload.writes, SPEC_WRITES_RAND);
	assert_int_equal(s.dwpd_workload.bs, 32768);
	assert_int_equal(s.dwpd_workload.years, 0);
	assert_int_equal(s.nr_dwpd_more, 3);
	assert_true(s.dwpd_more[0].dwpd == 1.0);
	assert_int_equal(s.dwpd_more[0].workload.writes, SPEC_WRITES_SEQ);
	assert_int_equal(s.dwpd_more[0].workload.bs, 131072);
	assert_true(s.dwpd_more[1].dwpd == 0.075);
	assert_int_equal(s.dwpd_more[1].workload.bs, 4096);
	assert_int_equal(s.dwpd_more[1].workload.years, 3);
	assert_int_equal(s.dwpd_more[2].workload.writes, SPEC_WRITES_ANY);
	assert_int_equal(s.dwpd_more[2].workload.bs, 0);
	assert_int_equal(s.dwpd_more[2].workload.years, 3);

	/* absent keys stay "not rated" */
	assert_int_equal(spec_parse("[drive]\nmodel = a\n[rated]\n", "x.ini", &s), 0);
	assert_string_equal(s.form_factor, "");
	assert_string_equal(s.nand, "");
	assert_true(s.nand_layers == 0 && s.mtbf_hours == 0 && s.uber == 0 &&
		    s.warranty_years == 0 && s.nr_dwpd_more == 0);
	assert_int_equal(s.dwpd_workload.writes, SPEC_WRITES_ANY);
}

static void test_dwpd_list(void **state)
{
	struct drive_spec s;
	struct spec_dwpd list[SPEC_DWPD_MAX + 1];
	(void)state;

	assert_int_equal(spec_parse(record_sheet, "x.ini", &s), 0);
	assert_int_equal(spec_dwpd_list(&s, list, SPEC_DWPD_MAX + 1), 4);
	assert_true(list[0].dwpd == 0.6 && list[0].workload.bs == 32768);
	assert_true(list[1].dwpd == 1.0 && list[3].dwpd == 4.98);
	/* max bounds what is written, not the count */
	assert_int_equal(spec_dwpd_list(&s, list, 1), 4);
	/* no headline: the ratings alone */
	assert_int_equal(spec_parse("[drive]\nmodel = a\n[rated]\ndwpd_rand4k = 0.1\n",
				    "x.ini", &s), 0);
	assert_int_equal(spec_dwpd_list(&s, list, SPEC_DWPD_MAX + 1), 1);
	assert_true(list[0].dwpd == 0.1);
	assert_int_equal(spec_parse("[drive]\nmodel = a\n", "x.ini", &s), 0);
	assert_int_equal(spec_dwpd_list(&s, list, SPEC_DWPD_MAX + 1), 0);
}

static void workload_is(const char *text, enum spec_writes writes, uint64_t bs, unsigned years)
{
	struct spec_workload w;

	if (spec_workload_parse(text, &w) < 0)
		fail_msg("'%s': %s", text, err_msg());
	assert_int_equal(w.writes, writes);
	assert_int_equal(w.bs, bs);
	assert_int_equal(w.years, years);
}

static void test_workload_spellings(void **state)
{
	static const char *const bad[] = {
		"", "seq_", "rand0k", "rand04k", "rand4", "rand4kb", "randk", "rand4k_",
		"rand4k3y", "4k", "y", "0y", "100y", "3", "_3y", "rand_", "rand_3", "RAND4K",
		"sequential", "rand4k_3y_", "rand2000000k", "rand 4k", "seq128k_3yy",
	};
	struct spec_workload w;
	(void)state;

	workload_is("seq", SPEC_WRITES_SEQ, 0, 0);
	workload_is("rand", SPEC_WRITES_RAND, 0, 0);
	workload_is("rand4k", SPEC_WRITES_RAND, 4096, 0);
	workload_is("rand16k", SPEC_WRITES_RAND, 16384, 0);
	workload_is("seq128k", SPEC_WRITES_SEQ, 131072, 0);
	workload_is("seq1m", SPEC_WRITES_SEQ, 1048576, 0);
	workload_is("rand16k_3y", SPEC_WRITES_RAND, 16384, 3);
	workload_is("rand_5y", SPEC_WRITES_RAND, 0, 5);
	workload_is("3y", SPEC_WRITES_ANY, 0, 3);
	workload_is("99y", SPEC_WRITES_ANY, 0, 99);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (spec_workload_parse(bad[i], &w) == 0)
			fail_msg("'%s' parsed as a workload", bad[i]);
		assert_non_null(strstr(err_msg(), "is not a workload"));
		/* a refused spelling leaves nothing behind */
		assert_true(w.writes == SPEC_WRITES_ANY && w.bs == 0 && w.years == 0);
	}
}

static void name_is(const char *text, const char *name)
{
	struct spec_workload w;
	char buf[96];

	assert_int_equal(spec_workload_parse(text, &w), 0);
	spec_workload_name(&w, buf, sizeof(buf));
	assert_string_equal(buf, name);
}

static void test_workload_names(void **state)
{
	struct spec_workload none = { SPEC_WRITES_ANY, 0, 0 };
	char buf[96], small[8];
	(void)state;

	name_is("rand32k", "32K random write");
	name_is("seq128k", "128K sequential write");
	name_is("seq1m", "1M sequential write");
	name_is("seq1536k", "1536K sequential write");
	name_is("rand", "random write");
	name_is("rand4k_3y", "4K random write, over 3 years");
	name_is("seq_1y", "sequential write, over 1 year");
	name_is("3y", "over 3 years");
	spec_workload_name(&none, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* short buffers truncate, never overflow */
	assert_int_equal(spec_workload_parse("rand16k_3y", &none), 0);
	spec_workload_name(&none, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	spec_workload_name(&none, small, 0);
}

static void expect_error(const char *text, const char *message)
{
	struct drive_spec s;

	assert_int_equal(spec_parse(text, "x.ini", &s), -1);
	if (!strstr(err_msg(), message))
		fail_msg("error '%s' lacks '%s'", err_msg(), message);
}

#define DRIVE "[drive]\nmodel = a\n"

static void test_errors(void **state)
{
	char many[1024] = DRIVE "[rated]\n";
	char long_ff[256];
	(void)state;

	/* unknown keys: the DWPD spelling is named */
	expect_error(DRIVE "[rated]\ndwpd_fast = 1\n",
		     "x.ini:4:dwpd_fast: unknown key in [rated] (a DWPD rating is dwpd_<workload>");
	expect_error(DRIVE "dwpd_rand4k = 1\n", "x.ini:3:dwpd_rand4k: unknown key in [drive]");
	{
		struct drive_spec s;
		assert_int_equal(spec_parse(DRIVE "dwpd_rand4k = 1\n", "x.ini", &s), -1);
		assert_null(strstr(err_msg(), "a DWPD rating is"));
	}
	expect_error(DRIVE "[rated]\nfactor = 1\n", "x.ini:4:factor: unknown key in [rated]");
	expect_error(DRIVE "[rated]\nform_factor = U.2\n",
		     "x.ini:4:form_factor: unknown key in [rated]");
	/* duplicates: the same key, the same workload spelt twice, the
	 * headline's workload given as a rating too (either order) */
	expect_error(DRIVE "[rated]\ndwpd_rand4k = 1\ndwpd_rand4k = 2\n",
		     "x.ini:5:dwpd_rand4k: duplicate key (the workload of line 4)");
	expect_error(DRIVE "[rated]\ndwpd_seq1024k = 1\ndwpd_seq1m = 2\n",
		     "x.ini:5:dwpd_seq1m: duplicate key (the workload of line 4)");
	expect_error(DRIVE "[rated]\ndwpd = 1\ndwpd_workload = rand16k\ndwpd_rand16k = 1\n",
		     "x.ini:6:dwpd_rand16k: the headline dwpd's workload (dwpd_workload, line 5)");
	expect_error(DRIVE "[rated]\ndwpd_rand16k = 1\ndwpd = 1\ndwpd_workload = rand16k\n",
		     "x.ini:6:dwpd_workload: the workload of the rating on line 4");
	expect_error(DRIVE "[rated]\ndwpd = 1\ndwpd_workload = rand\ndwpd_workload = seq\n",
		     "x.ini:6:dwpd_workload: duplicate key");
	expect_error(DRIVE "nand = QLC\nnand = TLC\n", "x.ini:4:nand: duplicate key");
	/* [model] and [fit] are the model's; any other section is refused */
	expect_error(DRIVE "[fit]\nseq_write_mbs = 1\n[fitted]\n",
		     "x.ini:5: unknown section [fitted] (known: drive, rated)");
	/* bad values */
	expect_error(DRIVE "[rated]\ndwpd_rand4k = fast\n",
		     "x.ini:4:dwpd_rand4k: 'fast' is not a positive number");
	expect_error(DRIVE "[rated]\ndwpd_rand4k = 0\n", "x.ini:4:dwpd_rand4k: '0' is not a positive");
	expect_error(DRIVE "[rated]\ndwpd_rand4k = -1\n", "x.ini:4:dwpd_rand4k: '-1'");
	expect_error(DRIVE "[rated]\ndwpd_rand4k = 1 DWPD\n", "x.ini:4:dwpd_rand4k: '1 DWPD'");
	expect_error(DRIVE "[rated]\ndwpd_rand4k = inf\n", "x.ini:4:dwpd_rand4k: 'inf'");
	expect_error(DRIVE "[rated]\ndwpd_rand4k =\n", "x.ini:4:dwpd_rand4k: empty value");
	expect_error(DRIVE "[rated]\ndwpd = 1\ndwpd_workload = random\n",
		     "x.ini:5:dwpd_workload: 'random' is not a workload");
	expect_error(DRIVE "[rated]\ndwpd_workload = rand\n",
		     "x.ini:4:dwpd_workload: names the headline rating's workload, but the "
		     "sheet has no dwpd");
	expect_error(DRIVE "[rated]\ndwpd = 0\ndwpd_workload = rand\n",
		     "x.ini:5:dwpd_workload: names the headline");
	expect_error(DRIVE "uber = 1\n", "x.ini:3:uber: '1' is not an error rate per bit read");
	expect_error(DRIVE "uber = 1 sector per 10^17 bits read\n",
		     "x.ini:3:uber: '1 sector per 10^17 bits read' is not a number");
	expect_error(DRIVE "uber = -1e-17\n", "x.ini:3:uber: '-1e-17' is not a non-negative");
	expect_error(DRIVE "nand_layers = 1.5\n", "x.ini:3:nand_layers: '1.5' is not a whole");
	expect_error(DRIVE "mtbf_hours = 2 million\n", "x.ini:3:mtbf_hours: '2 million'");
	expect_error(DRIVE "warranty_years = five\n", "x.ini:3:warranty_years: 'five'");
	snprintf(long_ff, sizeof(long_ff), DRIVE "form_factor = %064d\n", 0);
	expect_error(long_ff, "x.ini:3:form_factor: value longer than 63 characters");
	/* at most SPEC_DWPD_MAX ratings */
	for (unsigned i = 1; i <= SPEC_DWPD_MAX + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "dwpd_rand%uk = 1\n", i);
	expect_error(many, "x.ini:12:dwpd_rand9k: more than 8 dwpd_<workload> ratings");
	/* the eighth still fits */
	*strstr(many, "dwpd_rand9k") = '\0';
	struct drive_spec s;
	assert_int_equal(spec_parse(many, "x.ini", &s), 0);
	assert_int_equal(s.nr_dwpd_more, SPEC_DWPD_MAX);
}

/* The sheets in specs/ carry what their reviews give (each header names
 * its seed), and nothing the review does not. */
static void load(const char *file, struct drive_spec *s)
{
	char path[256];

	snprintf(path, sizeof(path), "specs/%s", file);
	if (spec_load(path, s, NULL) < 0)
		fail_msg("%s", err_msg());
}

static void test_shipped_sheets(void **state)
{
	struct drive_spec s;
	(void)state;

	/* seeds/000, the Italian review */
	load("solidigm-d5-p5336-122t.ini", &s);
	assert_string_equal(s.form_factor, "U.2 15mm, E1.L 9.5mm");
	assert_string_equal(s.nand, "QLC");
	assert_int_equal(s.nand_layers, 192);
	assert_true(s.mtbf_hours == 2e6 && s.uber == 1e-17 && s.warranty_years == 5);
	assert_true(s.dwpd == 0.6 && s.pbw == 134.3);
	assert_int_equal(s.dwpd_workload.writes, SPEC_WRITES_RAND);
	assert_int_equal(s.dwpd_workload.bs, 32768);
	assert_int_equal(s.nr_dwpd_more, 0);

	/* seeds/001, the Russian review */
	load("solidigm-d7-ps1030-12t.ini", &s);
	assert_string_equal(s.form_factor, "E3.S, U.2");
	assert_string_equal(s.nand, "TLC");
	assert_int_equal(s.nand_layers, 176);
	assert_true(s.mtbf_hours == 2.5e6 && s.uber == 1e-18 && s.warranty_years == 5);
	assert_true(s.power_active_w == 23 && s.power_idle_w == 5);
	assert_true(s.dwpd == 3 && s.pbw == 70);
	assert_int_equal(s.dwpd_workload.writes, SPEC_WRITES_ANY);
	assert_int_equal(s.nr_dwpd_more, 1);
	assert_true(s.dwpd_more[0].dwpd == 4.98);
	assert_int_equal(s.dwpd_more[0].workload.years, 3);
	/* its [fit] (the measured 6,679.7 MB/s) is the model's, not the rating */
	assert_true(s.seq_write_mbs == 10000);

	/* seeds/002, the Japanese review: no MTBF */
	load("solidigm-d5-p5430-30t.ini", &s);
	assert_string_equal(s.form_factor, "E3.S 7.5mm, U.2 15mm, E1.S 9.5mm");
	assert_int_equal(s.nand_layers, 192);
	assert_true(s.mtbf_hours == 0 && s.uber == 1e-17 && s.warranty_years == 5);
	assert_true(s.dwpd == 0.58 && s.pbw == 31.92);
	assert_int_equal(s.dwpd_workload.writes, SPEC_WRITES_RAND);
	assert_int_equal(s.dwpd_workload.bs, 0);

	/* seeds/003, the Portuguese review: no layers, no PBW */
	load("dapustor-j5060-61t.ini", &s);
	assert_string_equal(s.form_factor, "U.2 15mm");
	assert_string_equal(s.nand, "QLC");
	assert_int_equal(s.nand_layers, 0);
	assert_true(s.mtbf_hours == 2e6 && s.uber == 1e-17 && s.warranty_years == 5);
	assert_true(s.dwpd == 0.5 && s.pbw == 0);

	/* seeds/004, the Polish review: no layers, no warranty; three ratings */
	load("micron-6600-ion-245t.ini", &s);
	assert_string_equal(s.form_factor, "E3.L 9.5mm, U.2 15mm");
	assert_string_equal(s.nand, "G9 QLC");
	assert_int_equal(s.nand_layers, 0);
	assert_true(s.mtbf_hours == 2.5e6 && s.uber == 1e-17 && s.warranty_years == 0);
	assert_true(s.dwpd == 0.3);
	assert_int_equal(s.dwpd_workload.bs, 16384);
	assert_int_equal(s.nr_dwpd_more, 2);
	assert_true(s.dwpd_more[0].dwpd == 1.0);
	assert_int_equal(s.dwpd_more[0].workload.writes, SPEC_WRITES_SEQ);
	assert_int_equal(s.dwpd_more[0].workload.bs, 131072);
	assert_true(s.dwpd_more[1].dwpd == 0.075);
	assert_int_equal(s.dwpd_more[1].workload.bs, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_keys),
		cmocka_unit_test(test_dwpd_list),
		cmocka_unit_test(test_workload_spellings),
		cmocka_unit_test(test_workload_names),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_shipped_sheets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
