/* test_options.c - fio option parsing: every option, the value parsers
 * (sizes with kb_base, times, CPU lists), every error path, job_spec
 * cross-checks, fio-style command lines and --set overrides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/job_list.h"
#include "job/options.h"
#include "helpers/fixtures.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * 1024 * 1024)
#define NS_PER_SEC 1000000000ull

/* The option must fail and the message must be exactly expected. */
static void set_fails(struct job_spec *spec, const char *key, const char *value,
		      const char *expected)
{
	err_clear();
	assert_int_equal(job_option_set(spec, key, value), -1);
	assert_string_equal(err_msg(), expected);
}

static void test_defaults(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	assert_string_equal(s->name, "job");
	assert_string_equal(s->source, "command line");
	assert_int_equal(s->rw, RW_READ);
	assert_int_equal(s->bs[DIR_READ], 4096);
	assert_int_equal(s->bs[DIR_WRITE], 4096);
	assert_int_equal(s->iodepth, 1);
	/* fio's batching: one I/O per submit, one completion per reap */
	assert_int_equal(s->iodepth_batch_submit, 1);
	assert_int_equal(s->iodepth_batch_complete_min, 1);
	assert_int_equal(s->iodepth_batch_complete_max, 0);
	assert_int_equal(s->numjobs, 1);
	assert_string_equal(s->ioengine, "io_uring");
	assert_false(s->direct);
	assert_int_equal(s->rwmixread, 50);
	assert_true(s->randrepeat);
	assert_int_equal(s->random_generator, RANDGEN_TAUSWORTHE);
	assert_int_equal(s->distribution.kind, DIST_RANDOM);
	assert_int_equal(s->nr_percentiles, 18);
	assert_true(s->percentiles[0] == 1.0);
	assert_true(s->percentiles[12] == 99.0);
	assert_true(s->percentiles[16] == 99.99);
	assert_true(s->percentiles[17] == 99.9999);
	assert_int_equal(s->series_interval_ns, NS_PER_SEC);
	assert_int_equal(s->chunk_size, 8 * MiB);
	assert_int_equal(s->kb_base, 1024);
	assert_string_equal(s->options_text, "");
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
}

static void expect_size(const char *text, unsigned kb_base, uint64_t expected)
{
	uint64_t value = 0;

	if (parse_size(text, kb_base, &value) != 0)
		fail_msg("parse_size('%s', %u): %s", text, kb_base, err_msg());
	if (value != expected)
		fail_msg("parse_size('%s', %u) = %llu, want %llu", text, kb_base,
			 (unsigned long long)value, (unsigned long long)expected);
}

static void test_parse_size(void **state)
{
	uint64_t value = 77;

	(void)state;
	expect_size("0", 1024, 0);
	expect_size("512", 1024, 512);
	expect_size("512b", 1024, 512);
	expect_size("0x1000", 1024, 4096);
	/* compatibility mode: k/KB = 1024, KiB = 1000 */
	expect_size("4k", 1024, 4096);
	expect_size("4K", 1024, 4096);
	expect_size("4KB", 1024, 4096);
	expect_size("4kb", 1024, 4096);
	expect_size("4KiB", 1024, 4000);
	expect_size("4kib", 1024, 4000);
	expect_size("1m", 1024, MiB);
	expect_size("1g", 1024, GiB);
	expect_size("2t", 1024, 2 * 1024 * GiB);
	expect_size("1p", 1024, 1024ull * 1024 * GiB);
	expect_size("1MiB", 1024, 1000000);
	/* kb_base=1000 flips it */
	expect_size("4k", 1000, 4000);
	expect_size("4KB", 1000, 4000);
	expect_size("4KiB", 1000, 4096);
	expect_size("1GiB", 1000, GiB);
	expect_size("1g", 1000, 1000000000);
	/* fractions: drivebench extension, truncated to bytes */
	expect_size("1.5g", 1024, GiB + GiB / 2);
	expect_size("0.5k", 1024, 512);
	expect_size("0.1k", 1024, 102);
	expect_size("16383p", 1024, 16383ull * 1024 * 1024 * GiB);

	assert_int_equal(parse_size("abc", 1024, &value), -1);
	assert_string_equal(err_msg(), "bad size 'abc'");
	assert_int_equal(parse_size("", 1024, &value), -1);
	assert_int_equal(parse_size("-4k", 1024, &value), -1);
	assert_int_equal(parse_size(" 4k", 1024, &value), -1);
	assert_int_equal(parse_size("4 k", 1024, &value), -1);
	assert_int_equal(parse_size("4x", 1024, &value), -1);
	assert_int_equal(parse_size("4kbb", 1024, &value), -1);
	assert_int_equal(parse_size("4ki", 1024, &value), -1);
	assert_int_equal(parse_size("4.", 1024, &value), -1);
	assert_int_equal(parse_size("0x", 1024, &value), -1);
	assert_int_equal(parse_size("0x1g", 1024, &value), -1);
	assert_int_equal(parse_size(NULL, 1024, &value), -1);
	assert_int_equal(parse_size("16384p", 1024, &value), -1);
	assert_non_null(strstr(err_msg(), "too large"));
	assert_int_equal(parse_size("99999999999999999999", 1024, &value), -1);
	assert_int_equal(parse_size("18446744073709551615", 1024, &value), 0);
	assert_true(value == UINT64_MAX);
	assert_int_equal(parse_size("4k", 1023, &value), -1);
	assert_non_null(strstr(err_msg(), "kb_base"));
	assert_true(value == UINT64_MAX);  /* untouched on error */
}

static void test_parse_time(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(parse_time_ns("30", NS_PER_SEC, &ns), 0);
	assert_true(ns == 30 * NS_PER_SEC);
	assert_int_equal(parse_time_ns("30", 1000000, &ns), 0);
	assert_true(ns == 30000000);
	assert_int_equal(parse_time_ns("500ms", NS_PER_SEC, &ns), 0);
	assert_true(ns == 500000000);
	assert_int_equal(parse_time_ns("10us", NS_PER_SEC, &ns), 0);
	assert_true(ns == 10000);
	assert_int_equal(parse_time_ns("7ns", NS_PER_SEC, &ns), 0);
	assert_true(ns == 7);
	assert_int_equal(parse_time_ns("3s", 1, &ns), 0);
	assert_true(ns == 3 * NS_PER_SEC);
	assert_int_equal(parse_time_ns("2m", 1, &ns), 0);
	assert_true(ns == 120 * NS_PER_SEC);
	assert_int_equal(parse_time_ns("1h", 1, &ns), 0);
	assert_true(ns == 3600 * NS_PER_SEC);
	assert_int_equal(parse_time_ns("1d", 1, &ns), 0);
	assert_true(ns == 86400 * NS_PER_SEC);
	assert_int_equal(parse_time_ns("2MS", 1, &ns), 0);
	assert_true(ns == 2000000);

	assert_int_equal(parse_time_ns("", NS_PER_SEC, &ns), -1);
	assert_int_equal(parse_time_ns("x", NS_PER_SEC, &ns), -1);
	assert_string_equal(err_msg(), "bad time 'x'");
	assert_int_equal(parse_time_ns("-1", NS_PER_SEC, &ns), -1);
	assert_int_equal(parse_time_ns("5y", NS_PER_SEC, &ns), -1);
	assert_int_equal(parse_time_ns("1.5s", NS_PER_SEC, &ns), -1);
	assert_int_equal(parse_time_ns(NULL, NS_PER_SEC, &ns), -1);
	assert_int_equal(parse_time_ns("999999999999d", NS_PER_SEC, &ns), -1);
	assert_non_null(strstr(err_msg(), "too large"));
	assert_int_equal(parse_time_ns("99999999999999999999", 1, &ns), -1);
}

static void test_parse_cpu_list(void **state)
{
	cpu_set_t set;

	(void)state;
	assert_int_equal(parse_cpu_list("0-3,6", &set), 5);
	assert_true(CPU_ISSET(0, &set) && CPU_ISSET(3, &set) && CPU_ISSET(6, &set));
	assert_false(CPU_ISSET(4, &set));
	assert_int_equal(parse_cpu_list("2", NULL), 1);
	assert_int_equal(parse_cpu_list("1,1,0-1", NULL), 2);
	assert_int_equal(parse_cpu_list("", NULL), -1);
	assert_int_equal(parse_cpu_list(NULL, NULL), -1);
	assert_int_equal(parse_cpu_list("3-1", NULL), -1);
	assert_non_null(strstr(err_msg(), "backwards"));
	assert_int_equal(parse_cpu_list("a", NULL), -1);
	assert_int_equal(parse_cpu_list("1,", NULL), -1);
	assert_int_equal(parse_cpu_list("1-", NULL), -1);
	assert_int_equal(parse_cpu_list("1;2", NULL), -1);
	assert_int_equal(parse_cpu_list("-1", NULL), -1);
	assert_int_equal(parse_cpu_list("99999", NULL), -1);
	assert_non_null(strstr(err_msg(), "out of range"));
}

static void test_identity_and_where(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "name", "seqread");
	assert_string_equal(s->name, "seqread");
	set_ok(s, "description", "a test job");
	assert_string_equal(s->description, "a test job");
	set_ok(s, "filename", "/dev/nvme0n1");
	assert_string_equal(s->filename, "/dev/nvme0n1");
	set_ok(s, "directory", "/mnt/scratch");
	assert_string_equal(s->directory, "/mnt/scratch");
	set_ok(s, "size", "10g");
	assert_true(s->size == 10 * GiB && s->size_pct == 0);
	set_ok(s, "size", "50%");
	assert_true(s->size == 0 && s->size_pct == 50);
	set_ok(s, "size", "12.5%");
	assert_true(s->size_pct == 12.5);
	set_ok(s, "size", "1m");
	assert_true(s->size == MiB && s->size_pct == 0);
	set_ok(s, "io_size", "2g");
	assert_true(s->io_size == 2 * GiB);
	set_ok(s, "io_limit", "3g");
	assert_true(s->io_size == 3 * GiB);
	set_ok(s, "offset", "1m");
	assert_true(s->offset == MiB && s->offset_pct == 0);
	set_ok(s, "offset", "25%");
	assert_true(s->offset == 0 && s->offset_pct == 25);
	set_ok(s, "offset_increment", "64m");
	assert_true(s->offset_increment == 64 * MiB);

	set_fails(s, "name", "", "option 'name': empty name");
	set_fails_with(s, "size", "0%", "bad percentage");
	set_fails_with(s, "size", "101%", "bad percentage");
	set_fails_with(s, "size", "x%", "bad percentage");
	set_fails(s, "size", "abc", "option 'size': bad size 'abc'");
	set_fails_with(s, "offset", "100%", "bad percentage");
	set_fails_with(s, "offset", "-1%", "bad percentage");
	set_fails(s, "offset_increment", "1q", "option 'offset_increment': bad size '1q'");
	set_fails(s, "io_size", NULL, "option 'io_size': needs a value");
	{
		char long_name[JOB_NAME_MAX + 10];

		memset(long_name, 'n', sizeof(long_name) - 1);
		long_name[sizeof(long_name) - 1] = '\0';
		set_fails_with(s, "name", long_name, "longer than 127");
	}
	free(s);
}

static void test_rw_and_mix(void **state)
{
	static const struct { const char *text; enum rw_mode mode; } modes[] = {
		{ "read", RW_READ }, { "write", RW_WRITE }, { "randread", RW_RANDREAD },
		{ "randwrite", RW_RANDWRITE }, { "rw", RW_READWRITE },
		{ "readwrite", RW_READWRITE }, { "randrw", RW_RANDRW },
		{ "trim", RW_TRIM }, { "randtrim", RW_RANDTRIM },
		{ "trimwrite", RW_TRIMWRITE }, { "randtrimwrite", RW_RANDTRIMWRITE },
		{ "randrw", RW_RANDRW },
	};
	struct job_spec *s = new_spec();

	(void)state;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		set_ok(s, "rw", modes[i].text);
		assert_int_equal(s->rw, modes[i].mode);
		set_ok(s, "readwrite", modes[i].text);
		assert_int_equal(s->rw, modes[i].mode);
	}
	/* fio's offset modifiers: bytes added for sequential modes, I/Os per
	 * new offset for random ones; each rw= resets both */
	set_ok(s, "rw", "randread:8");
	assert_int_equal(s->rw, RW_RANDREAD);
	assert_true(s->pacing.rand_seq_nr == 8 && s->pacing.seq_add == 0);
	set_ok(s, "rw", "read:-8k");
	assert_true(s->pacing.seq_add == -8192 && s->pacing.rand_seq_nr == 1);
	set_ok(s, "rw", "write:112k");
	assert_true(s->pacing.seq_add == 112 * 1024);
	set_fails_with(s, "rw", "randread:0", "0 is too small");
	set_fails_with(s, "rw", "read:x", "bad size 'x'");
	set_fails_with(s, "rw", "read:", "empty offset modifier");
	set_ok(s, "rw", "randrw");
	set_fails(s, "rw", "sideways", "option 'rw': unknown mode 'sideways'");
	set_fails(s, "rw", "reads:8", "option 'rw': unknown mode 'reads:8'");
	assert_int_equal(s->rw, RW_RANDRW);  /* failures leave the value */

	set_ok(s, "rwmixread", "70");
	assert_int_equal(s->rwmixread, 70);
	set_ok(s, "rwmixwrite", "10");
	assert_int_equal(s->rwmixread, 90);
	set_ok(s, "rwmixread", "0");
	assert_int_equal(s->rwmixread, 0);
	set_fails(s, "rwmixread", "101", "option 'rwmixread': 101 is too large, the range is 0..100");
	set_fails(s, "rwmixwrite", "101", "option 'rwmixwrite': 101 is too large, the range is 0..100");
	set_fails(s, "rwmixread", "-5", "option 'rwmixread': bad number '-5'");
	set_fails(s, "rwmixread", "5x", "option 'rwmixread': bad number '5x'");
	free(s);
}

static void test_block_sizes(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "bs", "64k");
	assert_true(s->bs[DIR_READ] == 64 * KiB && s->bs[DIR_WRITE] == 64 * KiB);
	set_ok(s, "bs", "4k,128k");
	assert_true(s->bs[DIR_READ] == 4 * KiB && s->bs[DIR_WRITE] == 128 * KiB);
	set_ok(s, "bs", ",8k");
	assert_true(s->bs[DIR_READ] == 4 * KiB && s->bs[DIR_WRITE] == 8 * KiB);
	set_ok(s, "blocksize", "16k");
	assert_true(s->bs[DIR_READ] == 16 * KiB && s->bs[DIR_WRITE] == 16 * KiB);
	set_fails(s, "bs", "0", "option 'bs': 0 is too small, the range is 1 byte..4 GiB");
	set_fails(s, "bs", "abc", "option 'bs': bad size 'abc'");
	set_fails_with(s, "bs", "4k-64k", "not supported; use bsrange or bssplit");
	/* a third value is the trim size; one not followed by a comma also
	 * applies to the directions after it, as in fio */
	set_ok(s, "bs", "4k,8k,16k");
	assert_true(s->bs[DIR_WRITE] == 8 * KiB && s->bs[DIR_TRIM] == 16 * KiB);
	set_ok(s, "bs", "8k,32k");
	assert_true(s->bs[DIR_WRITE] == 32 * KiB && s->bs[DIR_TRIM] == 32 * KiB);
	set_ok(s, "bs", "16k,8k,");
	assert_true(s->bs[DIR_WRITE] == 8 * KiB && s->bs[DIR_TRIM] == 32 * KiB);
	set_fails_with(s, "bs", "4k,4k,4k,4k", "at most read,write,trim");
	set_fails(s, "bs", NULL, "option 'bs': needs a value");
	assert_true(s->bs[DIR_READ] == 16 * KiB);

	set_ok(s, "blockalign", "4k");
	assert_true(s->blockalign[DIR_READ] == 4 * KiB && s->blockalign[DIR_WRITE] == 4 * KiB);
	set_ok(s, "ba", "512,8k");
	assert_true(s->blockalign[DIR_READ] == 512 && s->blockalign[DIR_WRITE] == 8 * KiB);
	set_ok(s, "blockalign", "0");
	assert_true(s->blockalign[DIR_READ] == 0);
	set_fails(s, "blockalign", "zz", "option 'blockalign': bad size 'zz'");

	/* kb_base changes what later sizes mean */
	set_ok(s, "kb_base", "1000");
	set_ok(s, "bs", "4k");
	assert_true(s->bs[DIR_READ] == 4000);
	set_fails(s, "kb_base", "1001", "option 'kb_base': must be 1000 or 1024");
	free(s);
}

static void test_bssplit(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "bssplit", "4k/10:64k/50:32k/40");
	assert_int_equal(s->bssplit_nr[DIR_READ], 3);
	assert_int_equal(s->bssplit_nr[DIR_WRITE], 3);
	assert_true(s->bssplit[DIR_READ][1].bs == 64 * KiB);
	assert_true(s->bssplit[DIR_READ][1].pct == 50);
	assert_true(s->bssplit[DIR_WRITE][2].bs == 32 * KiB);
	assert_true(s->bssplit[DIR_WRITE][2].pct == 40);

	/* read split, write split */
	set_ok(s, "bssplit", "4k/100,8k/25:16k/75");
	assert_int_equal(s->bssplit_nr[DIR_READ], 1);
	assert_int_equal(s->bssplit_nr[DIR_WRITE], 2);
	assert_true(s->bssplit[DIR_WRITE][1].bs == 16 * KiB);

	/* fractional shares are honoured */
	set_ok(s, "bssplit", "4k/33.3:8k/33.3:16k/33.4");
	assert_true(fabs(s->bssplit[DIR_READ][0].pct - 33.3) < 1e-9);
	assert_true(fabs(s->bssplit[DIR_READ][2].pct - 33.4) < 1e-9);

	/* entries without a percentage share the remainder equally */
	set_ok(s, "bssplit", "4k/50:8k/:16k");
	assert_int_equal(s->bssplit_nr[DIR_READ], 3);
	assert_true(s->bssplit[DIR_READ][1].pct == 25);
	assert_true(s->bssplit[DIR_READ][2].pct == 25);
	set_ok(s, "bssplit", "4k:8k:16k");
	assert_true(fabs(s->bssplit[DIR_READ][0].pct - 100.0 / 3) < 1e-9);
	set_ok(s, "bssplit", "4k/100:8k/");
	assert_true(s->bssplit[DIR_READ][1].pct == 0);

	/* an empty part keeps that direction */
	set_ok(s, "bssplit", ",128k/100");
	assert_int_equal(s->bssplit_nr[DIR_READ], 2);
	assert_int_equal(s->bssplit_nr[DIR_WRITE], 1);
	assert_true(s->bssplit[DIR_WRITE][0].bs == 128 * KiB);

	set_fails(s, "bssplit", "4k/10:64k/50",
		  "option 'bssplit': percentages add up to 60, not 100");
	set_fails_with(s, "bssplit", "4k/60:64k/50", "110");
	set_fails_with(s, "bssplit", "4k/60:64k/50:8k/", "over 100");
	set_fails(s, "bssplit", "4k/10:xyz/90", "option 'bssplit': bad size 'xyz'");
	set_fails(s, "bssplit", "0/100", "option 'bssplit': block size: 0 is too small, the range is 1 byte..4 GiB");
	set_fails(s, "bssplit", "4k/abc", "option 'bssplit': bad percentage 'abc'");
	set_fails(s, "bssplit", "4k/101", "option 'bssplit': bad percentage '101'");
	set_fails_with(s, "bssplit", "4k/50::8k/50", "empty entry");
	set_fails_with(s, "bssplit", "4k/100,8k/100,4k/100", "not supported");
	set_fails(s, "bssplit", "4k/100,8k/50", "option 'bssplit': percentages add up to 50, not 100");
	{
		char many[BSSPLIT_MAX * 8 + 16] = "";

		for (int i = 0; i <= BSSPLIT_MAX; i++)
			strcat(many, i ? ":4k" : "4k");
		set_fails_with(s, "bssplit", many, "more than 64 entries");
	}
	/* failed calls left the last good split */
	assert_int_equal(s->bssplit_nr[DIR_WRITE], 1);
	/* fio's 500 ms rate sample windows; adaptive batching is off */
	assert_int_equal(job_rate_window_ms(s, true), 500);
	assert_int_equal(job_rate_window_ms(s, false), 500);
	assert_false(s->measure.batch_adaptive);
	/* a bw log takes log_avg_msec as the window (fio's init.c); one per
	 * I/O makes the samples per I/O (0); a given bwavgtime stays */
	set_ok(s, "write_bw_log", "b");
	set_ok(s, "log_avg_msec", "100");
	assert_int_equal(job_rate_window_ms(s, true), 100);
	assert_int_equal(job_rate_window_ms(s, false), 500);
	set_ok(s, "bwavgtime", "250");
	assert_int_equal(job_rate_window_ms(s, true), 250);
	set_ok(s, "log_avg_msec", "0");
	assert_int_equal(job_rate_window_ms(s, true), 0);
	free(s);
}

static void test_measure_options(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "bwavgtime", "250");
	assert_int_equal(s->measure.bw_avg_ms, 250);
	set_ok(s, "iopsavgtime", "1000");
	assert_int_equal(s->measure.iops_avg_ms, 1000);
	set_ok(s, "iodepth_batch_adaptive", "1");
	assert_true(s->measure.batch_adaptive);
	set_ok(s, "iodepth_batch_adaptive", "0");
	assert_false(s->measure.batch_adaptive);
	set_ok(s, "iodepth_batch_adaptive", NULL);   /* a bare flag is on */
	assert_true(s->measure.batch_adaptive);
	set_fails(s, "bwavgtime", "0", "option 'bwavgtime': 0 is too small, the range is 1..86400000");
	set_fails(s, "iopsavgtime", "1s", "option 'iopsavgtime': bad number '1s'");
	set_fails(s, "iodepth_batch_adaptive", "maybe",
		  "option 'iodepth_batch_adaptive': bad boolean 'maybe'");
	free(s);
}

static void test_depth_and_engine(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "iodepth", "32");
	assert_int_equal(s->iodepth, 32);
	set_ok(s, "iodepth_batch_submit", "8");
	assert_int_equal(s->iodepth_batch_submit, 8);
	set_ok(s, "iodepth_batch", "4");
	assert_int_equal(s->iodepth_batch_submit, 4);
	set_ok(s, "iodepth_batch_complete_min", "2");
	assert_int_equal(s->iodepth_batch_complete_min, 2);
	set_ok(s, "iodepth_batch_complete", "3");
	assert_int_equal(s->iodepth_batch_complete_min, 3);
	set_ok(s, "iodepth_batch_complete_max", "16");
	assert_int_equal(s->iodepth_batch_complete_max, 16);
	set_ok(s, "numjobs", "4");
	assert_int_equal(s->numjobs, 4);
	set_fails(s, "iodepth", "0", "option 'iodepth': 0 is too small, the range is 1..65536");
	set_fails(s, "iodepth", "-1", "option 'iodepth': bad number '-1'");
	set_fails(s, "iodepth", "4k", "option 'iodepth': bad number '4k'");
	set_fails(s, "iodepth", "", "option 'iodepth': bad number ''");
	set_fails(s, "iodepth", "99999999999999999999999", "option 'iodepth': bad number '99999999999999999999999'");
	set_fails(s, "iodepth", "1000000", "option 'iodepth': 1000000 is too large, the range is 1..65536");
	set_fails(s, "numjobs", "0", "option 'numjobs': 0 is too small, the range is 1..4096");
	set_fails(s, "fsync", "x", "option 'fsync': bad number 'x'");
	set_fails(s, "fsync", "4294967296", "option 'fsync': 4294967296 is too large, the range is 0..4294967295");
	assert_int_equal(s->iodepth, 32);

	set_ok(s, "ioengine", "LibAIO");
	assert_string_equal(s->ioengine, "libaio");
	set_ok(s, "ioengine", "psync");
	set_ok(s, "ioengine", "null");
	set_ok(s, "ioengine", "io_uring");
	assert_string_equal(s->ioengine, "io_uring");
	set_ok(s, "ioengine", "someday");  /* the runner checks it exists */
	set_fails(s, "ioengine", "", "option 'ioengine': empty engine name");
	set_fails_with(s, "ioengine", "a_name_that_is_far_too_long_for_the_field", "too long");

	set_ok(s, "fsync", "16");
	assert_int_equal(s->fsync_every, 16);
	set_ok(s, "cpus_allowed", "0-1,3");
	assert_string_equal(s->cpus_allowed, "0-1,3");
	set_fails(s, "cpus_allowed", "1-0", "option 'cpus_allowed': bad CPU list '1-0': range 1-0 runs backwards");
	set_fails(s, "cpus_allowed", "x", "option 'cpus_allowed': bad CPU list 'x'");
	free(s);
}

static void test_booleans(void **state)
{
	static const struct { const char *name; size_t offset; } flags[] = {
		{ "thread", offsetof(struct job_spec, thread) },
		{ "direct", offsetof(struct job_spec, direct) },
		{ "time_based", offsetof(struct job_spec, time_based) },
		{ "group_reporting", offsetof(struct job_spec, group_reporting) },
		{ "randrepeat", offsetof(struct job_spec, randrepeat) },
		{ "norandommap", offsetof(struct job_spec, norandommap) },
		{ "end_fsync", offsetof(struct job_spec, end_fsync) },
		{ "fixedbufs", offsetof(struct job_spec, fixedbufs) },
		{ "registerfiles", offsetof(struct job_spec, registerfiles) },
		{ "sqthread_poll", offsetof(struct job_spec, sqthread_poll) },
		{ "hipri", offsetof(struct job_spec, hipri) },
		{ "stonewall", offsetof(struct job_spec, stonewall) },
		{ "wait_for_previous", offsetof(struct job_spec, stonewall) },
		{ "new_group", offsetof(struct job_spec, new_group) },
		{ "sync", offsetof(struct job_spec, sync_io) },
	};
	static const char *const yes[] = { NULL, "1", "true", "yes", "on", "TRUE" };
	static const char *const no[] = { "0", "false", "no", "off", "Off" };
	struct job_spec *s = new_spec();

	(void)state;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		bool *field = (bool *)((char *)s + flags[i].offset);

		for (size_t y = 0; y < sizeof(yes) / sizeof(yes[0]); y++) {
			*field = false;
			set_ok(s, flags[i].name, yes[y]);
			assert_true(*field);
		}
		for (size_t n = 0; n < sizeof(no) / sizeof(no[0]); n++) {
			*field = true;
			set_ok(s, flags[i].name, no[n]);
			assert_false(*field);
		}
		err_clear();
		assert_int_equal(job_option_set(s, flags[i].name, "maybe"), -1);
		assert_non_null(strstr(err_msg(), "'maybe'"));
	}
	set_ok(s, "buffered", NULL);
	assert_false(s->direct);
	set_ok(s, "buffered", "0");
	assert_true(s->direct);
	set_fails(s, "direct", "2", "option 'direct': bad boolean '2'");
	set_fails(s, "buffered", "x", "option 'buffered': bad boolean 'x'");

	set_ok(s, "sync", "sync");
	assert_true(s->sync_io);
	set_ok(s, "sync", "none");
	assert_false(s->sync_io);
	set_ok(s, "sync", "dsync");
	assert_true(s->sync_io);

	/* a stonewall starts a new reporting group */
	s->new_group = false;
	set_ok(s, "stonewall", NULL);
	assert_true(s->stonewall && s->new_group);
	free(s);
}

static void test_times(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "runtime", "30");
	assert_true(s->runtime_ns == 30 * NS_PER_SEC);
	set_ok(s, "runtime", "500ms");
	assert_true(s->runtime_ns == 500000000);
	set_ok(s, "timeout", "2m");
	assert_true(s->runtime_ns == 120 * NS_PER_SEC);
	set_ok(s, "ramp_time", "5");
	assert_true(s->ramp_ns == 5 * NS_PER_SEC);
	set_ok(s, "series_interval", "250");
	assert_true(s->series_interval_ns == 250000000);
	set_ok(s, "series_interval", "2s");
	assert_true(s->series_interval_ns == 2 * NS_PER_SEC);
	set_fails(s, "series_interval", "0", "option 'series_interval': 0 is too small, the range is 1ms..1d");
	set_fails(s, "runtime", "soon", "option 'runtime': bad time 'soon'");
	set_fails(s, "ramp_time", "1y", "option 'ramp_time': bad time '1y'");

	set_ok(s, "null_latency", "10us-2ms");
	assert_true(s->null_latency_min_ns == 10000 && s->null_latency_max_ns == 2000000);
	set_ok(s, "null_latency", "50");
	assert_true(s->null_latency_min_ns == 50000 && s->null_latency_max_ns == 50000);
	set_ok(s, "null_latency", "0");
	assert_true(s->null_latency_min_ns == 0 && s->null_latency_max_ns == 0);
	set_fails(s, "null_latency", "2ms-10us",
		  "option 'null_latency': minimum 2ms is above maximum 10us");
	set_fails(s, "null_latency", "1-2-3", "option 'null_latency': bad latency range '1-2-3' (want MIN-MAX, e.g. 10us-2ms)");
	set_fails(s, "null_latency", "fast", "option 'null_latency': bad time 'fast'");
	set_fails(s, "null_latency", "1us-", "option 'null_latency': bad time ''");

	set_ok(s, "chunk_size", "1m");
	assert_true(s->chunk_size == MiB);
	set_fails(s, "chunk_size", "0", "option 'chunk_size': 0 is too small, the range is 512 bytes..1 GiB");
	free(s);
}

static void test_random(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "randseed", "12345");
	assert_true(s->randseed == 12345 && s->randseed_set);
	set_fails(s, "randseed", "-1", "option 'randseed': bad number '-1'");
	set_ok(s, "random_generator", "lfsr");
	assert_int_equal(s->random_generator, RANDGEN_LFSR);
	set_ok(s, "random_generator", "tausworthe64");
	assert_int_equal(s->random_generator, RANDGEN_TAUSWORTHE64);
	set_ok(s, "random_generator", "tausworthe");
	assert_int_equal(s->random_generator, RANDGEN_TAUSWORTHE);
	set_fails_with(s, "random_generator", "mt", "unknown generator 'mt'");

	set_ok(s, "random_distribution", "zipf:1.2");
	assert_int_equal(s->distribution.kind, DIST_ZIPF);
	assert_true(s->distribution.param == 1.2);
	set_ok(s, "random_distribution", "pareto:0.3");
	assert_int_equal(s->distribution.kind, DIST_PARETO);
	set_ok(s, "random_distribution", "normal:5");
	assert_int_equal(s->distribution.kind, DIST_NORMAL);
	assert_true(s->distribution.param == 5);
	set_ok(s, "random_distribution", "gauss:2.5");
	assert_int_equal(s->distribution.kind, DIST_NORMAL);
	set_ok(s, "random_distribution", "zoned:60/10:30/20:8/30:2/40");
	assert_int_equal(s->distribution.kind, DIST_ZONED);
	assert_int_equal(s->distribution.nr_zones, 4);
	assert_true(s->distribution.zones[1].access_pct == 30);
	assert_true(s->distribution.zones[1].range_pct == 20);
	set_ok(s, "random_distribution", "zoned_abs:60/20g:40/100g");
	assert_int_equal(s->distribution.kind, DIST_ZONED_ABS);
	assert_int_equal(s->distribution.nr_zones, 2);
	assert_true(s->distribution.zones[1].size == 100 * GiB);
	set_ok(s, "random_distribution", "random");
	assert_int_equal(s->distribution.kind, DIST_RANDOM);

	set_fails_with(s, "random_distribution", "zipf:1", "theta");
	set_fails_with(s, "random_distribution", "zipf:0", "theta");
	set_fails_with(s, "random_distribution", "zipf", "needs a number");
	set_fails_with(s, "random_distribution", "zipf:x", "needs a number");
	set_fails_with(s, "random_distribution", "pareto:1", "pareto");
	set_fails_with(s, "random_distribution", "pareto:0", "pareto");
	set_fails_with(s, "random_distribution", "normal:0", "sigma");
	set_fails_with(s, "random_distribution", "gauss:-1", "sigma");
	set_fails_with(s, "random_distribution", "random:3", "no parameter");
	set_fails_with(s, "random_distribution", "zoned", "needs zones");
	set_fails_with(s, "random_distribution", "zoned:60/10:30/20", "access percentages add up to 90");
	set_fails_with(s, "random_distribution", "zoned:60/10:40/20", "range percentages add up to 30");
	set_fails_with(s, "random_distribution", "zoned:60:40/100", "bad zone '60'");
	set_fails_with(s, "random_distribution", "zoned:x/50:100/50", "bad access percentage");
	set_fails_with(s, "random_distribution", "zoned:50/y:50/50", "bad range percentage");
	set_fails_with(s, "random_distribution", "zoned:50/50,50/50", "not supported");
	set_fails_with(s, "random_distribution", "zoned_abs:60/20g:30/1g", "add up to 90");
	set_fails_with(s, "random_distribution", "zoned_abs:100/0", "zone size: 0 is too small, the range is 1 byte..1 EiB");
	set_fails_with(s, "random_distribution", "zoned_abs:100/huge", "bad size 'huge'");
	set_fails_with(s, "random_distribution", "lumpy:3", "unknown distribution");
	{
		char many[ZONES_MAX * 8 + 16] = "";

		for (int i = 0; i <= ZONES_MAX; i++)
			strcat(many, i ? ":1/1" : "zoned:1/1");
		set_fails_with(s, "random_distribution", many, "more than 32 zones");
	}
	assert_int_equal(s->distribution.kind, DIST_RANDOM);
	free(s);
}

static void test_percentiles(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "percentile_list", "99.99:50:99:99.9:50");
	assert_int_equal(s->nr_percentiles, 4);  /* sorted, duplicate dropped */
	assert_true(s->percentiles[0] == 50);
	assert_true(s->percentiles[1] == 99);
	assert_true(s->percentiles[2] == 99.9);
	assert_true(s->percentiles[3] == 99.99);
	set_ok(s, "percentile_list", "100");
	assert_int_equal(s->nr_percentiles, 1);
	set_fails(s, "percentile_list", "0:50", "option 'percentile_list': bad percentile '0' (0 < p <= 100)");
	set_fails_with(s, "percentile_list", "50:100.1", "bad percentile '100.1'");
	set_fails_with(s, "percentile_list", "50::99", "bad percentile list");
	set_fails_with(s, "percentile_list", "", "bad percentile list");
	set_fails_with(s, "percentile_list", "fifty", "bad percentile 'fifty'");
	{
		char many[PERCENTILE_MAX * 4 + 16] = "";

		for (int i = 0; i <= PERCENTILE_MAX; i++)
			strcat(many, i ? ":50" : "50");
		set_fails_with(s, "percentile_list", many, "more than 64");
	}
	assert_int_equal(s->nr_percentiles, 1);
	free(s);
}

static void test_unknown_and_text(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_fails(s, "foo", "1", "unknown option 'foo'");
	set_fails(s, "overwrite", "1", "option 'overwrite': not supported by drivebench");
	set_fails_with(s, "zonemode", "sequential", "option 'zonemode': bad value 'sequential'");
	set_fails_with(s, "zonecapacity", "1m", "option 'zonecapacity': fio's zonemode=zbd option is not supported");
	set_fails_with(s, "verify", "md4", "option 'verify': verify=md4: unknown method");
	set_fails(s, "", "1", "empty option name");
	assert_false(job_option_known("foo"));
	assert_false(job_option_known("overwrite"));
	assert_true(job_option_known("zonemode"));
	assert_true(job_option_known("verify_pattern"));
	assert_true(job_option_known("verify"));
	assert_true(job_option_known("verify_fatal"));
	assert_false(job_option_known(NULL));
	assert_true(job_option_known("bs"));
	assert_true(job_option_known("io_limit"));
	assert_true(job_option_known("null_latency"));

	set_ok(s, "bs", "8k");
	set_ok(s, "direct", NULL);
	set_ok(s, "rw", "randread");
	assert_string_equal(s->options_text, "bs=8k\ndirect\nrw=randread");

	/* a full buffer is cut, never overrun */
	for (int i = 0; i < 600; i++)
		set_ok(s, "description", "0123456789");
	assert_int_equal(strlen(s->options_text), sizeof(s->options_text) - 1);
	set_ok(s, "iodepth", "4");
	assert_int_equal(strlen(s->options_text), sizeof(s->options_text) - 1);
	assert_int_equal(s->iodepth, 4);
	free(s);
}

static void expect_invalid(struct job_spec *s, const char *fragment)
{
	err_clear();
	assert_int_equal(job_spec_validate(s), -1);
	if (!strstr(err_msg(), fragment) || strncmp(err_msg(), "job 'v': option '", 17))
		fail_msg("validate: '%s' lacks '%s'", err_msg(), fragment);
}

static void test_validate(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "name", "v");
	assert_int_equal(job_spec_validate(s), 0);

	s->iodepth = 0;
	expect_invalid(s, "option 'iodepth': must be at least 1");
	job_spec_defaults(s);
	set_ok(s, "name", "v");
	s->numjobs = 0;
	expect_invalid(s, "numjobs");
	s->numjobs = 1;
	s->rwmixread = 101;
	expect_invalid(s, "rwmixread");
	s->rwmixread = 50;
	s->bs[DIR_READ] = 0;
	expect_invalid(s, "'bs'");
	s->bs[DIR_READ] = 4096;
	s->bssplit_nr[DIR_WRITE] = 1;
	s->bssplit[DIR_WRITE][0].bs = 4096;
	s->bssplit[DIR_WRITE][0].pct = 90;
	expect_invalid(s, "write percentages add up to 90");
	s->bssplit_nr[DIR_WRITE] = 0;

	set_ok(s, "iodepth", "4");
	set_ok(s, "iodepth_batch_complete_min", "8");
	expect_invalid(s, "'iodepth_batch_complete_min': 8 is more than iodepth 4");
	set_ok(s, "iodepth_batch_complete_min", "2");
	set_ok(s, "iodepth_batch_complete_max", "1");
	expect_invalid(s, "'iodepth_batch_complete_max'");
	set_ok(s, "iodepth_batch_complete_max", "4");
	assert_int_equal(job_spec_validate(s), 0);

	set_ok(s, "time_based", NULL);
	expect_invalid(s, "'time_based': needs a runtime");
	set_ok(s, "runtime", "10");
	assert_int_equal(job_spec_validate(s), 0);

	s->null_latency_min_ns = 5;
	s->null_latency_max_ns = 4;
	expect_invalid(s, "null_latency");
	s->null_latency_max_ns = 5;
	s->distribution.kind = DIST_ZIPF;
	s->distribution.param = 1;
	expect_invalid(s, "zipf");
	s->distribution.kind = DIST_ZONED;
	s->distribution.nr_zones = 1;
	s->distribution.zones[0].access_pct = 100;
	s->distribution.zones[0].range_pct = 50;
	expect_invalid(s, "range percentages");
	s->distribution.kind = DIST_RANDOM;
	s->size_pct = 120;
	expect_invalid(s, "'size'");
	s->size_pct = 0;
	s->offset_pct = 100;
	expect_invalid(s, "'offset'");
	s->offset_pct = 0;
	s->percentiles[0] = 0;
	expect_invalid(s, "percentile_list");
	s->percentiles[0] = 1;
	s->series_interval_ns = 0;
	expect_invalid(s, "series_interval");
	s->series_interval_ns = 1;
	s->chunk_size = 0;
	expect_invalid(s, "chunk_size");
	s->chunk_size = 1;
	s->kb_base = 7;
	expect_invalid(s, "kb_base");
	s->kb_base = 1000;
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
}

static void test_directions_and_bounds(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	assert_true(job_spec_reads(s) && !job_spec_writes(s) && !job_spec_random(s));
	set_ok(s, "rw", "randwrite");
	assert_true(!job_spec_reads(s) && job_spec_writes(s) && job_spec_random(s));
	set_ok(s, "rw", "randrw");
	assert_true(job_spec_reads(s) && job_spec_writes(s) && job_spec_random(s));
	set_ok(s, "rwmixread", "100");
	assert_true(job_spec_reads(s) && !job_spec_writes(s));
	set_ok(s, "rwmixread", "0");
	assert_true(!job_spec_reads(s) && job_spec_writes(s));
	set_ok(s, "rw", "rw");
	assert_false(job_spec_random(s));

	set_ok(s, "rwmixread", "50");
	set_ok(s, "bs", "4k,64k");
	assert_true(job_spec_min_bs(s) == 4 * KiB && job_spec_max_bs(s) == 64 * KiB);
	set_ok(s, "rw", "read");   /* the write size no longer counts */
	assert_true(job_spec_min_bs(s) == 4 * KiB && job_spec_max_bs(s) == 4 * KiB);
	set_ok(s, "rw", "write");
	assert_true(job_spec_min_bs(s) == 64 * KiB && job_spec_max_bs(s) == 64 * KiB);
	set_ok(s, "bssplit", "8k/20:1m/80:512/0");   /* the 0% entry is never issued */
	assert_true(job_spec_min_bs(s) == 8 * KiB && job_spec_max_bs(s) == MiB);
	set_ok(s, "rw", "randrw");
	set_ok(s, "bssplit", "2k/100,16k/50:32k/50");
	assert_true(job_spec_min_bs(s) == 2 * KiB && job_spec_max_bs(s) == 32 * KiB);
	free(s);
}

static void test_cmdline(void **state)
{
	char *argv[] = {
		"--bs=8k", "--direct=1", "--ioengine=libaio",
		"--name=first", "--rw=randread", "--iodepth=16",
		"--name=second", "--rw=write", "--bs=64k", "--stonewall",
	};
	struct job_list list = { 0 };

	(void)state;
	assert_int_equal(cmdline_jobs(10, argv, &list), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.jobs[0].name, "first");
	assert_string_equal(list.jobs[0].source, "command line");
	assert_true(list.jobs[0].bs[DIR_READ] == 8 * KiB);
	assert_true(list.jobs[0].direct);
	assert_string_equal(list.jobs[0].ioengine, "libaio");
	assert_int_equal(list.jobs[0].rw, RW_RANDREAD);
	assert_int_equal(list.jobs[0].iodepth, 16);
	assert_false(list.jobs[0].stonewall);
	assert_string_equal(list.jobs[0].options_text,
			    "bs=8k\ndirect=1\nioengine=libaio\nname=first\nrw=randread\niodepth=16");
	/* job options stay in their job */
	assert_string_equal(list.jobs[1].name, "second");
	assert_int_equal(list.jobs[1].iodepth, 1);
	assert_int_equal(list.jobs[1].rw, RW_WRITE);
	assert_true(list.jobs[1].bs[DIR_WRITE] == 64 * KiB);
	assert_true(list.jobs[1].direct);
	assert_true(list.jobs[1].stonewall);

	/* --set reaches every job and is validated */
	assert_int_equal(job_list_set_all(&list, "runtime=2"), 0);
	assert_true(list.jobs[0].runtime_ns == 2 * NS_PER_SEC);
	assert_true(list.jobs[1].runtime_ns == 2 * NS_PER_SEC);
	assert_int_equal(job_list_set_all(&list, "filename=/tmp/x"), 0);
	assert_string_equal(list.jobs[1].filename, "/tmp/x");
	assert_int_equal(job_list_set_all(&list, "time_based"), 0);
	assert_true(list.jobs[0].time_based);
	assert_int_equal(job_list_set_all(&list, "bs"), -1);
	assert_string_equal(err_msg(), "--set bs: option 'bs': needs a value");
	assert_int_equal(job_list_set_all(&list, "bs=xyz"), -1);
	assert_string_equal(err_msg(), "--set bs=xyz: option 'bs': bad size 'xyz'");
	assert_int_equal(job_list_set_all(&list, "=3"), -1);
	assert_non_null(strstr(err_msg(), "KEY=VALUE"));
	/* overrides are not cross-checked one by one: the caller validates */
	assert_int_equal(job_list_set_all(&list, "runtime=0"), 0);
	assert_int_equal(job_spec_validate(&list.jobs[1]), -1);
	assert_int_equal(job_list_set_all(&list, "runtime=1m"), 0);
	assert_int_equal(job_spec_validate(&list.jobs[1]), 0);
	/* a failed --set leaves every job as it was */
	assert_int_equal(job_list_set_all(&list, "iodepth=0"), -1);
	assert_string_equal(err_msg(), "--set iodepth=0: option 'iodepth': 0 is too small, the range is 1..65536");
	assert_int_equal(list.jobs[0].iodepth, 16);
	assert_int_equal(list.jobs[1].iodepth, 1);

	/* a second call appends */
	{
		char *more[] = { "--name=third" };

		assert_int_equal(cmdline_jobs(1, more, &list), 0);
		assert_int_equal(list.nr, 3);
		assert_string_equal(list.jobs[2].name, "third");
	}
	job_list_free(&list);
	assert_null(list.jobs);
	assert_int_equal(list.nr, 0);
	assert_int_equal(job_list_set_all(&list, "bs=4k"), 0);  /* empty list */
}

static void test_cmdline_global_only_and_errors(void **state)
{
	struct job_list list = { 0 };

	(void)state;
	{
		char *argv[] = { "--rw=randwrite", "--bs=16k", "--kb_base=1000" };

		assert_int_equal(cmdline_jobs(3, argv, &list), 0);
		assert_int_equal(list.nr, 1);
		assert_string_equal(list.jobs[0].name, "job");
		/* kb_base applies first, whatever its place */
		assert_true(list.jobs[0].bs[DIR_WRITE] == 16000);
		job_list_free(&list);
	}
	assert_int_equal(cmdline_jobs(0, NULL, &list), 0);
	assert_int_equal(list.nr, 0);
	{
		char *argv[] = { "--name=a", "--bs=xyz" };

		assert_int_equal(cmdline_jobs(2, argv, &list), -1);
		assert_string_equal(err_msg(), "--bs=xyz: option 'bs': bad size 'xyz'");
	}
	{
		char *argv[] = { "--bs=4k", "randread" };

		assert_int_equal(cmdline_jobs(2, argv, &list), -1);
		assert_non_null(strstr(err_msg(), "'randread'"));
	}
	{
		char *argv[] = { "-bs=4k" };

		assert_int_equal(cmdline_jobs(1, argv, &list), -1);
		assert_non_null(strstr(err_msg(), "'-bs=4k'"));
	}
	{
		char *argv[] = { "--" };

		assert_int_equal(cmdline_jobs(1, argv, &list), -1);
	}
	{
		char *argv[] = { "--name" };

		assert_int_equal(cmdline_jobs(1, argv, &list), -1);
		assert_string_equal(err_msg(), "--name: option 'name': needs a value");
	}
	{
		char *argv[] = { "--bogus=1" };

		assert_int_equal(cmdline_jobs(1, argv, &list), -1);
		assert_string_equal(err_msg(), "--bogus=1: unknown option 'bogus'");
	}
	{
		char *argv[] = { "--name=x", "--time_based" };

		assert_int_equal(cmdline_jobs(2, argv, &list), -1);
		assert_string_equal(err_msg(), "job 'x': option 'time_based': needs a runtime");
	}
	assert_int_equal(list.nr, 0);  /* failures add nothing */
	job_list_free(&list);
}

/* offset_increment as a share of the target (fio accepts NN%), and size. */
static void test_offset_increment_percent(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "offset_increment", "25%");
	assert_true(s->offset_increment == 0 && s->offset_increment_pct == 25);
	set_ok(s, "size", "25%");
	assert_true(s->size_pct == 25);
	set_ok(s, "offset_increment", "0%");
	assert_true(s->offset_increment_pct == 0);
	set_ok(s, "offset_increment", "1m");   /* bytes again clear the share */
	assert_true(s->offset_increment == MiB && s->offset_increment_pct == 0);
	set_fails(s, "offset_increment", "101%",
		  "option 'offset_increment': bad percentage '101%' (0 <= NN% <= 100)");
	set_fails(s, "offset_increment", "x%",
		  "option 'offset_increment': bad percentage 'x%' (0 <= NN% <= 100)");
	set_fails(s, "offset_increment", "1q", "option 'offset_increment': bad size '1q'");
	assert_true(s->offset_increment == MiB);   /* failures change nothing */
	free(s);
}

/* bssplit_file=PATH: found next to the job file, parsed with comments,
 * every error naming file:line; the shipped CDN read split loads. */
static void test_bssplit_file(void **state)
{
	struct job_spec *s = new_spec();
	char expected[512];

	(void)state;
	snprintf(s->source, sizeof(s->source), "%s/job.fio", tmp_dir());
	file_write_text(tmp_path("good.bssplit"), "# a split\n128k/90 ; most\n\n  4k / 7.5\n8k/2.5\n");
	set_ok(s, "bssplit_file", "good.bssplit");
	for (int dir = 0; dir < DIR_COUNT; dir++) {
		assert_int_equal(s->bssplit_nr[dir], 3);
		assert_true(s->bssplit[dir][0].bs == 128 * KiB && s->bssplit[dir][0].pct == 90);
		assert_true(s->bssplit[dir][1].bs == 4 * KiB && s->bssplit[dir][1].pct == 7.5);
		assert_true(s->bssplit[dir][2].bs == 8 * KiB && s->bssplit[dir][2].pct == 2.5);
	}
	assert_int_equal(job_spec_validate(s), 0);

	file_write_text(tmp_path("sum.bssplit"), "128k/90\n4k/9\n");
	snprintf(expected, sizeof(expected),
		 "option 'bssplit_file': %s/sum.bssplit: percentages add up to 99, not 100",
		 tmp_dir());
	set_fails(s, "bssplit_file", "sum.bssplit", expected);
	file_write_text(tmp_path("noslash.bssplit"), "; c\n128k/90\n4k 10\n");
	snprintf(expected, sizeof(expected),
		 "option 'bssplit_file': %s/noslash.bssplit:3: '4k 10': want SIZE/PERCENT, "
		 "e.g. 128k/83.21", tmp_dir());
	set_fails(s, "bssplit_file", "noslash.bssplit", expected);
	file_write_text(tmp_path("badsize.bssplit"), "4q/100\n");
	snprintf(expected, sizeof(expected),
		 "option 'bssplit_file': %s/badsize.bssplit:1: bad size '4q'", tmp_dir());
	set_fails(s, "bssplit_file", "badsize.bssplit", expected);
	file_write_text(tmp_path("badpct.bssplit"), "4k/100\n8k/-1\n");
	set_fails_with(s, "bssplit_file", "badpct.bssplit", "badpct.bssplit:2: bad percentage '-1'");
	file_write_text(tmp_path("zero.bssplit"), "0/100\n");
	set_fails_with(s, "bssplit_file", "zero.bssplit", "zero.bssplit:1: block size: 0 is too small, the range is 1 byte..4 GiB");
	file_write_text(tmp_path("empty.bssplit"), "# nothing\n\n");
	set_fails_with(s, "bssplit_file", "empty.bssplit", "empty.bssplit: no SIZE/PERCENT entries");
	{
		char text[65 * 16] = "", line[16];

		for (int i = 1; i <= 65; i++) {
			snprintf(line, sizeof(line), "%dk/1\n", i);
			strcat(text, line);
		}
		file_write_text(tmp_path("long.bssplit"), text);
		set_fails_with(s, "bssplit_file", "long.bssplit", "long.bssplit:65: more than 64 entries");
	}
	set_fails_with(s, "bssplit_file", "missing.bssplit", "no file 'missing.bssplit' (looked next to ");
	set_fails(s, "bssplit_file", "", "option 'bssplit_file': empty path");
	/* failures leave the good split in place */
	assert_int_equal(s->bssplit_nr[DIR_READ], 3);

	/* the shipped CDN read split, from workloads/ (tests run in the repo) */
	set_ok(s, "bssplit_file", "cdn-read.bssplit");
	{
		double sum = 0, tail = 0;
		unsigned small = 0;

		for (unsigned i = 0; i < s->bssplit_nr[DIR_READ]; i++) {
			const struct bssplit_entry *e = &s->bssplit[DIR_READ][i];

			sum += e->pct;
			if (e->bs == 128 * KiB)
				assert_true(fabs(e->pct - 83.21) < 1e-9);
			else {
				assert_true(e->bs >= 4 * KiB && e->bs <= 124 * KiB);
				tail += e->pct;
				small++;
			}
		}
		assert_true(small >= 30);
		assert_true(fabs(sum - 100) < 1e-9);
		assert_true(fabs(tail - 16.79) < 1e-9);
	}
	/* an absolute path */
	snprintf(expected, sizeof(expected), "%s/good.bssplit", tmp_dir());
	set_ok(s, "bssplit_file", expected);
	assert_int_equal(s->bssplit_nr[DIR_WRITE], 3);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_measure_options),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_cpu_list),
		cmocka_unit_test(test_identity_and_where),
		cmocka_unit_test(test_rw_and_mix),
		cmocka_unit_test(test_block_sizes),
		cmocka_unit_test(test_bssplit),
		cmocka_unit_test(test_depth_and_engine),
		cmocka_unit_test(test_booleans),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_unknown_and_text),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_directions_and_bounds),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_cmdline_global_only_and_errors),
		cmocka_unit_test(test_offset_increment_percent),
		cmocka_unit_test_setup_teardown(test_bssplit_file, tmp_setup, tmp_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
