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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prefix_is_added_once),
		cmocka_unit_test(verify_code_reads_verify_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
