/* test_expr.c - fio's arithmetic in option values (workload/expr.c): the
 * reserved keywords and the bc-style evaluation after them, expressions in
 * parentheses for sizes, times and counts, and every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "job/expr.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/fixtures.h"

static void keywords_are_this_machines(void **state)
{
	char out[128], want[128];

	(void)state;
	assert_int_equal(expr_pagesize(), (uint64_t)sysconf(_SC_PAGESIZE));
	assert_true(expr_mb_memory() ==
		    (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) >> 20);
	assert_true(expr_ncpus() == (uint64_t)sysconf(_SC_NPROCESSORS_CONF));
	assert_int_equal(expr_keywords("4k", out, sizeof(out)), 0);
	assert_string_equal(out, "4k");
	assert_int_equal(expr_keywords("$pagesize", out, sizeof(out)), 1);
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE));
	assert_string_equal(out, want);
	/* with an operator the value is integer arithmetic, as bc's */
	assert_int_equal(expr_keywords("5*1024*1024*$mb_memory/8", out, sizeof(out)), 1);
	snprintf(want, sizeof(want), "%llu",
		 (unsigned long long)(5ull * 1024 * 1024 * expr_mb_memory() / 8));
	assert_string_equal(out, want);
	assert_int_equal(expr_keywords("$ncpus+1", out, sizeof(out)), 1);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)expr_ncpus() + 1);
	assert_string_equal(out, want);
	/* bc has no units: fio fails on $ncpus*4k, so does this */
	assert_int_equal(expr_keywords("$ncpus*4k", out, sizeof(out)), -1);
	assert_non_null(strstr(err_msg(), "'4k' is not a whole number"));
	assert_int_equal(expr_keywords("$pagesize", out, 3), -1);
}

static void options_take_keywords(void **state)
{
	struct job_spec *spec = new_spec();

	(void)state;
	assert_int_equal(job_option_set(spec, "bs", "$pagesize"), 0);
	assert_true(spec->bs[DIR_READ] == expr_pagesize());
	assert_int_equal(job_option_set(spec, "size", "8*$pagesize"), 0);
	assert_true(spec->size == 8 * expr_pagesize());
	assert_int_equal(job_option_set(spec, "numjobs", "$ncpus"), 0);
	assert_true(spec->numjobs == expr_ncpus());
	/* "job options" keeps the computed value, as fio's JSON does */
	assert_non_null(strstr(spec->options_text, "bs="));
	assert_null(strstr(spec->options_text, "$pagesize"));
	free(spec);
}

static void parentheses_are_expressions(void **state)
{
	struct job_spec *spec = new_spec();

	(void)state;
	assert_int_equal(job_option_set(spec, "size", "(4k*3)"), 0);
	assert_int_equal(spec->size, 12288);
	assert_int_equal(job_option_set(spec, "size", "(1+2)*4k"), 0);
	assert_int_equal(spec->size, 12288);
	assert_int_equal(job_option_set(spec, "size", "(10/3)k"), 0);
	assert_int_equal(spec->size, 3072);
	assert_int_equal(job_option_set(spec, "size", "(2^3^2)"), 0);   /* right to left */
	assert_int_equal(spec->size, 512);
	assert_int_equal(job_option_set(spec, "size", "(17 % 5 - -1)"), 0);
	assert_int_equal(spec->size, 3);
	assert_int_equal(job_option_set(spec, "iodepth", "(4*8)"), 0);
	assert_int_equal(spec->iodepth, 32);
	assert_int_equal(job_option_set(spec, "runtime", "(1+1)"), 0);   /* seconds */
	assert_true(spec->runtime_ns == 2000000000ull);
	assert_int_equal(job_option_set(spec, "runtime", "(1s+500ms)"), 0);
	assert_true(spec->runtime_ns == 1500000000ull);
	/* kb_base applies to the numbers inside */
	assert_int_equal(job_option_set(spec, "kb_base", "1000"), 0);
	assert_int_equal(job_option_set(spec, "size", "(2*1k)"), 0);
	assert_int_equal(spec->size, 2000);
	/* the range still applies to the result */
	assert_int_equal(job_option_set(spec, "iodepth", "(65536+1)"), -1);
	assert_non_null(strstr(err_msg(), "is too large, the range is 1..65536"));
	free(spec);
}

static void bad_expressions_are_named(void **state)
{
	static const char *const bad[][2] = {
		{ "(1+)", "a number is missing" },
		{ "((1)", "a ')' is missing" },
		{ "(1))", "a '(' is missing" },
		{ "(5-9)", "it is negative" },
		{ "(8/0)", "division by zero" },
		{ "(8%0)", "division by zero" },
		{ "(2^-1)", "a negative exponent" },
		{ "(2^200)", "a value is out of range" },
		{ "(2^64)", "it is above 2^64-1" },
		{ "(4q)", "bad size '4q'" },
		{ "(1) 2", "junk after it" },
		{ "(", "it ends too early" },
		{ "(1)kk", "bad size '1kk'" },
	};
	struct job_spec *spec = new_spec();
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err_clear();
		if (job_option_set(spec, "size", bad[i][0]) == 0)
			fail_msg("size=%s was accepted", bad[i][0]);
		if (!strstr(err_msg(), bad[i][1]))
			fail_msg("size=%s: '%s' lacks '%s'", bad[i][0], err_msg(), bad[i][1]);
	}
	/* nested too deep, and too long */
	{
		char deep[80];

		memset(deep, '(', 40);
		strcpy(deep + 40, "1");
		assert_int_equal(expr_eval(deep, NULL, NULL, &v), -1);
		assert_non_null(strstr(err_msg(), "nested too deep"));
	}
	{
		char *very = malloc(400);

		assert_non_null(very);
		memset(very, '1', 399);
		very[0] = '(';
		very[399] = '\0';
		assert_int_equal(job_option_set(spec, "size", very), -1);
		assert_non_null(strstr(err_msg(), "longer than 256 characters"));
		free(very);
	}
	/* fio without a keyword: no arithmetic (fio would read "2*4k" as 2) */
	assert_int_equal(job_option_set(spec, "size", "2*4k"), -1);
	free(spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keywords_are_this_machines),
		cmocka_unit_test(options_take_keywords),
		cmocka_unit_test(parentheses_are_expressions),
		cmocka_unit_test(bad_expressions_are_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
