/* test_fio_logs.c - fio's log files line by line (fio 3.33's flush_samples
 * and flush_hist_samples): the columns with and without log_offset and
 * log_prio, every I/O with log_avg_msec=0, fio's averaging windows for
 * the latency logs (an entry at the first sample N ms on, the rest at the
 * end), whole windows for bw and iops, the hist log's per-window counts
 * and coarseness, file names (per_job_logs), one file shared by clones,
 * buffers that flush when full, and paths the output gate refuses. The
 * log state is fed directly, with times chosen by the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/fio_log.h"
#include "run/loop_log.h"
#include "run/worker.h"
#include "util/error.h"
#include "job/options.h"
#include "helpers/fixtures.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

#define MS 1000000ull

struct fixture {
	struct tmpdir dir;
	struct job_spec spec;
	struct worker w[2];
	struct run_logs logs;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (tmpdir_make(&fx->dir, NULL, "drivebench-logs"))
		return -1;
	job_spec_defaults(&fx->spec);
	strcpy(fx->spec.name, "job");
	for (int i = 0; i < 2; i++) {
		fx->w[i].spec = &fx->spec;
		job_result_init(&fx->w[i].result, &fx->spec);
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int rc;

	run_logs_close(&fx->logs);
	for (int i = 0; i < 2; i++)
		job_result_free(&fx->w[i].result);
	rc = tmpdir_remove(&fx->dir);
	free(fx);
	return rc;
}

/* write_<kind>_log=DIR/NAME */
static void log_to(struct fixture *fx, const char *kind, const char *name)
{
	char key[32], value[128];

	snprintf(key, sizeof(key), "write_%s_log", kind);
	tmpdir_join(&fx->dir, name, value, sizeof(value));
	set_ok(&fx->spec, key, value);
}

static void open_logs(struct fixture *fx, unsigned clones)
{
	if (run_logs_open(&fx->logs, fx->w, clones))
		fail_msg("run_logs_open: %s", err_msg());
}

/* The whole text of DIR/name once the logs are closed. */
static char *read_log(struct fixture *fx, const char *name)
{
	char path[256];

	return file_read_all(tmpdir_join(&fx->dir, name, path, sizeof(path)), NULL);
}

static void expect_log(struct fixture *fx, const char *name, const char *want)
{
	char *text = read_log(fx, name);

	if (strcmp(text, want))
		fail_msg("%s:\n%s\nwanted:\n%s", name, text, want);
	free(text);
}

static void close_logs(struct fixture *fx)
{
	assert_int_equal(run_logs_close(&fx->logs), 0);
}

/* log_avg_msec=0: an entry per I/O in every log, fio's columns. */
static void every_io_with_fio_columns(void **state)
{
	struct fixture *fx = *state;
	struct loop_log *lg;

	log_to(fx, "bw", "a");
	log_to(fx, "lat", "a");
	log_to(fx, "iops", "a");
	open_logs(fx, 1);
	lg = fx->w[0].log;
	assert_non_null(lg);
	/* 4 KiB read, slat 100, clat 2000, lat 2100 ns, done at 1.5 ms */
	loop_log_io(lg, 0, 8192, 4096, 100, 2000, 2100, 1500000);
	loop_log_io(lg, 1, 0, 65536, 50, 0, 50, 7 * MS);   /* clat 0: bw 0 */
	loop_log_finish(lg, 8 * MS);
	close_logs(fx);
	/* bw per I/O: bytes * 10^6 / clat ns (fio's add_bw_sample) */
	expect_log(fx, "a_bw.1.log", "1, 2048000, 0, 4096, 0\n7, 0, 1, 65536, 0\n");
	expect_log(fx, "a_iops.1.log", "1, 1, 0, 4096, 0\n7, 1, 1, 65536, 0\n");
	expect_log(fx, "a_slat.1.log", "1, 100, 0, 4096, 0\n7, 50, 1, 65536, 0\n");
	expect_log(fx, "a_clat.1.log", "1, 2000, 0, 4096, 0\n7, 0, 1, 65536, 0\n");
	expect_log(fx, "a_lat.1.log", "1, 2100, 0, 4096, 0\n7, 50, 1, 65536, 0\n");
}

/* log_offset adds the offset column, log_prio writes the priority as
 * fio's 0x%04x. */
static void offset_and_prio_columns(void **state)
{
	struct fixture *fx = *state;

	log_to(fx, "lat", "o");
	set_ok(&fx->spec, "log_offset", "1");
	set_ok(&fx->spec, "log_prio", "1");
	open_logs(fx, 1);
	loop_log_io(fx->w[0].log, 1, 1048576, 512, 1, 2, 3, 0);
	loop_log_finish(fx->w[0].log, 1 * MS);
	close_logs(fx);
	expect_log(fx, "o_clat.1.log", "0, 2, 1, 512, 1048576, 0x0000\n");
}

/* log_avg_msec=N for latencies (fio's add_log_sample): per direction an
 * entry at the first sample N ms or more after the window began, the
 * mean (rounded) of the window including it; the window restarts at the
 * multiple of N below; what is left is written when the job ends. */
static void latency_windows_as_fio(void **state)
{
	struct fixture *fx = *state;
	struct loop_log *lg;

	log_to(fx, "lat", "w");
	set_ok(&fx->spec, "log_avg_msec", "100");
	open_logs(fx, 1);
	lg = fx->w[0].log;
	loop_log_io(lg, 0, 0, 4096, 0, 10, 10, 5 * MS);
	loop_log_io(lg, 0, 0, 4096, 0, 21, 21, 99 * MS);    /* window not over */
	loop_log_io(lg, 1, 0, 4096, 0, 1000, 1000, 99 * MS);
	loop_log_io(lg, 0, 0, 4096, 0, 30, 30, 130 * MS);   /* (10+21+30)/3 */
	loop_log_io(lg, 0, 0, 4096, 0, 7, 7, 150 * MS);     /* from 100 ms on */
	loop_log_finish(lg, 160 * MS);
	close_logs(fx);
	expect_log(fx, "w_clat.1.log", "130, 20, 0, 0, 0\n160, 7, 0, 0, 0\n160, 1000, 1, 0, 0\n");
}

/* log_max_value: the window's largest value. */
static void latency_windows_max_value(void **state)
{
	struct fixture *fx = *state;

	log_to(fx, "lat", "m");
	set_ok(&fx->spec, "log_avg_msec", "10");
	set_ok(&fx->spec, "log_max_value", "1");
	open_logs(fx, 1);
	loop_log_io(fx->w[0].log, 0, 0, 4096, 0, 500, 500, 1 * MS);
	loop_log_io(fx->w[0].log, 0, 0, 4096, 0, 90, 90, 11 * MS);
	loop_log_finish(fx->w[0].log, 12 * MS);
	close_logs(fx);
	expect_log(fx, "m_lat.1.log", "11, 500, 0, 0, 0\n");
}

/* bw and iops with log_avg_msec=N: the entries are the job's rate
 * samples (fio logs each one __add_samples takes), stamped in ms when
 * taken, size 0; a direction without a sample writes nothing, and the
 * per-I/O path writes no bw or iops entry of its own. */
static void bw_iops_are_the_samples(void **state)
{
	struct fixture *fx = *state;
	struct loop_log *lg;
	struct rates_taken first = { .bw = { 102400, -1, -1 }, .iops = { 100, -1, -1 } };
	struct rates_taken second = { .bw = { -1, 8, -1 }, .iops = { -1, 2, -1 } };

	log_to(fx, "bw", "b");
	log_to(fx, "iops", "b");
	set_ok(&fx->spec, "log_avg_msec", "500");
	open_logs(fx, 1);
	lg = fx->w[0].log;
	for (int i = 0; i < 50; i++)
		loop_log_io(lg, 0, 0, 1 << 20, 0, 1000, 1000, (uint64_t)(10 + i) * MS);
	loop_log_rates(lg, &first, 501 * MS + 7);
	loop_log_rates(lg, &second, 1003 * MS);
	loop_log_finish(lg, 1900 * MS);
	close_logs(fx);
	expect_log(fx, "b_bw.1.log", "501, 102400, 0, 0, 0\n1003, 8, 1, 0, 0\n");
	expect_log(fx, "b_iops.1.log", "501, 100, 0, 0, 0\n1003, 2, 1, 0, 0\n");
}

/* write_hist_log with log_hist_msec=N: per direction, at the first
 * completion N ms or more after the window began, the counts since the
 * last entry in fio's 1856 bins (2^coarseness merged); the window begins
 * at the first sample; the last partial window is not written. */
static void hist_windows_and_coarseness(void **state)
{
	struct fixture *fx = *state;
	struct loop_log *lg;
	struct dir_stats *rd = &fx->w[0].result.dir[0];
	char *text, *line2;
	unsigned fields = 0;
	unsigned long long total = 0;

	log_to(fx, "hist", "h");
	set_ok(&fx->spec, "log_hist_msec", "100");
	set_ok(&fx->spec, "log_hist_coarseness", "2");
	open_logs(fx, 1);
	lg = fx->w[0].log;
	/* the loop adds to the histogram, then calls the log */
	lat_add(&rd->clat, 100);
	loop_log_io(lg, 0, 0, 4096, 0, 100, 100, 10 * MS);   /* window starts */
	lat_add(&rd->clat, 101);
	loop_log_io(lg, 0, 0, 4096, 0, 101, 101, 50 * MS);
	lat_add(&rd->clat, 5000);
	loop_log_io(lg, 0, 0, 8192, 0, 5000, 5000, 115 * MS); /* 105 ms: entry */
	loop_log_io(lg, 0, 0, 4096, 0, 1, 1, 105 * MS);       /* before the window */
	lat_add(&rd->clat, 300ull * 1000000000);              /* past fio's range */
	loop_log_io(lg, 0, 0, 4096, 0, 0, 0, 230 * MS);       /* 120 ms: entry */
	lat_add(&rd->clat, 7);
	loop_log_io(lg, 0, 0, 4096, 0, 7, 7, 250 * MS);       /* partial window */
	loop_log_finish(lg, 260 * MS);
	close_logs(fx);
	text = read_log(fx, "h_clat_hist.1.log");
	/* "115, 0, 8192, " then 464 bins; 100 and 101 share a bin of 4 */
	assert_int_equal(strncmp(text, "115, 0, 8192, ", 14), 0);
	for (char *p = text; *p && *p != '\n'; p++)
		fields += *p == ',';
	assert_int_equal(fields + 1, 3 + 1856 / 4);
	assert_non_null(strstr(text, ", 0, 2, 0, "));
	line2 = strchr(text, '\n') + 1;
	assert_int_equal(strncmp(line2, "230, 0, 4096, ", 14), 0);
	/* one sample, in the last bin (the early one counts in the next entry
	 * only through the histogram, which the test did not add it to) */
	assert_true(strstr(line2, ", 1\n") != NULL);
	for (char *p = line2 + 14; *p && *p != '\n'; p++)
		if (p[-1] == ' ')
			total += strtoull(p, NULL, 10);
	assert_int_equal(total, 1);
	assert_int_equal(strchr(line2, '\n')[1], '\0');
	free(text);
}

/* NAME_TYPE.N.log with N the clone's number in the run; per_job_logs=0:
 * NAME_TYPE.log, one file for every clone; the job's name without NAME. */
static void file_names_and_shared_files(void **state)
{
	struct fixture *fx = *state;
	char path[256];

	set_ok(&fx->spec, "write_iops_log", NULL);
	assert_int_equal(loop_log_path(&fx->spec, JOB_LOG_IOPS, "iops", 3, path,
				       sizeof(path)), 0);
	assert_string_equal(path, "job_iops.3.log");
	log_to(fx, "iops", "s");
	set_ok(&fx->spec, "per_job_logs", "0");
	open_logs(fx, 2);
	assert_non_null(fx->w[1].log);
	loop_log_io(fx->w[0].log, 0, 0, 4096, 0, 1, 1, 1 * MS);
	loop_log_io(fx->w[1].log, 1, 0, 4096, 0, 1, 1, 2 * MS);
	loop_log_finish(fx->w[1].log, 3 * MS);
	loop_log_finish(fx->w[0].log, 3 * MS);
	close_logs(fx);
	expect_log(fx, "s_iops.log", "2, 1, 1, 4096, 0\n1, 1, 0, 4096, 0\n");
	tmpdir_join(&fx->dir, "s_iops.1.log", path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
}

/* Clones have their own files; a job without logs gets no state. */
static void per_clone_files(void **state)
{
	struct fixture *fx = *state;
	struct job_spec plain;

	job_spec_defaults(&plain);
	fx->w[1].spec = &plain;
	log_to(fx, "bw", "c");
	open_logs(fx, 2);
	assert_non_null(fx->w[0].log);
	assert_null(fx->w[1].log);
	close_logs(fx);
	free(read_log(fx, "c_bw.1.log"));
}

/* A log of every I/O is written out as its buffer fills: memory stays
 * one buffer, and the file holds every line. */
static void buffers_stream_to_the_file(void **state)
{
	struct fixture *fx = *state;
	char *text;
	unsigned lines = 0;
	const unsigned n = 20000;   /* about 400 KiB of lines: several buffers */

	log_to(fx, "iops", "big");
	open_logs(fx, 1);
	for (unsigned i = 0; i < n; i++)
		loop_log_io(fx->w[0].log, 0, 0, 4096, 0, 1, 1, (uint64_t)i * MS);
	close_logs(fx);
	text = read_log(fx, "big_iops.1.log");
	assert_true(strlen(text) > 4 * FIO_LOG_BUF_BYTES);
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, n);
	assert_non_null(strstr(text, "\n19999, 1, 0, 4096, 0\n"));
	free(text);
}

/* The output gate decides: a log name under /proc is refused (exit 3),
 * one in a missing directory is bad input; nothing is left open. */
static void gate_refuses_kernel_files(void **state)
{
	struct fixture *fx = *state;

	set_ok(&fx->spec, "write_bw_log", "/proc/self/drivebench");
	assert_int_equal(run_logs_open(&fx->logs, fx->w, 1), -1);
	assert_true(err_refused());
	assert_non_null(strstr(err_msg(), "write_bw_log"));
	assert_non_null(strstr(err_msg(), "/proc/self/drivebench_bw.1.log"));
	run_logs_close(&fx->logs);
	set_ok(&fx->spec, "write_bw_log", "/nonexistent-dir/x");
	assert_int_equal(run_logs_open(&fx->logs, fx->w, 1), -1);
	assert_false(err_refused());
}

/* The text helpers: u64 to decimal, the largest value included. */
static void decimal_text(void **state)
{
	char text[32];

	(void)state;
	*fio_log_u64(text, 0) = '\0';
	assert_string_equal(text, "0");
	*fio_log_u64(text, UINT64_MAX) = '\0';
	assert_string_equal(text, "18446744073709551615");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_io_with_fio_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(offset_and_prio_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(latency_windows_as_fio, setup, teardown),
		cmocka_unit_test_setup_teardown(latency_windows_max_value, setup, teardown),
		cmocka_unit_test_setup_teardown(bw_iops_are_the_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(hist_windows_and_coarseness, setup, teardown),
		cmocka_unit_test_setup_teardown(file_names_and_shared_files, setup, teardown),
		cmocka_unit_test_setup_teardown(per_clone_files, setup, teardown),
		cmocka_unit_test_setup_teardown(buffers_stream_to_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(gate_refuses_kernel_files, setup, teardown),
		cmocka_unit_test(decimal_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
