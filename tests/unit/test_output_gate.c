/* test_output_gate.c - the write gate for outputs: what an output file, the
 * database (and SQLite's files beside it) and a directory may be; the
 * pseudo filesystem and /dev rules; opening without cutting before the
 * check; the exit code a refusal carries; and the helpers the gate stands
 * on (bounded whole-file reads, fio's directory + filename join). Devices
 * with filesystems are attacked in tests/cli/test_write_gate.sh. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "device/output_gate.h"
#include "device/pseudo_fs.h"
#include "util/error.h"
#include "util/text.h"
#include "job/job_spec.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

static struct tmpdir work;

static int make_workdir(void **state)
{
	(void)state;
	return tmpdir_make(&work, "/var/tmp", "drivebench-gate");
}

static int remove_workdir(void **state)
{
	(void)state;
	return tmpdir_remove(&work);
}

static const char *in_workdir(const char *name)
{
	static char path[PATH_MAX + 64];

	return tmpdir_join(&work, name, path, sizeof(path));
}

/* gate(path, use): 0 allowed, 3 refused for safety, 2 unusable */
static int gate(const char *path, enum output_use use)
{
	if (output_gate_check("--test", path, use) == 0)
		return 0;
	return err_refused() ? 3 : 2;
}

static void test_pseudo_filesystems(void **state)
{
	(void)state;
	assert_string_equal(pseudo_fs_name(PROC_SUPER_MAGIC), "procfs");
	assert_string_equal(pseudo_fs_name(SYSFS_MAGIC), "sysfs");
	assert_string_equal(pseudo_fs_name(DEBUGFS_MAGIC), "debugfs");
	assert_null(pseudo_fs_name(EXT4_SUPER_MAGIC));
	assert_null(pseudo_fs_name(TMPFS_MAGIC));
	assert_string_equal(pseudo_fs_of("/proc/sys/vm/drop_caches", -1), "procfs");
	assert_string_equal(pseudo_fs_of("/proc/sys/vm/no-such-knob", -1), "procfs");
	assert_string_equal(pseudo_fs_of("/sys/block", -1), "sysfs");
	assert_null(pseudo_fs_of(work.path, -1));
	assert_null(pseudo_fs_of(in_workdir("missing"), -1));
	assert_true(path_in_dev("/dev/loop-typo"));
	assert_true(path_in_dev("/dev"));
	assert_false(path_in_dev("/dev/shm/x"));
	assert_false(path_in_dev("/devices"));
	assert_false(path_in_dev(work.path));
}

static void test_output_file_rules(void **state)
{
	char fifo[PATH_MAX + 64];

	(void)state;
	assert_int_equal(gate(in_workdir("new.json"), OUTPUT_FILE), 0);
	file_write(in_workdir("old.json"), "old", 3);
	assert_int_equal(gate(in_workdir("old.json"), OUTPUT_FILE), 0);
	assert_int_equal(gate("/dev/null", OUTPUT_FILE), 0);
	snprintf(fifo, sizeof(fifo), "%s", in_workdir("fifo"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(gate(fifo, OUTPUT_FILE), 0);

	assert_int_equal(gate("/dev/zero", OUTPUT_FILE), 3);   /* not null, not a tty */
	assert_non_null(strstr(err_msg(), "character device"));
	assert_int_equal(gate("/proc/sys/vm/drop_caches", OUTPUT_FILE), 3);
	assert_non_null(strstr(err_msg(), "procfs"));
	assert_int_equal(gate("/proc/sys/vm/new-knob", OUTPUT_FILE), 3);
	assert_int_equal(gate("/dev/typo-of-a-device", OUTPUT_FILE), 3);
	assert_non_null(strstr(err_msg(), "mistyped device"));
	/* unusable, not a refusal: exit 2 */
	assert_int_equal(gate(work.path, OUTPUT_FILE), 2);
	assert_non_null(strstr(err_msg(), "is a directory"));
	assert_int_equal(gate(in_workdir("no-dir/x.json"), OUTPUT_FILE), 2);
	assert_non_null(strstr(err_msg(), "--test"));   /* names the option */
}

static const char sqlite_header[16] = "SQLite format 3";

static void test_output_never_replaces_a_database(void **state)
{
	(void)state;
	file_write(in_workdir("results.db"), sqlite_header, sizeof(sqlite_header));
	assert_int_equal(gate(in_workdir("results.db"), OUTPUT_FILE), 3);
	assert_non_null(strstr(err_msg(), "results database"));
	assert_int_equal(gate(in_workdir("results.db"), OUTPUT_DATABASE), 0);
}

static void test_database_rules(void **state)
{
	char link_target[PATH_MAX + 64], fifo[PATH_MAX + 64];

	(void)state;
	assert_int_equal(gate(in_workdir("fresh.db"), OUTPUT_DATABASE), 0);
	file_write(in_workdir("empty.db"), "", 0);
	assert_int_equal(gate(in_workdir("empty.db"), OUTPUT_DATABASE), 0);
	file_write(in_workdir("notes.txt"), "my notes\n", 9);
	assert_int_equal(gate(in_workdir("notes.txt"), OUTPUT_DATABASE), 2);
	assert_non_null(strstr(err_msg(), "not a results database"));
	assert_int_equal(gate("/dev/null", OUTPUT_DATABASE), 2);
	assert_non_null(strstr(err_msg(), "--no-db"));
	assert_int_equal(gate("/proc/sys/vm/drop_caches", OUTPUT_DATABASE), 3);

	/* SQLite's journals beside it: plain files or nothing */
	file_write(in_workdir("j.db"), sqlite_header, sizeof(sqlite_header));
	snprintf(link_target, sizeof(link_target), "%s", in_workdir("elsewhere"));
	assert_int_equal(symlink(link_target, in_workdir("j.db-wal")), 0);
	assert_int_equal(gate(in_workdir("j.db"), OUTPUT_DATABASE), 3);
	assert_non_null(strstr(err_msg(), "j.db-wal"));
	unlink(in_workdir("j.db-wal"));
	snprintf(fifo, sizeof(fifo), "%s", in_workdir("j.db-shm"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(gate(in_workdir("j.db"), OUTPUT_DATABASE), 3);
	assert_non_null(strstr(err_msg(), "not a regular file"));
	unlink(fifo);
	file_write(in_workdir("j.db-journal"), "", 0);
	assert_int_equal(gate(in_workdir("j.db"), OUTPUT_DATABASE), 0);
	/* a new database whose -wal already leads elsewhere */
	assert_int_equal(symlink(link_target, in_workdir("new.db-wal")), 0);
	assert_int_equal(gate(in_workdir("new.db"), OUTPUT_DATABASE), 3);
}

static void test_directory_rules(void **state)
{
	(void)state;
	assert_int_equal(gate(work.path, OUTPUT_DIRECTORY), 0);
	assert_int_equal(gate(in_workdir("new-dir"), OUTPUT_DIRECTORY), 0);
	file_write(in_workdir("plain"), "x", 1);
	assert_int_equal(gate(in_workdir("plain"), OUTPUT_DIRECTORY), 2);
	assert_int_equal(gate("/proc/sys/vm", OUTPUT_DIRECTORY), 3);
	assert_int_equal(gate("/sys/block", OUTPUT_DIRECTORY), 3);
	assert_int_equal(gate("/dev", OUTPUT_DIRECTORY), 3);
	assert_int_equal(gate("/dev/shm", OUTPUT_DIRECTORY), 0);
}

static void test_open_truncates_only_after_the_check(void **state)
{
	FILE *f;
	struct stat st;

	(void)state;
	file_write(in_workdir("out.txt"), "0123456789", 10);
	f = output_gate_open("--output", in_workdir("out.txt"));
	assert_non_null(f);
	assert_int_equal(stat(in_workdir("out.txt"), &st), 0);
	assert_int_equal(st.st_size, 0);
	fputs("new", f);
	assert_int_equal(output_gate_close(f, "--output", in_workdir("out.txt")), 0);
	assert_int_equal(stat(in_workdir("out.txt"), &st), 0);
	assert_int_equal(st.st_size, 3);

	/* a refused output is left as it was */
	file_write(in_workdir("kept.db"), sqlite_header, sizeof(sqlite_header));
	assert_null(output_gate_open("--output", in_workdir("kept.db")));
	assert_true(err_refused());
	assert_int_equal(stat(in_workdir("kept.db"), &st), 0);
	assert_int_equal(st.st_size, (off_t)sizeof(sqlite_header));

	/* the standard streams are the process's own */
	assert_ptr_equal(output_gate_open("--output", "/dev/stdout"), stdout);
	assert_ptr_equal(output_gate_open("--output", "/dev/stderr"), stderr);
	assert_int_equal(output_gate_close(stdout, "--output", "/dev/stdout"), 0);
	assert_null(output_gate_open("--output", work.path));
	assert_false(err_refused());
}

static void test_error_codes(void **state)
{
	(void)state;
	err_refuse("no");
	assert_true(err_refused());
	assert_int_equal(err_exit_code(EXIT_BAD_INPUT), EXIT_UNSAFE);
	err_prefix("job 'j'");
	assert_true(err_refused());   /* a prefix keeps the code */
	assert_string_equal(err_msg(), "job 'j': no");
	err_set("plain");
	assert_false(err_refused());
	assert_int_equal(err_exit_code(EXIT_BAD_INPUT), EXIT_BAD_INPUT);
	err_fail(EXIT_RUN_FAILED, "disk full");
	assert_int_equal(err_exit_code(EXIT_BAD_INPUT), EXIT_RUN_FAILED);
	err_clear();
	assert_int_equal(err_exit_code(EXIT_OK), EXIT_OK);
}

static void test_read_file_is_bounded(void **state)
{
	char *text = NULL;

	(void)state;
	file_write(in_workdir("small"), "abc", 3);
	assert_int_equal(text_read_file(in_workdir("small"), 16, &text), 0);
	assert_string_equal(text, "abc");
	free(text);
	/* /dev/zero never ends: an error naming it, never a partial read */
	assert_int_equal(text_read_file("/dev/zero", 1u << 20, &text), -1);
	assert_null(text);
	assert_non_null(strstr(err_msg(), "/dev/zero is larger than"));
	assert_int_equal(text_read_file(in_workdir("absent"), 16, &text), -1);
	assert_non_null(strstr(err_msg(), "absent"));
}

static void test_job_path_joins_as_fio(void **state)
{
	struct job_spec s;
	char path[JOB_PATH_MAX];

	(void)state;
	job_spec_defaults(&s);
	snprintf(s.name, sizeof(s.name), "job");
	snprintf(s.filename, sizeof(s.filename), "loop0");
	assert_int_equal(job_spec_path(&s, 0, path, sizeof(path)), 0);
	assert_string_equal(path, "loop0");
	snprintf(s.directory, sizeof(s.directory), "/mnt/x");
	assert_int_equal(job_spec_path(&s, 0, path, sizeof(path)), 0);
	assert_string_equal(path, "/mnt/x/loop0");
	s.filename[0] = '\0';
	assert_int_equal(job_spec_path(&s, 2, path, sizeof(path)), 0);
	assert_string_equal(path, "/mnt/x/job.2.0");
	assert_int_equal(job_spec_path(&s, 2, path, 8), -1);
	assert_non_null(strstr(err_msg(), "path too long"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pseudo_filesystems),
		cmocka_unit_test(test_output_file_rules),
		cmocka_unit_test(test_output_never_replaces_a_database),
		cmocka_unit_test(test_database_rules),
		cmocka_unit_test(test_directory_rules),
		cmocka_unit_test(test_open_truncates_only_after_the_check),
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_read_file_is_bounded),
		cmocka_unit_test(test_job_path_joins_as_fio),
	};

	return cmocka_run_group_tests(tests, make_workdir, remove_workdir);
}
