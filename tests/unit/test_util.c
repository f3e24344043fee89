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
#include <unistd.h>

#include "util/env_expand.h"
#include "util/error.h"
#include "util/text.h"
#include "helpers/tmpdir.h"
#include "helpers/testfile.h"

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

/* text_format_bytes is units_format_bytes(UNITS_IEC) (test_units.c has
 * the styles), kept for run/runner.c. */
static void sizes_read_in_units_that_fit(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(text_format_bytes(1, b, sizeof(b)), "1 byte");
	assert_string_equal(text_format_bytes(1536, b, sizeof(b)), "1.50 KiB");
}

/* ${VAR}: fio's lenient rule for job files, the strict one for suites. */
static void env_is_expanded(void **state)
{
	char *out, name[300];

	(void)state;
	setenv("DB_TEST_DIR", "/mnt/x", 1);
	unsetenv("DB_TEST_UNSET");
	out = env_expand("filename=${DB_TEST_DIR}/f ${DB_TEST_DIR}", "a.fio", 3, false);
	assert_string_equal(out, "filename=/mnt/x/f /mnt/x");
	free(out);
	out = env_expand("filename=${DB_TEST_DIR}/f", "a.suite", 3, true);
	assert_string_equal(out, "filename=/mnt/x/f");
	free(out);
	out = env_expand("no variables, $HOME {x} $", "a.fio", 1, true);
	assert_string_equal(out, "no variables, $HOME {x} $");
	free(out);

	/* job files, as fio: ${} and a variable set to nothing are empty, an
	 * open ${ stays; unlike fio, an unset variable is an error (it would
	 * move filename=${DIR}/f to /f) */
	setenv("DB_TEST_EMPTY", "", 1);
	out = env_expand("a=${DB_TEST_EMPTY}b${}c ${open", "a.fio", 2, false);
	assert_string_equal(out, "a=bc ${open");
	free(out);
	assert_null(env_expand("a=${DB_TEST_UNSET}b", "a.fio", 2, false));
	assert_string_equal(err_msg(), "a.fio:2: environment variable 'DB_TEST_UNSET' is not set");
	unsetenv("DB_TEST_EMPTY");

	/* suites: each of those is an error naming file:line */
	assert_null(env_expand("a=${DB_TEST_UNSET}b", "s.suite", 4, true));
	assert_string_equal(err_msg(), "s.suite:4: environment variable 'DB_TEST_UNSET' is not set");
	assert_null(env_expand("a=${}", "s.suite", 5, true));
	assert_string_equal(err_msg(), "s.suite:5: bad ${VAR} in '${}'");
	assert_null(env_expand("a=${open x", "s.suite", 6, true));
	assert_string_equal(err_msg(), "s.suite:6: bad ${VAR} in '${open x'");
	memset(name, 'A', sizeof(name));
	memcpy(name, "${", 2);
	memcpy(name + 258, "}", 2);   /* a 256-byte name, then the end */
	assert_null(env_expand(name, "s.suite", 7, true));
	assert_non_null(strstr(err_msg(), "s.suite:7: bad ${VAR} in '${AAAA"));
	/* the same long name in a job file is only unset: refused as such */
	assert_null(env_expand(name, "a.fio", 7, false));
	assert_non_null(strstr(err_msg(), "a.fio:7: environment variable 'AAAA"));
}

/* Lines come back whole; a BOM only at the start; limits are errors. */
static void reader_is_bounded(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	struct text_reader r;
	char *line, *big;
	int fd = tmp_file("drivebench-text", path, sizeof(path));

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	file_write(path, "\xEF\xBB\xBF[a]\n\xEF\xBB\xBF" "b\nlast", 16);
	assert_int_equal(text_reader_open(&r, path, "job file"), 0);
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_string_equal(line, "[a]");
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_string_equal(line, "\xEF\xBB\xBF" "b");   /* only the first line's */
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_string_equal(line, "last");                /* no newline at the end */
	assert_int_equal(r.line, 3);
	assert_int_equal(text_reader_next(&r, &line), 0);
	text_reader_close(&r);

	file_write(path, "a\nb\0c\n", 6);
	assert_int_equal(text_reader_open(&r, path, "suite file"), 0);
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_int_equal(text_reader_next(&r, &line), -1);
	assert_non_null(strstr(err_msg(), ":2: binary data in suite file (a NUL byte)"));
	text_reader_close(&r);

	big = malloc(TEXT_LINE_MAX + 2);
	assert_non_null(big);
	memset(big, 'x', TEXT_LINE_MAX + 1);
	file_write(path, big, TEXT_LINE_MAX + 1);
	assert_int_equal(text_reader_open(&r, path, "job file"), 0);
	assert_int_equal(text_reader_next(&r, &line), -1);
	assert_non_null(strstr(err_msg(), ":1: line longer than 65536 bytes"));
	text_reader_close(&r);
	free(big);

	file_write(path, "a\nbb\nccc\n", 9);
	assert_int_equal(text_reader_open(&r, path, "job file"), 0);
	r.limit = 5;
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_int_equal(text_reader_next(&r, &line), 1);
	assert_int_equal(text_reader_next(&r, &line), -1);
	assert_non_null(strstr(err_msg(), "larger than 0 MiB, not a job file"));
	text_reader_close(&r);
	unlink(path);

	/* a directory is refused when opened (only regular files are read) */
	assert_int_equal(text_reader_open(&r, "/", "job file"), -1);
	assert_string_equal(err_msg(), "cannot read job file '/': Is a directory");
	assert_int_equal(text_reader_open(&r, "/nonexistent/x", "job file"), -1);
	assert_string_equal(err_msg(), "cannot read job file '/nonexistent/x': No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prefix_is_added_once),
		cmocka_unit_test(verify_code_reads_verify_failed),
		cmocka_unit_test(sizes_read_in_units_that_fit),
		cmocka_unit_test(env_is_expanded),
		cmocka_unit_test(reader_is_bounded),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
