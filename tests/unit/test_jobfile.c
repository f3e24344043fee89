/* test_jobfile.c - fio job files: [global] scoping, job sections, comments,
 * include, ${VAR}, stonewall, and every error with its file:line. Each test
 * writes its files into a fresh temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "job/job_list.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

struct fixture {
	struct tmpdir tmp;
	const char *dir;   /* tmp.path */
};

static int make_dir(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || tmpdir_make(&f->tmp, NULL, "drivebench_jobfile")) {
		free(f);
		return -1;
	}
	f->dir = f->tmp.path;
	*state = f;
	return 0;
}

static int remove_dir(void **state)
{
	struct fixture *f = *state;
	int rc = tmpdir_remove(&f->tmp);

	free(f);
	return rc;
}

/* Writes DIR/name and returns its full path in path (PATH_SIZE bytes). */
#define PATH_SIZE 256
static void write_file(const struct fixture *f, const char *name, const char *text,
		       char *path)
{
	file_write_text(tmpdir_join(&f->tmp, name, path, PATH_SIZE), text);
}

static void load_ok(const char *path, struct job_list *list)
{
	if (jobfile_load(path, list) != 0)
		fail_msg("jobfile_load(%s): %s", path, err_msg());
}

/* Loading must fail; the message, after the directory, must be expected. */
static void load_fails(const struct fixture *f, const char *path, const char *expected)
{
	struct job_list list = { 0 };
	const char *msg;
	size_t dir_len = strlen(f->dir);

	err_clear();
	assert_int_equal(jobfile_load(path, &list), -1);
	assert_int_equal(list.nr, 0);
	msg = err_msg();
	if (!strncmp(msg, f->dir, dir_len) && msg[dir_len] == '/')
		msg += dir_len + 1;
	assert_string_equal(msg, expected);
	job_list_free(&list);
}

static void test_global_and_jobs(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE];

	write_file(f, "jobs.fio",
		   "; a comment\n"
		   "# another comment\n"
		   "\n"
		   "[global]\n"
		   "  bs = 8k   ; trailing comment\n"
		   "ioengine=libaio\n"
		   "direct\n"
		   "filename=/tmp/a#b\n"
		   "\n"
		   "[seq-read]\n"
		   "rw=read\n"
		   "\t# indented comment\n"
		   "\n"
		   "[global]\n"
		   "iodepth=4\n"
		   "\n"
		   "[rand]\n"
		   "name=renamed\n"
		   "rw=randwrite\n"
		   "stonewall\n"
		   "[mixed]\r\n"
		   "rw=randrw\r\n"
		   "rwmixread=70\r\n"
		   "new_group\n",
		   path);
	load_ok(path, &list);
	assert_int_equal(list.nr, 3);

	assert_string_equal(list.jobs[0].name, "seq-read");
	assert_string_equal(list.jobs[0].source, path);
	assert_int_equal(list.jobs[0].source_line, 10);
	assert_int_equal(list.jobs[0].bs[DIR_READ], 8192);
	assert_string_equal(list.jobs[0].ioengine, "libaio");
	assert_true(list.jobs[0].direct);
	assert_string_equal(list.jobs[0].filename, "/tmp/a#b");
	assert_int_equal(list.jobs[0].rw, RW_READ);
	assert_int_equal(list.jobs[0].iodepth, 1);  /* the later [global] came after */
	assert_false(list.jobs[0].stonewall);
	assert_string_equal(list.jobs[0].options_text,
			    "bs=8k\nioengine=libaio\ndirect\nfilename=/tmp/a#b\nrw=read");

	assert_string_equal(list.jobs[1].name, "renamed");
	assert_int_equal(list.jobs[1].source_line, 17);
	assert_int_equal(list.jobs[1].iodepth, 4);
	assert_int_equal(list.jobs[1].bs[DIR_WRITE], 8192);  /* globals add up */
	assert_int_equal(list.jobs[1].rw, RW_RANDWRITE);
	assert_true(list.jobs[1].stonewall);
	assert_true(list.jobs[1].new_group);

	assert_string_equal(list.jobs[2].name, "mixed");
	assert_int_equal(list.jobs[2].rw, RW_RANDRW);
	assert_int_equal(list.jobs[2].rwmixread, 70);
	assert_false(list.jobs[2].stonewall);
	assert_true(list.jobs[2].new_group);

	/* a second file appends to the same list */
	load_ok(path, &list);
	assert_int_equal(list.nr, 6);
	job_list_free(&list);
}

static void test_include_and_env(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE], sub[PATH_SIZE];

	snprintf(sub, sizeof(sub), "%s/sub", f->dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(f, "sub/common.fio",
		   "[global]\n"
		   "include more.fio\n"   /* relative to sub/, not to the cwd */
		   "iodepth=${DB_TEST_DEPTH}\n",
		   path);
	write_file(f, "sub/more.fio", "runtime=3\ntime_based\n", path);
	write_file(f, "main.fio",
		   "include sub/common.fio\n"
		   "[job-${DB_TEST_SUFFIX}]\n"
		   "bs=${DB_TEST_BS},${DB_TEST_BS}\n"
		   "filename=${DB_TEST_EMPTY}/dev/null\n",
		   path);
	assert_int_equal(setenv("DB_TEST_DEPTH", "32", 1), 0);
	assert_int_equal(setenv("DB_TEST_SUFFIX", "one", 1), 0);
	assert_int_equal(setenv("DB_TEST_BS", "16k", 1), 0);
	assert_int_equal(setenv("DB_TEST_EMPTY", "", 1), 0);
	load_ok(path, &list);
	assert_int_equal(list.nr, 1);
	/* fio expands option lines only: a section name stays as written */
	assert_string_equal(list.jobs[0].name, "job-${DB_TEST_SUFFIX}");
	assert_int_equal(list.jobs[0].iodepth, 32);
	assert_true(list.jobs[0].runtime_ns == 3000000000ull);
	assert_true(list.jobs[0].time_based);
	assert_int_equal(list.jobs[0].bs[DIR_READ], 16384);
	assert_string_equal(list.jobs[0].filename, "/dev/null");
	job_list_free(&list);

	/* an absolute include path is used as it is */
	{
		char text[PATH_SIZE + 64];

		snprintf(text, sizeof(text), "include %s/sub/common.fio\n[x]\n", f->dir);
		write_file(f, "abs.fio", text, path);
		load_ok(path, &list);
		assert_int_equal(list.jobs[0].iodepth, 32);
		job_list_free(&list);
	}
	/* errors inside an included file name that file */
	write_file(f, "sub/bad.fio", "\n\nbs=huge\n", path);
	write_file(f, "incbad.fio", "[j]\ninclude sub/bad.fio\n", path);
	load_fails(f, path, "sub/bad.fio:3: option 'bs': bad size 'huge'");
	unsetenv("DB_TEST_DEPTH");
	unsetenv("DB_TEST_SUFFIX");
	unsetenv("DB_TEST_BS");
	unsetenv("DB_TEST_EMPTY");
}

/* fio 3.33: ${VAR} in an option line (key or value) is the variable's
 * value ("${}" is nothing); "${" without "}" stays; section headers and
 * include lines are not expanded. An unset variable, which fio expands to
 * nothing, is refused naming it: filename=${DIR}/f with DIR unset would
 * have run on /f. */
static void test_env_as_fio(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE];

	unsetenv("DB_TEST_UNSET_VAR");
	assert_int_equal(setenv("DB_TEST_SET", "8", 1), 0);
	assert_int_equal(setenv("DB_TEST_EMPTY", "", 1), 0);
	write_file(f, "env.fio",
		   "[a${DB_TEST_SET}]\n"
		   "filename=x${DB_TEST_EMPTY}y\n"
		   "bs=${DB_TEST_EMPTY}${DB_TEST_SET}k\n"
		   "${DB_TEST_EMPTY}iodepth=${}4\n"
		   "description=${OOPS\n",
		   path);
	load_ok(path, &list);
	assert_int_equal(list.nr, 1);
	assert_string_equal(list.jobs[0].name, "a${DB_TEST_SET}");
	assert_string_equal(list.jobs[0].filename, "xy");
	assert_int_equal(list.jobs[0].bs[DIR_READ], 8192);
	assert_int_equal(list.jobs[0].iodepth, 4);
	assert_string_equal(list.jobs[0].description, "${OOPS");
	job_list_free(&list);

	/* a variable set to nothing is the empty string: the option's own
	 * error, as in fio ("failed parsing size=") */
	write_file(f, "env2.fio", "[a]\nsize=${DB_TEST_EMPTY}\n", path);
	load_fails(f, path, "env2.fio:2: option 'size': bad size ''");
	/* an unset one is refused, in a value and in a key */
	write_file(f, "env3.fio", "[a]\nsize=1m\nfilename=${DB_TEST_UNSET_VAR}/data.bin\n", path);
	load_fails(f, path, "env3.fio:3: environment variable 'DB_TEST_UNSET_VAR' is not set");
	write_file(f, "env4.fio", "[a]\n${DB_TEST_UNSET_VAR}iodepth=4\n", path);
	load_fails(f, path, "env4.fio:2: environment variable 'DB_TEST_UNSET_VAR' is not set");
	unsetenv("DB_TEST_SET");
	unsetenv("DB_TEST_EMPTY");
}

/* --section: only the sections named, plus [global] (and any section
 * whose name starts with "global", as fio); a skipped section's lines
 * are not read, so its errors do not count; a name matching nothing is
 * an error. Checks are left to job_list_validate. */
static void test_sections(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE];
	const char *light[] = { "light" }, *two[] = { "heavy", "light" }, *none[] = { "nope" };

	write_file(f, "s.fio",
		   "[global]\nbs=8k\n"
		   "[light]\niodepth=2\n"
		   "[broken]\nno_such_option=1\n"
		   "[global-more]\nrw=write\n"
		   "[heavy]\niodepth=32\ntime_based\n",
		   path);
	assert_int_equal(jobfile_parse(path, light, 1, &list), 0);
	assert_int_equal(list.nr, 1);
	assert_string_equal(list.jobs[0].name, "light");
	assert_int_equal(list.jobs[0].bs[DIR_READ], 8192);
	assert_int_equal(list.jobs[0].iodepth, 2);
	job_list_free(&list);

	assert_int_equal(jobfile_parse(path, two, 2, &list), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.jobs[1].name, "heavy");
	assert_int_equal(list.jobs[1].rw, RW_WRITE);   /* [global-more] applied */
	/* heavy is time_based with no runtime: only the check refuses it */
	assert_int_equal(job_list_validate(&list, 0), -1);
	assert_non_null(strstr(err_msg(), "s.fio:9: job 'heavy': option 'time_based': needs a runtime"));
	list.jobs[1].runtime_ns = 1000000000ull;
	assert_int_equal(job_list_validate(&list, 0), 0);
	job_list_free(&list);

	err_clear();
	assert_int_equal(jobfile_parse(path, none, 1, &list), -1);
	assert_non_null(strstr(err_msg(), "s.fio: --section nope: no such section"));
	assert_int_equal(list.nr, 0);
	/* without --section every section counts, the broken one too */
	load_fails(f, path, "s.fio:6: unknown option 'no_such_option'");
}

static void test_kb_base_priority(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE];

	write_file(f, "kb.fio",
		   "[global]\nbs=4k\nkb_base=1000\n"
		   "[a]\nsize=1m\n"
		   "[b]\nkb_base=1024\nsize=1m\n",
		   path);
	load_ok(path, &list);
	assert_int_equal(list.nr, 2);
	assert_int_equal(list.jobs[0].bs[DIR_READ], 4000);
	assert_int_equal(list.jobs[0].size, 1000000);
	assert_int_equal(list.jobs[1].size, 1048576);
	job_list_free(&list);
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	char path[PATH_SIZE];

	write_file(f, "jobs.fio",
		   "[global]\n"
		   "bs=4k\n"
		   "\n"
		   "[a]\n"
		   "rw=read\n"
		   "; comment\n"
		   "foo=1\n",
		   path);
	load_fails(f, path, "jobs.fio:7: unknown option 'foo'");

	write_file(f, "bad_value.fio", "[a]\n\niodepth=0\n", path);
	load_fails(f, path, "bad_value.fio:3: option 'iodepth': 0 is too small, the range is 1..65536");

	write_file(f, "outside.fio", "bs=4k\n[a]\n", path);
	load_fails(f, path, "outside.fio:1: option 'bs' outside any section");

	write_file(f, "header.fio", "[a]\n[broken\n", path);
	load_fails(f, path, "header.fio:2: bad section header '[broken'");

	write_file(f, "empty_header.fio", "[ ]\n", path);
	load_fails(f, path, "empty_header.fio:1: empty section name");

	write_file(f, "no_key.fio", "[a]\n = 3\n", path);
	load_fails(f, path, "no_key.fio:2: missing option name");

	write_file(f, "global_only.fio", "[global]\nbs=4k\n", path);
	load_fails(f, path, "global_only.fio: no jobs");

	write_file(f, "nothing.fio", "; only a comment\n", path);
	load_fails(f, path, "nothing.fio: no jobs");

	write_file(f, "validate.fio", "[a]\n[b]\ntime_based\n", path);
	load_fails(f, path, "validate.fio:2: job 'b': option 'time_based': needs a runtime");

	write_file(f, "inc.fio", "[a]\ninclude nope.fio\n", path);
	{
		char expected[PATH_SIZE * 2];

		snprintf(expected, sizeof(expected),
			 "inc.fio:2: cannot read included file '%s/nope.fio': %s", f->dir,
			 strerror(ENOENT));
		load_fails(f, path, expected);
	}

	write_file(f, "inc_empty.fio", "[a]\ninclude\n", path);
	load_fails(f, path, "inc_empty.fio:2: include needs a file name");

	write_file(f, "cycle.fio", "[a]\ninclude cycle.fio\n", path);
	load_fails(f, path, "cycle.fio:2: includes nested deeper than 16 (a cycle?)");
}

static void test_unreadable(void **state)
{
	struct fixture *f = *state;
	struct job_list list = { 0 };
	char path[PATH_SIZE], expected[PATH_SIZE * 2];

	snprintf(path, sizeof(path), "%s/missing.fio", f->dir);
	assert_int_equal(jobfile_load(path, &list), -1);
	snprintf(expected, sizeof(expected), "cannot read job file '%s': %s", path,
		 strerror(ENOENT));
	assert_string_equal(err_msg(), expected);

	/* a directory opens but cannot be read */
	assert_int_equal(jobfile_load(f->dir, &list), -1);
	snprintf(expected, sizeof(expected), "cannot read job file '%s': %s", f->dir,
		 strerror(EISDIR));
	assert_string_equal(err_msg(), expected);
	assert_int_equal(list.nr, 0);

	/* a failed load leaves earlier jobs in place */
	write_file(f, "good.fio", "[a]\n", path);
	load_ok(path, &list);
	write_file(f, "bad.fio", "[a]\n[b]\nbs=0\n", path);
	assert_int_equal(jobfile_load(path, &list), -1);
	assert_int_equal(list.nr, 1);
	job_list_free(&list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_global_and_jobs, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_include_and_env, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_env_as_fio, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_sections, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_kb_base_priority, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_errors, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_unreadable, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
