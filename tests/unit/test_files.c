/* test_files.c - a job's file set as fio defines it (workload/
 * file_options.c, file_service.c): names from filename= lists and
 * filename_format, directory lists, repeated filename= and --set, the
 * options' values, and the order in which file_service_type picks files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/file_service.h"
#include "job/job_list.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/fixtures.h"

static void path_is(const struct job_spec *s, unsigned clone, unsigned i, const char *want)
{
	char path[JOB_PATH_MAX];

	assert_int_equal(job_file_path(s, clone, i, path, sizeof(path)), 0);
	assert_string_equal(path, want);
}

static void lists_split_as_fio(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "filename", "a:b\\:c::d:");
	assert_int_equal(job_file_count(s), 3);   /* empty entries skipped */
	path_is(s, 0, 0, "a");
	path_is(s, 0, 1, "b:c");
	path_is(s, 0, 2, "d");
	set_ok(s, "filename", "e");               /* a repeated filename= adds */
	assert_int_equal(job_file_count(s), 4);
	path_is(s, 0, 3, "e");
	assert_true(job_files_many(s));
	/* names take the first directory, whatever the clone */
	set_ok(s, "directory", "/x:/y");
	path_is(s, 1, 0, "/x/a");
	path_is(s, 1, 1, "/x/b:c");
	/* nrfiles does not add files to a filename= list */
	set_ok(s, "nrfiles", "8");
	assert_int_equal(job_file_count(s), 4);
	free(s);
}

static void generated_names(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	snprintf(s->name, sizeof(s->name), "job");
	assert_int_equal(job_file_count(s), 1);
	assert_false(job_files_many(s));
	set_ok(s, "nrfiles", "3");
	set_ok(s, "directory", "/d0:/d1");
	path_is(s, 0, 2, "/d0/job.0.2");
	path_is(s, 1, 0, "/d1/job.1.0");   /* clone N: directory N mod 2 */
	path_is(s, 2, 1, "/d0/job.2.1");
	set_ok(s, "filename_format", "f$FILENUM-$jobnum.$JobName$clientuid");
	path_is(s, 1, 2, "/d1/f2-1.job");
	/* job_spec_path is file 0 */
	{
		char path[JOB_PATH_MAX];

		assert_int_equal(job_spec_path(s, 1, path, sizeof(path)), 0);
		assert_string_equal(path, "/d1/f0-1.job");
	}
	/* a name too long for a path */
	memset(s->files.filename_format, 'n', FILENAME_FORMAT_MAX - 1);
	s->files.filename_format[FILENAME_FORMAT_MAX - 1] = '\0';
	memset(s->directory, 'd', JOB_PATH_MAX - 100);
	s->directory[JOB_PATH_MAX - 100] = '\0';
	{
		char path[JOB_PATH_MAX];

		assert_int_equal(job_file_path(s, 0, 0, path, sizeof(path)), -1);
		assert_non_null(strstr(err_msg(), "path too long"));
		assert_int_equal(job_spec_validate(s), -1);
	}
	free(s);
}

static void set_replaces_and_paths_escape(void **state)
{
	struct job_list list = { 0 };
	struct job_spec *s = new_spec();
	char field[64];

	(void)state;
	set_ok(s, "filename", "a:b");
	assert_int_equal(job_list_append(&list, s), 0);
	assert_int_equal(job_list_set_all(&list, "filename=c"), 0);
	assert_string_equal(list.jobs[0].filename, "c");
	assert_int_equal(job_list_set_all(&list, "filename="), 0);
	assert_string_equal(list.jobs[0].filename, "");   /* back to the default target */
	job_list_free(&list);
	/* a producer's path with colons stays one file */
	assert_int_equal(job_spec_set_path(s->filename, sizeof(s->filename),
					   "/dev/disk/by-path/pci-0000:00:1f.2"), 0);
	assert_int_equal(job_file_count(s), 1);
	path_is(s, 0, 0, "/dev/disk/by-path/pci-0000:00:1f.2");
	assert_int_equal(job_spec_set_path(field, 8, "a:b:c:d"), -1);
	assert_non_null(strstr(err_msg(), "longer than 7 characters"));
	free(s);
}

static void option_values(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	assert_int_equal(s->files.fallocate, FALLOCATE_NATIVE);   /* fio's default */
	assert_int_equal(s->files.service, FSERVICE_ROUNDROBIN);
	assert_true(s->files.allow_create);
	set_ok(s, "filesize", "64k-4k");            /* swapped, as fio */
	assert_int_equal(s->files.filesize_low, 4096);
	assert_int_equal(s->files.filesize_high, 65536);
	set_ok(s, "filesize", "1m:2m");
	assert_int_equal(s->files.filesize_high, 2 << 20);
	set_ok(s, "filesize", "8k");
	assert_int_equal(s->files.filesize_low, 8192);
	assert_int_equal(s->files.filesize_high, 8192);
	set_ok(s, "file_service_type", "random:8");
	assert_int_equal(s->files.service, FSERVICE_RANDOM);
	assert_int_equal(s->files.service_nr, 8);
	set_ok(s, "file_service_type", "zipf");
	assert_true(s->files.service_param == 1.1 && s->files.service_nr == 1);
	set_ok(s, "file_service_type", "pareto:0.3:0.5");
	assert_true(s->files.service_param == 0.3 && s->files.service_center == 0.5);
	set_ok(s, "file_service_type", "gauss:5");
	assert_int_equal(s->files.service, FSERVICE_NORMAL);
	assert_true(s->files.service_param == 5);
	assert_int_equal(job_option_set(s, "file_service_type", "nearest"), -1);
	assert_non_null(strstr(err_msg(), "unknown file_service_type 'nearest'"));
	assert_int_equal(job_option_set(s, "file_service_type", "zipf:x"), -1);
	assert_int_equal(job_option_set(s, "filesize", "4k-"), -1);
	set_ok(s, "fallocate", "truncate");
	assert_int_equal(s->files.fallocate, FALLOCATE_TRUNCATE);
	set_ok(s, "nr_files", "2");
	set_ok(s, "open_files", "1");
	assert_int_equal(s->files.nrfiles, 2);
	assert_int_equal(s->files.openfiles, 1);
	set_ok(s, "stat_type", "lstat");
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "option 'stat_type': only for ioengine=filestat or dirstat, not io_uring"));
	set_ok(s, "ioengine", "dirstat");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "rw", "write");
	set_ok(s, "verify", "crc32c");
	assert_int_equal(job_spec_validate(s), -1);   /* dirstat keeps no data */
	assert_non_null(strstr(err_msg(), "option 'verify': the dirstat engine keeps no data"));
	free(s);
	s = new_spec();
	set_ok(s, "nrfiles", "2");
	set_ok(s, "rw", "write");
	set_ok(s, "verify", "crc32c");
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "option 'verify': a job with 2 files is not supported"));
	free(s);
}

/* picks counts[n] of 20000 for kind */
static void pick_counts(const char *type, unsigned n, unsigned *counts)
{
	struct job_spec *s = new_spec();
	struct file_picker p;

	set_ok(s, "file_service_type", type);
	assert_int_equal(file_picker_init(&p, &s->files, n, 42), 0);
	memset(counts, 0, n * sizeof(*counts));
	for (unsigned i = 0; i < 20000; i++) {
		unsigned k = file_picker_next(&p);

		assert_true(k < n);
		counts[k]++;
	}
	file_picker_free(&p);
	free(s);
}

static void pickers_follow_fio(void **state)
{
	struct job_spec *s = new_spec();
	struct file_picker p;
	unsigned c[4];

	(void)state;
	assert_int_equal(file_picker_init(&p, &s->files, 3, 1), 0);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(file_picker_next(&p), i % 3);   /* round robin */
	file_picker_free(&p);
	pick_counts("random", 4, c);
	for (int k = 0; k < 4; k++)
		assert_true(c[k] > 4000 && c[k] < 6000);
	/* zipf with centre 0: the first file is the hottest, by far */
	pick_counts("zipf:1.2:0", 4, c);
	assert_true(c[0] > 15000 && c[0] > c[1] && c[1] >= c[3]);
	pick_counts("pareto:0.2:0", 4, c);
	assert_true(c[0] > c[1] && c[0] > 10000);
	/* fio's normal: around the middle files */
	pick_counts("normal", 4, c);
	assert_true(c[1] + c[2] > 15000 && c[0] < 3000 && c[3] < 3000);
	pick_counts("normal:20:0.25", 4, c);
	assert_true(c[1] > c[3] && c[0] + c[1] > c[2] + c[3]);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_split_as_fio),
		cmocka_unit_test(generated_names),
		cmocka_unit_test(set_replaces_and_paths_escape),
		cmocka_unit_test(option_values),
		cmocka_unit_test(pickers_follow_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
