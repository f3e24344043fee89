/* test_runner.c - the runner end to end through the null engine and real
 * files: percentiles against a programmed latency sequence, chunked large
 * requests, the buffer-memory refusal, limits, ramp, groups, Ctrl-C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/null_latency.h"
#include "run/runner.h"
#include "util/error.h"
#include "job/job_list.h"
#include "helpers/tmpdir.h"

static volatile sig_atomic_t no_stop;

static void jobs_from(struct job_list *jobs, const char *const *args, int n)
{
	memset(jobs, 0, sizeof(*jobs));
	if (cmdline_jobs(n, (char *const *)args, jobs))
		fail_msg("cmdline_jobs: %s", err_msg());
}

static int run(struct job_list *jobs, struct run_output *out, uint64_t limit,
	       const volatile sig_atomic_t *stop)
{
	struct run_options opt = { .max_buffer_mem = limit, .stop = stop ? stop : &no_stop };
	enum run_failure why;

	return run_jobs(jobs, &opt, out, &why);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The null engine completes I/O number i after null_latency_for(i): the
 * exact sample is known, so reported percentiles can be checked against
 * the exact order statistics. */
static void percentiles_within_one_percent(void **state)
{
	const char *args[] = { "--name=p", "--ioengine=null", "--rw=randread",
		"--bs=4k", "--iodepth=1024", "--size=800m", "--null_latency=10us-2ms",
		"--percentile_list=1:10:50:90:99:99.9:99.99:99.999" };
	const double pct[] = { 1, 10, 50, 90, 99, 99.9, 99.99, 99.999 };
	struct job_list jobs;
	struct run_output out;
	uint64_t n, got[8], *exact;

	(void)state;
	jobs_from(&jobs, args, 8);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	assert_int_equal(out.nr, 1);
	n = out.results[0].dir[DIR_READ].ios;
	assert_int_equal(n, 800ull * 256);   /* 800 MiB of 4 KiB */
	assert_int_equal(out.results[0].dir[DIR_WRITE].ios, 0);
	exact = malloc(n * sizeof(*exact));
	assert_non_null(exact);
	for (uint64_t i = 0; i < n; i++)
		exact[i] = null_latency_for(i + 1, 10000, 2000000);
	qsort(exact, n, sizeof(*exact), cmp_u64);
	hist_percentiles(&out.results[0].dir[DIR_READ].clat.hist, pct, 8, got);
	for (int i = 0; i < 8; i++) {
		uint64_t want = exact[(uint64_t)ceil(pct[i] / 100.0 * (double)n) - 1];
		double rel = fabs((double)got[i] - (double)want) / (double)want;

		if (rel > 0.01)
			fail_msg("p%g: got %llu want %llu (%.3f%%)", pct[i],
				 (unsigned long long)got[i], (unsigned long long)want, rel * 100);
	}
	/* clat min/max are the programmed extremes */
	assert_true(out.results[0].dir[DIR_READ].clat.min >= 10000);
	assert_true(out.results[0].dir[DIR_READ].clat.max < 2000000);
	free(exact);
	run_output_free(&out);
	job_list_free(&jobs);
}

/* A 64 MiB request with a 1 MiB chunk limit: one request counted, all its
 * bytes moved, and only iodepth chunk buffers held. */
static void large_requests_are_chunked(void **state)
{
	const char *args[] = { "--name=big", "--ioengine=null", "--rw=read",
		"--bs=64m", "--iodepth=4", "--size=1g", "--chunk_size=1m" };
	struct job_list jobs;
	struct run_output out;

	(void)state;
	jobs_from(&jobs, args, 7);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	assert_int_equal(out.results[0].dir[DIR_READ].ios, 16);
	assert_int_equal(out.results[0].dir[DIR_READ].bytes, 1ull << 30);
	assert_int_equal(out.results[0].max_buffer_bytes, 4ull << 20);
	run_output_free(&out);
	job_list_free(&jobs);
}

static void buffer_limit_refuses_with_arithmetic(void **state)
{
	const char *args[] = { "--name=huge", "--ioengine=null", "--rw=read",
		"--bs=1g", "--iodepth=40", "--numjobs=2", "--size=100g",
		"--chunk_size=1g" };
	struct job_list jobs;
	struct run_output out;

	(void)state;
	jobs_from(&jobs, args, 8);
	assert_int_equal(run(&jobs, &out, 1ull << 30, NULL), -1);
	assert_non_null(strstr(err_msg(), "2 jobs x iodepth 40 x 1073741824 bytes = 80.00 GiB"));
	assert_non_null(strstr(err_msg(), "--max-buffer-mem"));
	job_list_free(&jobs);
}

static void runtime_and_ramp_are_honoured(void **state)
{
	const char *args[] = { "--name=t", "--ioengine=null", "--rw=randread",
		"--bs=4k", "--iodepth=8", "--size=1g", "--time_based",
		"--runtime=300ms", "--ramp_time=200ms" };
	struct job_list jobs;
	struct run_output out;
	uint64_t t0 = clock_now_ns(), elapsed;
	const struct job_result *r;

	(void)state;
	jobs_from(&jobs, args, 9);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	elapsed = clock_now_ns() - t0;
	r = &out.results[0];
	assert_true(r->runtime_ns >= 300000000ull && r->runtime_ns < 400000000ull);
	assert_true(r->ramp_ns >= 200000000ull && r->ramp_ns < 300000000ull);
	assert_true(elapsed >= 500000000ull);
	assert_true(r->dir[DIR_READ].ios > 1000);
	/* IOPS is ios over the measured runtime, ramp excluded */
	assert_true(fabs(result_iops(r, DIR_READ) -
			 (double)r->dir[DIR_READ].ios / ((double)r->runtime_ns / 1e9)) < 1e-6);
	run_output_free(&out);
	job_list_free(&jobs);
}

/* As in fio, a size-bound job's ramp uses up part of its size: 1024
 * reads at 1000 a second with a 500 ms ramp measure about 524 (they
 * measured all 1024 after the ramp's 500, 1.5x the bytes asked). A job
 * whose bytes all go in the ramp measures none and is not partial. */
static void ramp_counts_toward_size(void **state)
{
	const char *args[] = { "--name=t", "--ioengine=null", "--rw=read", "--bs=4k",
		"--size=4m", "--rate_iops=1000", "--ramp_time=500ms" };
	const char *all_in_ramp[] = { "--name=t", "--ioengine=null", "--rw=read", "--bs=4k",
		"--size=128k", "--rate_iops=1000", "--ramp_time=500ms" };
	struct job_list jobs;
	struct run_output out;
	const struct job_result *r;

	(void)state;
	jobs_from(&jobs, args, 7);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	r = &out.results[0];
	assert_true(r->dir[DIR_READ].ios > 100);
	assert_true(r->dir[DIR_READ].ios < 1024 - 300);
	assert_true(r->ramp_ns >= 500000000ull);
	run_output_free(&out);
	job_list_free(&jobs);

	jobs_from(&jobs, all_in_ramp, 7);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	r = &out.results[0];
	assert_int_equal(r->dir[DIR_READ].ios, 0);
	assert_false(r->partial);
	run_output_free(&out);
	job_list_free(&jobs);
}

static uint64_t reads_of(const char **args, int n)
{
	struct job_list jobs;
	struct run_output out;
	uint64_t ios;

	jobs_from(&jobs, args, n);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	ios = out.results[0].dir[DIR_READ].ios;
	run_output_free(&out);
	job_list_free(&jobs);
	return ios;
}

/* When a size-bound job is done, as in fio: sequential with holes ends
 * past the region (86 reads of 4k, 8k apart, in 1 MiB: it wrapped and
 * read 256), and a block size that does not divide the region does its
 * whole blocks (341 of 3k in 1 MiB: a 342nd wrapped or repeated one);
 * with time_based the holes wrap. */
static void size_bound_jobs_end_as_fio(void **state)
{
	const char *holes[] = { "--name=h", "--ioengine=null", "--rw=read:8k", "--bs=4k",
		"--size=1m" };
	const char *seq3k[] = { "--name=s", "--ioengine=null", "--rw=read", "--bs=3k",
		"--size=1m" };
	const char *rand3k[] = { "--name=r", "--ioengine=null", "--rw=randread", "--bs=3k",
		"--size=1m" };
	const char *holes_on[] = { "--name=h", "--ioengine=null", "--rw=read:8k", "--bs=4k",
		"--size=1m", "--time_based", "--runtime=50ms" };

	(void)state;
	assert_int_equal(reads_of(holes, 5), 86);
	assert_int_equal(reads_of(seq3k, 5), 341);
	assert_int_equal(reads_of(rand3k, 5), 341);
	assert_true(reads_of(holes_on, 7) > 86);
}

static void groups_and_group_reporting(void **state)
{
	const char *args[] = { "--ioengine=null", "--rw=read", "--bs=4k",
		"--size=64m", "--name=a", "--numjobs=3", "--group_reporting",
		"--name=b", "--stonewall", "--name=c" };
	struct job_list jobs;
	struct run_output out;
	struct job_result *entries;
	unsigned nr;

	(void)state;
	jobs_from(&jobs, args, 10);
	assert_int_equal(run(&jobs, &out, 0, NULL), 0);
	assert_int_equal(out.nr, 5);
	assert_int_equal(out.results[0].groupid, 0);
	assert_int_equal(out.results[2].groupid, 0);
	assert_int_equal(out.results[3].groupid, 1);
	assert_int_equal(out.results[4].groupid, 1);
	assert_int_equal(run_output_for_report(&out, &entries, &nr), 0);
	assert_int_equal(nr, 3);   /* a (3 clones merged), b, c */
	assert_int_equal(entries[0].dir[DIR_READ].ios, 3 * 64 * 256);
	assert_int_equal(entries[0].nr_merged, 3);
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
	run_output_free(&out);
	job_list_free(&jobs);
}

static volatile sig_atomic_t stop_flag;
static uint64_t stop_raised_ns;

static void *raise_stop(void *arg)
{
	(void)arg;
	usleep(200000);
	stop_raised_ns = clock_now_ns();
	stop_flag = 1;
	return NULL;
}

static void stop_flag_ends_run_quickly_and_partial(void **state)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--rw=randread",
		"--bs=4k", "--iodepth=8", "--size=1g", "--time_based", "--runtime=60" };
	struct job_list jobs;
	struct run_output out;
	pthread_t t;

	(void)state;
	stop_flag = 0;
	jobs_from(&jobs, args, 8);
	pthread_create(&t, NULL, raise_stop, NULL);
	assert_int_equal(run(&jobs, &out, 0, &stop_flag), 0);
	pthread_join(t, NULL);
	/* stopped within a second of the flag (the Ctrl-C promise) */
	assert_true(clock_now_ns() - stop_raised_ns < 1000000000ull);
	assert_true(out.partial);
	assert_true(out.results[0].partial);
	assert_true(out.results[0].dir[DIR_READ].ios > 0);
	run_output_free(&out);
	job_list_free(&jobs);
}

/* Real I/O through each engine on a file: exactly io_size moves. */
static void file_io_each_engine(void **state)
{
	const char *engines[] = { "--ioengine=io_uring", "--ioengine=libaio", "--ioengine=psync" };
	char path[TMPDIR_PATH_MAX + 64], fname[TMPDIR_PATH_MAX + 128];
	int fd = tmp_file("drivebench-runner", path, sizeof(path));

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	for (int e = 0; e < 3; e++) {
		const char *args[] = { "--name=f", fname, engines[e], "--rw=randrw",
			"--bs=4k", "--iodepth=16", "--size=8m", "--io_size=16m" };
		struct job_list jobs;
		struct run_output out;
		const struct job_result *r;

		jobs_from(&jobs, args, 8);
		if (run(&jobs, &out, 0, NULL))
			fail_msg("%s: %s", engines[e], err_msg());
		r = &out.results[0];
		assert_int_equal(r->error, 0);
		assert_int_equal(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes, 16ull << 20);
		assert_true(r->dir[DIR_READ].ios > 1000 && r->dir[DIR_WRITE].ios > 1000);
		run_output_free(&out);
		job_list_free(&jobs);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(percentiles_within_one_percent),
		cmocka_unit_test(large_requests_are_chunked),
		cmocka_unit_test(buffer_limit_refuses_with_arithmetic),
		cmocka_unit_test(runtime_and_ramp_are_honoured),
		cmocka_unit_test(ramp_counts_toward_size),
		cmocka_unit_test(size_bound_jobs_end_as_fio),
		cmocka_unit_test(groups_and_group_reporting),
		cmocka_unit_test(stop_flag_ends_run_quickly_and_partial),
		cmocka_unit_test(file_io_each_engine),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
