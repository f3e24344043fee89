/* test_endurance.c - the figures derived from a drive's sheet
 * (report/analysis/endurance.h): PBW over a rating's term, the DWPD a sustained
 * write rate asks of an array, TB per watt, PB per rack unit, and their
 * plausibility against the figures the reviews print (../shared/seeds/:
 * every review number here is an assertion, none is in the code). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/endurance.h"
#include "report/analysis/spec.h"
#include "util/error.h"

/* |got - want| within pct percent of want */
static void near_pct(double got, double want, double pct)
{
	if (!(fabs(got - want) <= fabs(want) * pct / 100))
		fail_msg("%g is not within %g%% of %g", got, pct, want);
}

static void test_pbw(void **state)
{
	(void)state;
	/* DWPD x TB x 365 x years / 1000 */
	near_pct(endurance_pbw(1, 1000, 1), 365, 1e-9);
	near_pct(endurance_pbw(0.5, 61.44, 5), 0.5 * 61.44 * 365 * 5 / 1000, 1e-9);
	/* no term: the default five years */
	assert_true(ENDURANCE_DEFAULT_YEARS == 5);
	near_pct(endurance_pbw(1, 10, 0), endurance_pbw(1, 10, 5), 1e-9);
	near_pct(endurance_pbw(1, 10, -2), endurance_pbw(1, 10, 5), 1e-9);
	near_pct(endurance_pbw(1, 10, NAN), endurance_pbw(1, 10, 5), 1e-9);
	assert_true(isnan(endurance_pbw(0, 10, 5)));
	assert_true(isnan(endurance_pbw(-1, 10, 5)));
	assert_true(isnan(endurance_pbw(1, 0, 5)));
	assert_true(isnan(endurance_pbw(NAN, 10, 5)));
}

static void test_term(void **state)
{
	struct drive_spec s;
	struct spec_workload three = { SPEC_WRITES_RAND, 4096, 3 }, none = { 0, 0, 0 };
	bool assumed;
	(void)state;

	memset(&s, 0, sizeof(s));
	assert_true(endurance_term_years(&s, &three, &assumed) == 3 && !assumed);
	assert_true(endurance_term_years(&s, &none, &assumed) == 5 && assumed);
	assert_true(endurance_term_years(&s, NULL, &assumed) == 5 && assumed);
	assert_true(endurance_term_years(NULL, NULL, &assumed) == 5 && assumed);
	s.warranty_years = 3;
	assert_true(endurance_term_years(&s, &none, &assumed) == 3 && !assumed);
	s.warranty_years = 5;
	/* a rating's own term beats the warranty */
	assert_true(endurance_term_years(&s, &three, &assumed) == 3 && !assumed);
}

/* METHODOLOGY.md section 7 and the Russian review (seeds/001): eight
 * 12.8 TB drives absorbing 1.9 GB/s around the clock is about 1.6 DWPD
 * each striped (RAID0), 3.2 mirrored. */
static void test_dwpd_from_rate(void **state)
{
	(void)state;
	double striped = endurance_dwpd_from_rate(1900, 8, 12.8, 1);
	double mirrored = endurance_dwpd_from_rate(1900, 8, 12.8, 2);

	assert_true(fabs(striped - 1.6) < 0.05);
	assert_true(fabs(mirrored - 3.2) < 0.05);
	near_pct(mirrored, 2 * striped, 1e-9);
	/* one drive written at capacity / day: 1 DWPD */
	near_pct(endurance_dwpd_from_rate(1e6 / 86400, 1, 1, 1), 1, 1e-9);
	assert_true(endurance_dwpd_from_rate(0, 8, 12.8, 1) == 0);
	assert_true(isnan(endurance_dwpd_from_rate(-1, 8, 12.8, 1)));
	assert_true(isnan(endurance_dwpd_from_rate(1900, 0, 12.8, 1)));
	assert_true(isnan(endurance_dwpd_from_rate(1900, 8, 0, 1)));
	assert_true(isnan(endurance_dwpd_from_rate(1900, 8, 12.8, 0)));
	assert_true(isnan(endurance_dwpd_from_rate(INFINITY, 8, 12.8, 1)));
	assert_true(isnan(endurance_dwpd_from_rate(1900, 8, 12.8, INFINITY)));
	assert_true(isnan(endurance_dwpd_from_rate(NAN, 8, 12.8, 1)));
}

static void test_tb_per_watt(void **state)
{
	(void)state;
	/* the Polish review (seeds/004): 245.76 TB at 30 W is about 8.2 TB
	 * per watt; its 44 TB hard disk at 10 W about 4.4 */
	assert_true(fabs(endurance_tb_per_watt(245.76, 30) - 8.2) < 0.05);
	assert_true(fabs(endurance_tb_per_watt(44, 10) - 4.4) < 0.05);
	assert_true(isnan(endurance_tb_per_watt(0, 30)));
	assert_true(isnan(endurance_tb_per_watt(245.76, 0)));
	assert_true(isnan(endurance_tb_per_watt(245.76, -1)));
}

static void chassis_is(const char *text, const char *form_factor)
{
	const struct endurance_chassis *c = endurance_chassis_of(text);

	if (!form_factor) {
		if (c)
			fail_msg("'%s' counted as %s", text ? text : "(null)", c->form_factor);
		return;
	}
	if (!c || strcmp(c->form_factor, form_factor))
		fail_msg("'%s' is not counted as %s", text ? text : "(null)", form_factor);
}

static void test_chassis(void **state)
{
	unsigned nr;
	const struct endurance_chassis *t = endurance_chassis_table(&nr);
	(void)state;

	/* the first form factor named is the one counted */
	chassis_is("U.2 15mm, E1.L 9.5mm", "U.2");
	chassis_is("E3.S 7.5mm, U.2 15mm, E1.S 9.5mm", "E3.S");
	chassis_is("E3.L 9.5mm, U.2 15mm", "E3.L");
	chassis_is("E3.S, U.2", "E3.S");
	chassis_is("  e1.s 9.5mm", "E1.S");
	chassis_is("E1.L", "E1.L");
	chassis_is("U.3", "U.3");
	chassis_is("2.5\" 15mm", "2.5");
	chassis_is("2.5-inch", "2.5");
	chassis_is("M.2 22110", NULL);
	chassis_is("add-in card", NULL);
	chassis_is("U.25", NULL);
	chassis_is("E3.SX", NULL);
	chassis_is("E3.S.2", NULL);
	chassis_is("", NULL);
	chassis_is(NULL, NULL);
	/* the assumptions docs/report.md states */
	assert_int_equal(nr, 7);
	for (unsigned i = 0; i < nr; i++) {
		double per_u = (double)t[i].drives / t[i].units;

		if (!strcmp(t[i].form_factor, "U.2") || !strcmp(t[i].form_factor, "U.3") ||
		    !strcmp(t[i].form_factor, "2.5"))
			assert_true(t[i].drives == 24 && t[i].units == 2);
		else if (!strncmp(t[i].form_factor, "E1", 2))
			assert_true(t[i].drives == 32 && t[i].units == 1);
		else
			assert_true(t[i].drives == 20 && t[i].units == 1);
		assert_true(per_u > 0 && t[i].chassis[0]);
	}
}

static void test_rack(void **state)
{
	const struct endurance_chassis *e3l = endurance_chassis_of("E3.L");
	const struct endurance_chassis *u2 = endurance_chassis_of("U.2");
	(void)state;

	/* the Polish review (seeds/004): 720 E3.L drives of 245.76 TB hold
	 * 176.9 PB; the same count of 44 TB hard disks 31.7 PB */
	assert_true(fabs(endurance_pb(245.76, 720) - 176.9) < 0.05);
	assert_true(fabs(endurance_pb(44, 720) - 31.7) < 0.05);
	/* and at the E3.L chassis counted those 720 fit a 42U rack */
	double units = endurance_pb(245.76, 720) / endurance_pb_per_u(245.76, e3l);
	assert_true(units <= 42);
	near_pct(units, 36, 1e-9);
	/* U.2: 24 in 2U */
	near_pct(endurance_pb_per_u(61.44, u2), 61.44 * 12 / 1000, 1e-9);
	assert_true(isnan(endurance_pb_per_u(61.44, NULL)));
	assert_true(isnan(endurance_pb_per_u(0, u2)));
	assert_true(isnan(endurance_pb(0, 720)));
	assert_true(isnan(endurance_pb(1, -1)));
	struct endurance_chassis zero = { "X", 1, 0, "none" };
	assert_true(isnan(endurance_pb_per_u(1, &zero)));
}

static void load(const char *file, struct drive_spec *s, struct endurance_sheet *e)
{
	char path[256];

	snprintf(path, sizeof(path), "specs/%s", file);
	if (spec_load(path, s, NULL) < 0)
		fail_msg("%s", err_msg());
	endurance_of_sheet(s, e);
}

/* The derived figures of the sheets in specs/ against what their reviews
 * print. */
static void test_sheets_plausible(void **state)
{
	struct drive_spec s;
	struct endurance_sheet e;
	(void)state;

	/* seeds/000: 0.6 DWPD (32K random writes), 134.3 PBW over its 5-year
	 * warranty */
	load("solidigm-d5-p5336-122t.ini", &s, &e);
	assert_int_equal(e.nr_ratings, 1);
	assert_true(e.ratings[0].years == 5 && !e.ratings[0].years_assumed);
	near_pct(e.ratings[0].pbw, 134.3, 0.5);
	near_pct(e.ratings[0].pbw, s.pbw, 0.5);
	assert_string_equal(e.chassis->form_factor, "U.2");

	/* seeds/001: 3 DWPD over five years or 4.98 over three, 70 PB either
	 * way; 23 W active */
	load("solidigm-d7-ps1030-12t.ini", &s, &e);
	assert_int_equal(e.nr_ratings, 2);
	near_pct(e.ratings[0].pbw, 70, 0.5);
	assert_true(e.ratings[1].years == 3 && !e.ratings[1].years_assumed);
	near_pct(e.ratings[1].pbw, 70, 0.5);
	near_pct(e.tb_per_watt, 12.8 / 23, 1e-9);
	assert_string_equal(e.chassis->form_factor, "E3.S");
	/* its KV-cache tier asks about 1.6 DWPD striped, 3.2 mirrored: under
	 * and just over its 3 DWPD rating */
	assert_true(endurance_dwpd_from_rate(1900, 8, s.capacity_tb, 1) < s.dwpd);
	assert_true(endurance_dwpd_from_rate(1900, 8, s.capacity_tb, 2) > s.dwpd);

	/* seeds/002: 31.92 PBW, "0.58 DWPD over the 5-year warranty" (the
	 * review's pair agrees to 2%) */
	load("solidigm-d5-p5430-30t.ini", &s, &e);
	near_pct(e.ratings[0].pbw, 31.92, 2);
	assert_false(e.ratings[0].years_assumed);
	assert_string_equal(e.chassis->form_factor, "E3.S");

	/* seeds/003: 0.5 DWPD over five years; no PBW printed to check */
	load("dapustor-j5060-61t.ini", &s, &e);
	assert_true(e.ratings[0].years == 5 && !e.ratings[0].years_assumed);
	near_pct(e.ratings[0].pbw, 0.5 * 61.44 * 365 * 5 / 1000, 1e-9);
	near_pct(e.tb_per_watt, 61.44 / 23, 1e-9);

	/* seeds/004: no warranty given, so the term is assumed; three
	 * ratings; about 8.2 TB per watt */
	load("micron-6600-ion-245t.ini", &s, &e);
	assert_int_equal(e.nr_ratings, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_true(e.ratings[i].years == 5 && e.ratings[i].years_assumed);
	assert_true(e.ratings[0].rating.dwpd == 0.3 && e.ratings[1].rating.dwpd == 1.0 &&
		    e.ratings[2].rating.dwpd == 0.075);
	assert_true(fabs(e.tb_per_watt - 8.2) < 0.05);
	assert_string_equal(e.chassis->form_factor, "E3.L");
	near_pct(e.pb_per_u, 245.76 * 20 / 1000, 1e-9);
}

static void test_sheet_without_figures(void **state)
{
	struct drive_spec s;
	struct endurance_sheet e;
	(void)state;

	assert_int_equal(spec_parse("[drive]\nmodel = a\n", "x.ini", &s), 0);
	endurance_of_sheet(&s, &e);
	assert_int_equal(e.nr_ratings, 0);
	assert_true(isnan(e.tb_per_watt) && isnan(e.pb_per_u));
	assert_null(e.chassis);
	/* a rating without a capacity: no PBW */
	assert_int_equal(spec_parse("[drive]\nmodel = a\nform_factor = U.2\n"
				    "[rated]\ndwpd = 1\n", "x.ini", &s), 0);
	endurance_of_sheet(&s, &e);
	assert_int_equal(e.nr_ratings, 1);
	assert_true(isnan(e.ratings[0].pbw));
	assert_non_null(e.chassis);
	assert_true(isnan(e.pb_per_u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pbw),
		cmocka_unit_test(test_term),
		cmocka_unit_test(test_dwpd_from_rate),
		cmocka_unit_test(test_tb_per_watt),
		cmocka_unit_test(test_chassis),
		cmocka_unit_test(test_rack),
		cmocka_unit_test(test_sheets_plausible),
		cmocka_unit_test(test_sheet_without_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
