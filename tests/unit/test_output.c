/* test_output.c - fio-schema JSON (parsed back with cJSON: keys, units,
 * percentile key format, json+ bins, partial flag, exact 64-bit counters)
 * and the human summary (figures, group lines, banners), an MPI run's
 * ranks as fio's clients, plus the error paths of both. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "output/output.h"
#include "util/error.h"
#include "helpers/fixtures.h"

struct fixture {
	struct job_spec spec[2];
	struct job_result res[2];
};

static void add_point(struct job_result *r, uint64_t t_ns, enum io_dir d,
		      uint64_t ios, uint64_t bytes)
{
	struct series_point p = { .t_ns = t_ns };

	p.ios[d] = ios;
	p.bytes[d] = bytes;
	p.lat_sum_ns[d] = ios * 51000;
	assert_int_equal(series_append(&r->series, &p), 0);
}

/* Entry 0: sequential read, 1000 x 4 KiB in exactly 2 s, latencies
 * 51000..51999 ns. Entry 1: random write in group 1 with two errors. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct job_spec *spec;
	struct job_result *r;

	if (!fx)
		return -1;
	spec = &fx->spec[0];
	job_checks_defaults(&spec->checks);
	strcpy(spec->name, "seqread");
	strcpy(spec->ioengine, "io_uring");
	spec->rw = RW_READ;
	spec->bs[0] = spec->bs[1] = 4096;
	spec->iodepth = 32;
	spec->series_interval_ns = 1000000000;
	pacing_defaults(&spec->pacing);
	strcpy(spec->options_text, "rw=read\nbs=4k\n iodepth = 32\nbs=8k\ndirect\n");

	spec = &fx->spec[1];
	job_checks_defaults(&spec->checks);
	strcpy(spec->name, "randwrite");
	strcpy(spec->ioengine, "libaio");
	spec->rw = RW_RANDWRITE;
	spec->bs[0] = 4096;
	spec->bs[1] = 1 << 20;
	spec->iodepth = 1;
	spec->percentiles[0] = 99.99;  /* unsorted on purpose */
	spec->percentiles[1] = 50;
	spec->nr_percentiles = 2;

	r = &fx->res[0];
	job_result_init(r, &fx->spec[0]);
	r->runtime_ns = 2000000000;
	r->ramp_ns = 1000000000;
	r->start_unix_ms = 1700000000123ull;
	r->usr_cpu_s = 0.75;
	r->sys_cpu_s = 0.3;
	r->ctx_switches = 42;
	r->minor_faults = 7;
	r->major_faults = 3;
	r->max_buffer_bytes = 131072;
	r->dir[DIR_READ].ios = 1000;
	r->dir[DIR_READ].bytes = 4096000;
	for (uint64_t i = 0; i < 1000; i++) {
		lat_add(&r->dir[DIR_READ].slat, 1000);
		lat_add(&r->dir[DIR_READ].clat, 50000 + i);
		lat_add(&r->dir[DIR_READ].lat, 51000 + i);
	}
	add_point(r, 1000000000, DIR_READ, 500, 2048000);
	add_point(r, 2000000000, DIR_READ, 500, 2048000);
	add_point(r, 2300000000, DIR_READ, 10, 40960);
	r->total_run_ns = r->runtime_ns;
	/* fio's rate samples (bwavgtime, iopsavgtime): 2000 and 2400 KiB/s */
	rate_stat_add(&r->bw_stat[DIR_READ], 2000);
	rate_stat_add(&r->bw_stat[DIR_READ], 2400);
	rate_stat_add(&r->iops_stat[DIR_READ], 500);
	rate_stat_add(&r->iops_stat[DIR_READ], 600);
	rate_stat_add(&r->iops_stat[DIR_READ], 400);

	r = &fx->res[1];
	job_result_init(r, &fx->spec[1]);
	r->groupid = 1;
	r->runtime_ns = 1000000000;
	r->error = -5;
	r->dir[DIR_WRITE].ios = 10;
	r->dir[DIR_WRITE].bytes = 10 << 20;
	r->dir[DIR_WRITE].errors = 2;
	r->dir[DIR_WRITE].first_error = -5;
	r->dir[DIR_WRITE].first_error_offset = 4096;
	for (uint64_t i = 0; i < 10; i++) {
		lat_add(&r->dir[DIR_WRITE].clat, 3000000 + i * 100000);
		lat_add(&r->dir[DIR_WRITE].lat, 3000000 + i * 100000);
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	job_result_free(&fx->res[0]);
	job_result_free(&fx->res[1]);
	free(fx);
	return 0;
}

/* Runs an output function into memory; returns the text (free it). */
static char *capture(int (*output)(FILE *, const struct job_result *, unsigned,
				   const struct run_info *),
		     const struct job_result *res, unsigned nr,
		     const struct run_info *info)
{
	struct fx_capture c;

	assert_int_equal(output(fx_capture_open(&c), res, nr, info), 0);
	return fx_capture_text(&c);
}

static cJSON *json_of(const struct job_result *res, unsigned nr,
		      const struct run_info *info, char **text_out)
{
	char *text = capture(output_json, res, nr, info);
	cJSON *root = cJSON_Parse(text);

	assert_non_null(root);
	if (text_out)
		*text_out = text;
	else
		free(text);
	return root;
}

static cJSON *item(const cJSON *obj, const char *key)
{
	cJSON *found = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!found)
		fail_msg("missing key '%s'", key);
	return found;
}

static double number(const cJSON *obj, const char *key)
{
	cJSON *found = item(obj, key);

	assert_true(cJSON_IsNumber(found));
	return found->valuedouble;
}

static void test_json_top_level(void **state)
{
	struct fixture *fx = *state;
	struct run_info info = { .timestamp_s = 1700000000, .timestamp_ms = 1700000000456ull };
	cJSON *root = json_of(fx->res, 2, &info, NULL);

	assert_string_equal(item(root, "drivebench version")->valuestring,
			    DRIVEBENCH_VERSION);
	/* fio's readers look for "fio version" first */
	assert_string_equal(root->child->string, "fio version");
	assert_string_equal(item(root, "fio version")->valuestring,
			    "fio-3.x-compatible (drivebench " DRIVEBENCH_VERSION ")");
	assert_true(number(root, "timestamp") == 1700000000.0);
	assert_true(number(root, "timestamp_ms") == 1700000000456.0);
	assert_true(cJSON_IsString(item(root, "time")));
	assert_true(strlen(item(root, "time")->valuestring) >= 20);  /* ctime-like */
	/* no global options: fio leaves the key out */
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "global options"));
	/* fio writes disk_util only when a block device was under a target */
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "disk_util"));
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "partial"));
	assert_int_equal(cJSON_GetArraySize(item(root, "jobs")), 2);
	cJSON_Delete(root);

	info.partial = true;
	root = json_of(fx->res, 2, &info, NULL);
	assert_true(cJSON_IsTrue(item(root, "partial")));
	cJSON_Delete(root);

	/* no results at all is still a valid document */
	root = json_of(NULL, 0, NULL, NULL);
	assert_int_equal(cJSON_GetArraySize(item(root, "jobs")), 0);
	cJSON_Delete(root);
}

static void test_json_job_fields(void **state)
{
	struct fixture *fx = *state;
	struct run_info info = { 0 };
	cJSON *root = json_of(fx->res, 2, &info, NULL);
	cJSON *job = cJSON_GetArrayItem(item(root, "jobs"), 0);
	cJSON *read = item(job, "read"), *opts = item(job, "job options");

	assert_string_equal(item(job, "jobname")->valuestring, "seqread");
	assert_true(number(job, "groupid") == 0);
	assert_true(number(job, "error") == 0);
	assert_true(number(job, "elapsed") == 3);  /* ramp + runtime */
	assert_true(number(job, "job_start") == 1700000000123.0);
	assert_string_equal(item(opts, "rw")->valuestring, "read");
	assert_string_equal(item(opts, "bs")->valuestring, "8k");  /* later wins */
	assert_string_equal(item(opts, "iodepth")->valuestring, "32");
	/* a bare flag is left out, as fio leaves out options without a value */
	assert_null(cJSON_GetObjectItemCaseSensitive(opts, "direct"));

	/* fio's units: bw in KiB/s, runtime in ms */
	assert_true(number(read, "io_bytes") == 4096000);
	assert_true(number(read, "io_kbytes") == 4000);
	assert_true(number(read, "bw_bytes") == 2048000);
	assert_true(number(read, "bw") == 2000);
	assert_true(fabs(number(read, "iops") - 500.0) < 1e-9);
	assert_true(number(read, "runtime") == 2000);
	assert_true(number(read, "total_ios") == 1000);
	assert_true(number(read, "short_ios") == 0);
	assert_true(number(read, "drop_ios") == 0);

	/* the rate samples, as fio's calc_lat reports an io_stat */
	assert_true(number(read, "bw_samples") == 2);
	assert_true(number(read, "bw_min") == 2000);
	assert_true(number(read, "bw_max") == 2400);
	assert_true(fabs(number(read, "bw_mean") - 2200) < 1e-9);
	assert_true(fabs(number(read, "bw_dev") - sqrt(80000.0)) < 1e-9);
	/* mean 2200 KiB/s against the group's 2000 KiB/s: capped at 100 */
	assert_true(fabs(number(read, "bw_agg") - 100.0) < 1e-9);
	assert_true(number(read, "iops_samples") == 3);
	assert_true(number(read, "iops_min") == 400);
	assert_true(number(read, "iops_max") == 600);
	assert_true(fabs(number(read, "iops_mean") - 500) < 1e-9);
	assert_true(fabs(number(read, "iops_stddev") - 100) < 1e-9);

	cJSON *clat = item(read, "clat_ns"), *pct = item(clat, "percentile");

	assert_true(number(clat, "N") == 1000);
	assert_true(number(clat, "min") == 50000);
	assert_true(number(clat, "max") == 50999);
	assert_true(fabs(number(clat, "mean") - 50499.5) < 1e-9);
	assert_true(fabs(number(clat, "stddev") - 288.819) < 0.001);
	assert_int_equal(cJSON_GetArraySize(pct), 17);  /* fio's default list */
	assert_true(fabs(number(pct, "50.000000") - 50500) < 505);
	assert_true(fabs(number(pct, "99.990000") - 50999) < 510);
	assert_true(cJSON_IsNumber(item(pct, "1.000000")));
	assert_null(cJSON_GetObjectItemCaseSensitive(clat, "bins"));  /* json only */
	/* fio's defaults: clat_percentiles=1, lat_ and slat_percentiles=0 */
	assert_null(cJSON_GetObjectItemCaseSensitive(item(read, "lat_ns"), "percentile"));
	assert_null(cJSON_GetObjectItemCaseSensitive(item(read, "slat_ns"), "percentile"));
	assert_true(number(item(read, "slat_ns"), "mean") == 1000);

	/* an idle direction: zeros, min 0 not UINT64_MAX, no percentiles */
	cJSON *write = item(job, "write"), *wclat = item(write, "clat_ns");

	assert_true(number(write, "total_ios") == 0);
	assert_true(number(write, "iops") == 0);
	assert_true(number(wclat, "min") == 0);
	assert_true(number(wclat, "N") == 0);
	assert_true(number(write, "bw_min") == 0 && number(write, "bw_samples") == 0);
	assert_true(number(write, "iops_min") == 0 && number(write, "iops_samples") == 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(wclat, "percentile"));
	assert_true(number(item(job, "trim"), "io_bytes") == 0);
	assert_true(number(item(job, "sync"), "total_ios") == 0);
	assert_true(number(item(item(job, "sync"), "lat_ns"), "N") == 0);

	/* job-wide figures */
	/* fio's total_run_time starts when the ramp ends: 2 s, not 3 */
	assert_true(number(job, "job_runtime") == 2000);
	assert_true(fabs(number(job, "usr_cpu") - 37.5) < 1e-9);
	assert_true(fabs(number(job, "sys_cpu") - 15.0) < 1e-9);
	assert_true(number(job, "ctx") == 42);
	assert_true(number(job, "majf") == 3);
	assert_true(number(job, "minf") == 7);
	assert_true(number(job, "latency_depth") == 32);
	assert_true(number(job, "latency_percentile") == 100.0);
	/* fio counts completion latencies here: 50.000..50.999 us, each at
	 * its bucket's midpoint; the bucket [49664, 50176) ns (176 of them)
	 * reads 49920, below fio's 50 us bound */
	assert_true(fabs(number(item(job, "latency_us"), "100") - 82.4) < 1e-9);
	assert_true(fabs(number(item(job, "latency_us"), "50") - 17.6) < 1e-9);
	assert_true(number(item(job, "latency_ns"), "1000") == 0.0);
	assert_true(number(item(job, "latency_ms"), ">=2000") == 0.0);

	/* drivebench extras */
	cJSON *extra = item(job, "drivebench");

	assert_true(number(extra, "max_buffer_bytes") == 131072);
	assert_true(number(extra, "series_interval_ms") == 1000);
	assert_int_equal(cJSON_GetArraySize(item(extra, "series")), 3);
	cJSON *p0 = cJSON_GetArrayItem(item(extra, "series"), 0);

	assert_true(number(p0, "t_ms") == 1000);
	assert_true(number(item(p0, "read"), "ios") == 500);
	assert_true(number(item(p0, "read"), "lat_mean_ns") == 51000);

	/* second job: its own percentile list, sorted; error as positive errno */
	job = cJSON_GetArrayItem(item(root, "jobs"), 1);
	assert_true(number(job, "error") == 5);
	assert_true(number(job, "groupid") == 1);
	pct = item(item(item(job, "write"), "clat_ns"), "percentile");
	assert_int_equal(cJSON_GetArraySize(pct), 2);
	assert_string_equal(pct->child->string, "50.000000");
	assert_string_equal(pct->child->next->string, "99.990000");
	assert_true(fabs(number(pct, "99.990000") - 3900000) < 39000);
	assert_true(number(item(item(job, "drivebench"), "errors"), "write") == 2);
	cJSON *first = item(item(item(job, "drivebench"), "first_error"), "write");

	assert_true(number(first, "errno") == 5);
	assert_true(number(first, "offset") == 4096);
	/* 3.0 .. 3.9 ms: "4" ms range holds 3.0..3.9 ms */
	assert_true(number(item(job, "latency_ms"), "4") == 100.0);
	assert_true(number(item(item(job, "write"), "clat_ns"), "min") == 3000000);
	cJSON_Delete(root);
}

static void test_json_plus_bins(void **state)
{
	struct fixture *fx = *state;
	struct run_info info = { .json_plus = true };
	cJSON *root = json_of(fx->res, 1, &info, NULL);
	cJSON *job = cJSON_GetArrayItem(item(root, "jobs"), 0);
	cJSON *bins = item(item(item(job, "read"), "clat_ns"), "bins");
	const cJSON *bin;
	double total = 0;

	cJSON_ArrayForEach(bin, bins) {
		char *end;
		unsigned long long value = strtoull(bin->string, &end, 10);

		assert_true(*end == '\0');
		assert_true(value >= 49000 && value <= 51500);
		total += bin->valuedouble;
	}
	assert_true(total == 1000);
	/* 50000..50999 spans buckets of 512 ns: 2 or 3 buckets, all non-empty */
	assert_in_range(cJSON_GetArraySize(bins), 2, 3);
	cJSON_Delete(root);
}

static void test_json_exact_large_counters(void **state)
{
	struct fixture *fx = *state;
	struct job_result *r = &fx->res[0];
	char *text;
	cJSON *root;

	r->dir[DIR_READ].bytes = 9007199254740993ull;  /* 2^53 + 1 */
	root = json_of(fx->res, 1, NULL, &text);
	assert_non_null(strstr(text, "\"io_bytes\":\t9007199254740993"));
	assert_non_null(strstr(text, "\"percentile\""));
	assert_non_null(strstr(text, "\"99.990000\""));
	free(text);
	cJSON_Delete(root);
}

static void test_output_errors(void **state)
{
	struct fixture *fx = *state;
	FILE *read_only = fopen("/dev/null", "r");

	assert_non_null(read_only);
	err_clear();
	assert_int_equal(output_json(NULL, fx->res, 1, NULL), -1);
	assert_non_null(strstr(err_msg(), "output stream"));
	assert_int_equal(output_json(stdout, NULL, 1, NULL), -1);
	assert_int_equal(output_summary(NULL, fx->res, 1, NULL), -1);
	assert_int_equal(output_summary(stdout, NULL, 1, NULL), -1);
	err_clear();
	assert_int_equal(output_json(read_only, fx->res, 2, NULL), -1);
	assert_non_null(strstr(err_msg(), "writing JSON"));
	clearerr(read_only);
	err_clear();
	assert_int_equal(output_summary(read_only, fx->res, 2, NULL), -1);
	assert_non_null(strstr(err_msg(), "writing summary"));
	fclose(read_only);
}

static void test_summary_figures(void **state)
{
	struct fixture *fx = *state;
	struct run_info info = { .target_note = "default target ./drivebench-scratch.dat" };
	char *text = capture(output_summary, fx->res, 2, &info);
	char *group0, *group1;

	assert_true(strncmp(text, "default target ./drivebench-scratch.dat\n", 40) == 0);
	assert_non_null(strstr(text,
		"seqread: (groupid=0, jobs=1): err=0: rw=read, bs=4KiB, "
		"ioengine=io_uring, iodepth=32\n"));
	assert_non_null(strstr(text,
		"  read: 2.05 MB/s (1.95 MiB/s), IOPS 500.0, 4.10 MB in 2.000 s\n"));
	assert_non_null(strstr(text, "    lat (ns): mean 51499.50, p99 "));
	assert_non_null(strstr(text, ", max 51999.00\n"));
	assert_non_null(strstr(text, "    slat/clat mean (ns): 1000.00 / 50499.50\n"));
	assert_null(strstr(text, "  write: 0"));  /* idle direction not shown */

	assert_non_null(strstr(text,
		"randwrite: (groupid=1, jobs=1): err=5 (Input/output error): "
		"rw=randwrite, bs=4KiB,1MiB, ioengine=libaio, iodepth=1\n"));
	assert_non_null(strstr(text, "  write: 10.49 MB/s (10.00 MiB/s), IOPS 10.0, 10.49 MB in 1.000 s\n"));
	/* p99's bucket midpoint (3915.78 us) is past the max: clamped */
	assert_non_null(strstr(text, "    lat (us): mean 3450.00, p99 3900.00, p99.9 3900.00, "
			       "p99.99 3900.00, max 3900.00\n"));
	assert_non_null(strstr(text,
		"    errors: 2, first: Input/output error (errno 5) at offset 4096\n"));

	group0 = strstr(text, "\nRun status group 0 (all jobs):\n");
	group1 = strstr(text, "\nRun status group 1 (all jobs):\n");
	assert_non_null(group0);
	assert_non_null(group1);
	assert_true(group0 < group1);
	assert_non_null(strstr(group0,
		"   READ: bw=2000KiB/s (2048kB/s), 2000KiB/s-2000KiB/s "
		"(2048kB/s-2048kB/s), io=4000KiB (4096kB), run=2000-2000msec\n"));
	/* fio's num2str: 10 MiB has room for one decimal */
	assert_non_null(strstr(group1,
		"  WRITE: bw=10.0MiB/s (10.5MB/s), 10.0MiB/s-10.0MiB/s "
		"(10.5MB/s-10.5MB/s), io=10.0MiB (10.5MB), run=1000-1000msec\n"));
	assert_null(strstr(text, "PARTIAL"));
	free(text);
}

static void test_summary_groups_merge_and_order(void **state)
{
	struct fixture *fx = *state;
	struct job_result res[3];
	char *text, *g0, *g1;

	/* two entries in group 0 (listed after group 1): one line, summed */
	res[0] = fx->res[1];
	res[1] = fx->res[0];
	res[2] = fx->res[0];
	res[2].runtime_ns = 4000000000;
	text = capture(output_summary, res, 3, NULL);
	g0 = strstr(text, "Run status group 0");
	g1 = strstr(text, "Run status group 1");
	assert_non_null(g0);
	assert_non_null(g1);
	assert_true(g0 < g1);
	/* 8192000 bytes over the longest run (4 s); range 1.024..2.048 MB/s */
	assert_non_null(strstr(g0,
		"   READ: bw=2000KiB/s (2048kB/s), 1000KiB/s-2000KiB/s "
		"(1024kB/s-2048kB/s), io=8000KiB (8192kB), run=2000-4000msec\n"));
	assert_null(strstr(g0 + 1, "Run status group 0"));  /* printed once */
	free(text);
}

static void test_summary_partial_banner(void **state)
{
	struct fixture *fx = *state;
	struct run_info info = { .partial = true, .target_note = "note" };
	char *text = capture(output_summary, fx->res, 1, &info);
	const char *first = strstr(text, "PARTIAL RESULTS: interrupted");
	size_t len = strlen(text);

	assert_true(first == text + 4);  /* the very first line: "*** PARTIAL..." */
	assert_non_null(strstr(first + 1, "PARTIAL RESULTS: interrupted"));
	assert_true(len > 5);
	/* the last line is the banner again */
	assert_non_null(strstr(text + len - 80, "PARTIAL RESULTS: interrupted"));
	assert_non_null(strstr(text, "\nnote\n"));
	free(text);
}

/* An MPI run's ranks as fio's clients: client_stats holds each rank's job
 * objects with hostname and port, then "All clients": the aggregate's
 * object renamed; the summary prints each rank's block under its <host>
 * line before the aggregate. Without clients neither appears. */
static void test_clients(void **state)
{
	struct fixture *fx = *state;
	const struct run_client clients[2] = {
		{ .hostname = "h0", .rank = 0, .local_rank = 0, .res = &fx->res[0], .nr = 1 },
		{ .hostname = "h1", .rank = 1, .local_rank = 0, .res = &fx->res[0], .nr = 1 },
	};
	struct run_info info = { .clients = clients, .nr_clients = 2 };
	cJSON *root = json_of(fx->res, 1, &info, NULL);
	cJSON *cs = item(root, "client_stats");
	cJSON *job = cJSON_GetArrayItem(item(root, "jobs"), 0);
	const char *want[3] = { "seqread", "seqread", "All clients" };
	const char *host[3] = { "h0", "h1", "h0" };
	char *text, *r0, *r1, *all;

	assert_int_equal(cJSON_GetArraySize(cs), 3);
	for (int i = 0; i < 3; i++) {
		cJSON *c = cJSON_GetArrayItem(cs, i);

		assert_string_equal(item(c, "jobname")->valuestring, want[i]);
		assert_string_equal(item(c, "hostname")->valuestring, host[i]);
		assert_int_equal((int)number(c, "port"), 0);
		assert_true(cJSON_Compare(item(c, "read"), item(job, "read"), true));
	}
	assert_int_equal((int)number(item(cJSON_GetArrayItem(cs, 1), "drivebench"), "rank"), 1);
	assert_string_equal(item(item(cJSON_GetArrayItem(cs, 2), "drivebench"), "jobname")->valuestring,
			    "seqread");
	cJSON_Delete(root);

	text = capture(output_summary, fx->res, 1, &info);
	r0 = strstr(text, "<h0> rank 0 (local 0):\nseqread: (groupid=0");
	r1 = strstr(text, "\n\n<h1> rank 1 (local 0):\nseqread: (groupid=0");
	all = strstr(text, "\n\nAll clients (2 ranks):\nseqread: (groupid=0");
	assert_true(r0 == text && r1 && all && r1 < all);
	assert_non_null(strstr(r0, "Run status group 0"));
	assert_true(strstr(r0, "Run status group 0") < r1);
	assert_true(strstr(r1, "Run status group 0") < all);
	assert_non_null(strstr(all, "Run status group 0"));
	free(text);

	root = json_of(fx->res, 1, NULL, NULL);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "client_stats"));
	cJSON_Delete(root);
	text = capture(output_summary, fx->res, 1, NULL);
	assert_null(strstr(text, "All clients"));
	assert_null(strchr(text, '<'));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_top_level, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_job_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_plus_bins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_exact_large_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_figures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_groups_merge_and_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_partial_banner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clients, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
