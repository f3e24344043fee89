/* test_range_guard.c - the runner checks every I/O against the job's byte
 * range before issuing it: a violation aborts the job, and nothing outside
 * the range (or inside it, since the first bad I/O stops the job) is
 * written. Uses the worker's test hook that skews offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/worker.h"
#include "util/error.h"
#include "job/job_list.h"
#include "helpers/tmpdir.h"

static uint64_t file_hash(const char *path)
{
	unsigned char buf[65536];
	uint64_t h = 1469598103934665603ull;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	close(fd);
	return h;
}

static void run_skewed(const char *engine, uint64_t skew, const char *offset)
{
	char path[TMPDIR_PATH_MAX + 64], fname[TMPDIR_PATH_MAX + 128];
	const char *args[] = { "--name=g", fname, engine, "--rw=randwrite",
		"--bs=4k", "--iodepth=4", "--size=1m", offset };
	volatile sig_atomic_t stop = 0;
	pthread_barrier_t barrier;
	bool abort_start = false;
	struct job_list jobs = { 0 };
	struct worker w = { 0 };
	struct target t;
	uint64_t before;
	int fd = tmp_file("drivebench-guard", path, sizeof(path));

	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_true(target_layout_file(path, 3u << 20, NULL) == 1);
	before = file_hash(path);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	assert_int_equal(cmdline_jobs(8, (char *const *)args, &jobs), 0);
	assert_int_equal(target_probe(path, &t), 0);
	pthread_barrier_init(&barrier, NULL, 1);
	w.spec = &jobs.jobs[0];
	w.target = &t;
	w.stop = &stop;
	w.start_barrier = &barrier;
	w.abort_start = &abort_start;
	job_result_init(&w.result, w.spec);
	if (worker_setup(&w))
		fail_msg("setup: %s", w.error_text);
	w.test_offset_skew = skew;
	worker_main(&w);
	assert_true(w.run_failed);
	assert_non_null(strstr(w.error_text, "outside the job's range"));
	assert_int_equal(w.result.dir[DIR_WRITE].ios, 0);
	worker_teardown(&w);
	job_result_free(&w.result);
	pthread_barrier_destroy(&barrier);
	job_list_free(&jobs);
	assert_true(file_hash(path) == before);   /* nothing was written */
	unlink(path);
}

static void beyond_the_end_aborts(void **state)
{
	(void)state;
	run_skewed("--ioengine=psync", 1u << 20, "--offset=0");
	run_skewed("--ioengine=io_uring", 1u << 20, "--offset=1m");
}

static void before_the_start_aborts(void **state)
{
	(void)state;
	/* range [1 MiB, 2 MiB), every offset moved 1 MiB down */
	run_skewed("--ioengine=psync", (uint64_t)0 - (1u << 20), "--offset=1m");
	/* an offset that wraps past 2^64 must not slip through */
	run_skewed("--ioengine=psync", (uint64_t)0 - (2u << 20), "--offset=1m");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(beyond_the_end_aborts),
		cmocka_unit_test(before_the_start_aborts),
	};

	return cmocka_run_group_tests(tests, tmp_setup_disk, tmp_teardown);
}
