/* test_gds.c - the gdsio-style sweep: gdsio's exact output line, the
 * figures taken from a measured result, the list and -I parsers with their
 * errors, each thread's region, the job one point runs and how a stored
 * result is recognised as a GDS point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/record.h"
#include "util/error.h"
#include "report/analysis/record_kind.h"
#include "workload/gds.h"

static const char gdsio_line[] =
	"IoType: READ XferType: GPUD Threads: 8 DataSetSize: 818796544/4096000(KiB) "
	"IOSize: 1024(KiB) Throughput: 6.622534 GiB/sec, Avg_Latency: 589.440000 usecs "
	"ops: 102380 total_time 15.097011 secs";

static void test_format_exact(void **state)
{
	struct gds_line l = {
		.io_type = "READ", .xfer = "GPUD", .threads = 8,
		.transferred_kib = 818796544, .dataset_kib = 4096000, .io_kib = 1024,
		.gib_per_s = 6.622534, .avg_latency_us = 589.44, .ops = 102380,
		.total_time_s = 15.097011,
	};
	char buf[512];

	(void)state;
	assert_int_equal(gds_format_line(&l, buf, sizeof(buf)), 0);
	assert_string_equal(buf, gdsio_line);
	/* too small a buffer is an error, not a cut line */
	assert_int_equal(gds_format_line(&l, buf, 40), -1);
	assert_non_null(strstr(err_msg(), "does not fit"));
}

static void test_line_from_result(void **state)
{
	struct job_spec spec;
	struct job_result r;
	struct gds_line l;
	char buf[512];

	(void)state;
	job_spec_defaults(&spec);
	spec.bs[DIR_READ] = spec.bs[DIR_WRITE] = 128 << 10;
	job_result_init(&r, &spec);
	r.runtime_ns = 2000000000ull;                  /* 2 s */
	r.dir[DIR_WRITE].ios = 16384;
	r.dir[DIR_WRITE].bytes = 16384ull * (128 << 10);   /* 2 GiB */
	for (unsigned i = 0; i < 4; i++)
		lat_add(&r.dir[DIR_WRITE].lat, 100000 + i * 1000);   /* mean 101.5 us */
	r.dir[DIR_READ].bytes = 999;                   /* the other direction is ignored */
	gds_line_from_result(&r, RW_WRITE, "CPUONLY", 4, 1ull << 30, &l);
	assert_int_equal(gds_format_line(&l, buf, sizeof(buf)), 0);
	assert_string_equal(buf,
		"IoType: WRITE XferType: CPUONLY Threads: 4 DataSetSize: 2097152/1048576(KiB) "
		"IOSize: 128(KiB) Throughput: 1.000000 GiB/sec, Avg_Latency: 101.500000 usecs "
		"ops: 16384 total_time 2.000000 secs");
	/* no measured time: zero throughput, never a division by zero */
	r.runtime_ns = 0;
	gds_line_from_result(&r, RW_RANDREAD, "GPUD", 1, 0, &l);
	assert_string_equal(l.io_type, "RANDREAD");
	assert_true(l.gib_per_s == 0.0);
	assert_int_equal(l.ops, 0);
	job_result_free(&r);
}

static void test_defaults(void **state)
{
	struct gds_sweep s;

	(void)state;
	gds_sweep_defaults(&s);
	assert_int_equal(s.nr_rw, 2);
	assert_int_equal(s.rw[0], RW_READ);
	assert_int_equal(s.rw[1], RW_WRITE);
	assert_int_equal(s.nr_bs, 3);
	assert_int_equal(s.bs[0], 16384);
	assert_int_equal(s.bs[2], 1048576);
	assert_int_equal(s.nr_threads, 7);
	assert_int_equal(s.threads[0], 1);
	assert_int_equal(s.threads[6], 128);
	assert_int_equal(s.xfer, 1);
	assert_true(s.runtime_ns == GDS_DEFAULT_RUNTIME_NS);
}

static void test_parse_lists(void **state)
{
	struct gds_sweep s;

	(void)state;
	gds_sweep_defaults(&s);
	assert_int_equal(gds_parse_rw_list("write,randread", &s), 0);
	assert_int_equal(s.nr_rw, 2);
	assert_int_equal(s.rw[0], RW_WRITE);
	assert_int_equal(s.rw[1], RW_RANDREAD);
	assert_int_equal(gds_parse_bs_list("16k,128K,1m", &s), 0);
	assert_int_equal(s.nr_bs, 3);
	assert_int_equal(s.bs[1], 131072);
	assert_int_equal(gds_parse_threads_list("1,4", &s), 0);
	assert_int_equal(s.nr_threads, 2);
	assert_int_equal(s.threads[1], 4);

	assert_int_equal(gds_parse_rw_list("read,trim", &s), -1);
	assert_non_null(strstr(err_msg(), "unknown direction 'trim'"));
	assert_int_equal(gds_parse_rw_list("read,read", &s), -1);
	assert_non_null(strstr(err_msg(), "twice"));
	assert_int_equal(gds_parse_rw_list("", &s), -1);
	assert_non_null(strstr(err_msg(), "empty list"));
	assert_int_equal(gds_parse_bs_list("16k,,1m", &s), -1);
	assert_non_null(strstr(err_msg(), "bad list"));
	assert_int_equal(gds_parse_bs_list("1000", &s), -1);
	assert_non_null(strstr(err_msg(), "multiple of 4K"));
	assert_int_equal(gds_parse_threads_list("0", &s), -1);
	assert_non_null(strstr(err_msg(), "bad thread count '0'"));
	assert_int_equal(gds_parse_threads_list("4x", &s), -1);
	assert_int_equal(gds_parse_threads_list(
		"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33",
		&s), -1);
	assert_non_null(strstr(err_msg(), "more than 32"));
	/* a failed parse leaves the list as it was */
	assert_int_equal(s.nr_threads, 2);
	assert_int_equal(s.threads[0], 1);
	assert_int_equal(s.threads[1], 4);
}

static void test_io_type(void **state)
{
	struct gds_sweep s;

	(void)state;
	gds_sweep_defaults(&s);
	assert_int_equal(gds_parse_io_type("3", &s), 0);
	assert_int_equal(s.nr_rw, 1);
	assert_int_equal(s.rw[0], RW_RANDWRITE);
	assert_int_equal(gds_parse_io_type("0", &s), 0);
	assert_int_equal(s.rw[0], RW_READ);
	assert_int_equal(gds_parse_io_type("4", &s), -1);
	assert_non_null(strstr(err_msg(), "-I: io type '4' not supported"));
	assert_int_equal(gds_parse_io_type("01", &s), -1);
	assert_string_equal(gds_io_type(RW_WRITE), "WRITE");
	assert_string_equal(gds_io_type(RW_RANDRW), "MIXED");
}

static void test_regions(void **state)
{
	struct gds_sweep s;
	uint64_t region;

	(void)state;
	gds_sweep_defaults(&s);
	assert_int_equal(gds_thread_region(&s, 4096, 1, &region), -1);
	assert_non_null(strstr(err_msg(), "-s SIZE"));
	/* one shared file: split among the threads, whole blocks */
	s.file_size = 10 << 20;
	assert_int_equal(gds_thread_region(&s, 1 << 20, 4, &region), 0);
	assert_int_equal(region, 2 << 20);
	assert_int_equal(gds_dataset_bytes(&s, 4), 10 << 20);
	assert_int_equal(gds_thread_region(&s, 1 << 20, 16, &region), -1);
	assert_non_null(strstr(err_msg(), "no 1048576-byte block per thread for 16 threads"));
	/* a directory: a whole file per thread */
	snprintf(s.directory, sizeof(s.directory), "/tmp");
	assert_int_equal(gds_thread_region(&s, 1 << 20, 16, &region), 0);
	assert_int_equal(region, 10 << 20);
	assert_int_equal(gds_dataset_bytes(&s, 16), 160ull << 20);
}

static void test_point_job(void **state)
{
	struct gds_sweep s;
	struct gds_path path = { .mode = "compat", .gpu_model = "NVIDIA H200\nx", .no_gpu = "" };
	struct job_spec j;

	(void)state;
	gds_sweep_defaults(&s);
	s.file_size = 64 << 20;
	s.xfer = 0;
	s.gpu = 2;
	s.runtime_ns = 3000000000ull;
	snprintf(s.filename, sizeof(s.filename), "/tmp/gds-file");
	assert_int_equal(gds_point_job(&s, RW_WRITE, 128 << 10, 4, &path, &j), 0);
	assert_string_equal(j.name, "gdsio");
	assert_string_equal(j.filename, "/tmp/gds-file");
	assert_string_equal(j.directory, "");
	assert_string_equal(j.ioengine, "cufile");
	assert_int_equal(j.rw, RW_WRITE);
	assert_int_equal(j.bs[DIR_WRITE], 128 << 10);
	assert_int_equal(j.numjobs, 4);
	assert_int_equal(j.iodepth, 1);
	assert_true(j.direct && j.time_based && j.group_reporting);
	assert_true(j.runtime_ns == 3000000000ull);
	assert_int_equal(j.size, 16 << 20);
	assert_int_equal(j.offset_increment, 16 << 20);
	assert_int_equal(j.gds_transfer, 0);
	assert_int_equal(j.gpu_device, 2);
	assert_non_null(strstr(j.options_text, "gds_xfer=GPUD\n"));
	assert_non_null(strstr(j.options_text, "gds_mode=compat\n"));
	/* the model's newline does not break the key=value lines */
	assert_non_null(strstr(j.options_text, "gds_gpu=NVIDIA H200 x\n"));
	assert_non_null(strstr(j.options_text, "runtime=3000ms\n"));

	/* -D: own files, no offset increment */
	s.filename[0] = '\0';
	snprintf(s.directory, sizeof(s.directory), "/tmp/gdsdir");
	s.xfer = 1;
	path.mode = "host";
	assert_int_equal(gds_point_job(&s, RW_READ, 1 << 20, 8, &path, &j), 0);
	assert_string_equal(j.directory, "/tmp/gdsdir");
	assert_int_equal(j.size, 64 << 20);
	assert_int_equal(j.offset_increment, 0);
	assert_non_null(strstr(j.options_text, "gds_xfer=CPUONLY\n"));

	/* a point that does not fit is refused */
	s.file_size = 4096;
	assert_int_equal(gds_point_job(&s, RW_READ, 1 << 20, 8, &path, &j), -1);
}

static void test_record_info(void **state)
{
	struct result_record rec;
	char xfer[16], mode[16];

	(void)state;
	memset(&rec, 0, sizeof(rec));
	assert_false(record_gds(&rec, xfer, sizeof(xfer), mode, sizeof(mode)));
	rec.options_json = "{\"rw\":\"read\",\"bs\":\"4k\"}";
	assert_false(record_gds(&rec, xfer, sizeof(xfer), mode, sizeof(mode)));
	rec.options_json = "{\"gds_xfer\":\"GPUD\",\"gds_mode\":\"compat\"}";
	assert_true(record_gds(&rec, xfer, sizeof(xfer), mode, sizeof(mode)));
	assert_string_equal(xfer, "GPUD");
	assert_string_equal(mode, "compat");
	rec.options_json = "{\"gds_xfer\":\"CPUONLY\"}";
	assert_true(record_gds(&rec, xfer, sizeof(xfer), mode, sizeof(mode)));
	assert_string_equal(mode, "");
	rec.options_json = "not json";
	assert_false(record_gds(&rec, xfer, sizeof(xfer), mode, sizeof(mode)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_exact),
		cmocka_unit_test(test_line_from_result),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_parse_lists),
		cmocka_unit_test(test_io_type),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_point_job),
		cmocka_unit_test(test_record_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
