/* test_util.c - the shared helpers of src/util: error messages (err_prefix
 * never names a context twice, err_errno_text says "verify failed" for
 * fio's verify code) and the bounded text reader every parser uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

static void prefix_is_added_once(void **state)
{
	(void)state;
	err_set("size 0");
	err_prefix("job '%s'", "j");
	assert_string_equal(err_msg(), "job 'j': size 0");
	/* a layer above names the job again: nothing doubles */
	err_prefix("job '%s'", "j");
	assert_string_equal(err_msg(), "job 'j': size 0");
	err_prefix("a.fio:3");
	assert_string_equal(err_msg(), "a.fio:3: job 'j': size 0");
	/* another job's name, or a longer name sharing the start, is a prefix */
	err_set("job 'jj': size 0");
	err_prefix("job '%s'", "j");
	assert_string_equal(err_msg(), "job 'j': job 'jj': size 0");
	err_set("x.json: bad");
	err_prefix("x.json");
	assert_string_equal(err_msg(), "x.json: bad");
}

static void verify_code_reads_verify_failed(void **state)
{
	(void)state;
	assert_string_equal(err_errno_text(EILSEQ), "verify failed");
	assert_string_equal(err_errno_text(-EILSEQ), "verify failed");
	assert_string_equal(err_errno_text(-EIO), strerror(EIO));
	assert_string_equal(err_errno_text(ENOSPC), strerror(ENOSPC));
}

static void sizes_read_in_units_that_fit(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(text_format_bytes(0, b, sizeof(b)), "0 bytes");
	assert_string_equal(text_format_bytes(1, b, sizeof(b)), "1 byte");
	assert_string_equal(text_format_bytes(1023, b, sizeof(b)), "1023 bytes");
	assert_string_equal(text_format_bytes(4096, b, sizeof(b)), "4.00 KiB");
	assert_string_equal(text_format_bytes(1536, b, sizeof(b)), "1.50 KiB");
	assert_string_equal(text_format_bytes(3ull << 20, b, sizeof(b)), "3.00 MiB");
	assert_string_equal(text_format_bytes((1ull << 30) + 1, b, sizeof(b)), "1.00 GiB");
	assert_string_equal(text_format_bytes(1ull << 60, b, sizeof(b)), "1.00 EiB");
	assert_string_equal(text_format_bytes(UINT64_MAX, b, sizeof(b)), "16.00 EiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prefix_is_added_once),
		cmocka_unit_test(verify_code_reads_verify_failed),
		cmocka_unit_test(sizes_read_in_units_that_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
