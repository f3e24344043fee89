/* test_vssd_model.c - a modelled drive's [model] section and its scale
 * (src/vssd/model.c): the geometry and clock it yields, the scale's three
 * spellings, and every refusal by file, line and key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers/testfile.h"
#include "helpers/tmpdir.h"
#include "util/error.h"
#include "vssd/model.h"

static const char *model_file(const char *text)
{
	const char *path = tmp_path("m.ini");

	file_write_text(path, text);
	return path;
}

static void test_geometry_and_clock(void **state)
{
	struct vssd_model m;
	const char *path = model_file("[drive]\nmodel = T\ncapacity_tb = 4\n[model]\n"
				      "cell = tlc\nop = 28%\nchannels = 8\ndies_per_channel = 2\n"
				      "page = 16k\npages_per_block = 128\niu = 4k\nread_us = 60\n"
				      "program_us = 700\nerase_ms = 5\npcie_gen = 5\npcie_lanes = 4\n"
				      "channel_mbs = 2000\ncommand_us = 3\ncontroller_kiops = 3000\n");

	(void)state;
	assert_int_equal(vssd_model_load(path, "1/1000", &m), 0);
	assert_string_equal(m.name, "T");
	assert_int_equal(m.rated_capacity, 4000000000000ull);
	assert_true(fabs(m.scale - 0.001) < 1e-6);
	assert_int_equal(m.geometry.iu_bytes, 4096);
	assert_int_equal(m.geometry.ius_per_page, 4);
	assert_int_equal(m.geometry.bits_per_cell, 3);
	assert_int_equal(m.geometry.blocks % 16, 0);   /* whole blocks per die */
	/* physical = logical x 1.28, within a block per die */
	assert_true(fabs((double)m.geometry.blocks * 16384 * 128 / (double)m.capacity - 1.28) < 0.05);
	/* GC's reserve (gc_low free + one open) comes on top of the OP, per die */
	assert_int_equal(m.geometry.gc_low, 3);
	assert_int_equal(m.geometry.gc_high, 3);
	assert_int_equal(m.geometry.blocks / 16,
			 (uint32_t)(m.capacity * 1.28 / (16384.0 * 128) / 16 + 0.5) + 4);
	assert_int_equal(m.timing.read_ns[NAND_NATIVE], 60000);
	assert_int_equal(m.timing.erase_ns, 5000000);
	assert_true(fabs(m.timing.link_bytes_per_ns - 3.938 * 4) < 1e-9);   /* PCIe 5 x4 */
	assert_true(fabs(m.timing.commands_per_ns - 0.003) < 1e-12);
	assert_int_equal(m.timing.suspend_ns, 5000);   /* the default suspend latency */
	/* a capacity as the scale */
	assert_int_equal(vssd_model_load(path, "2g", &m), 0);
	assert_true(m.capacity <= 2ull << 30 && m.capacity > (2ull << 30) - 16384);
}

/* suspend_us: a latency, 0 = no program/erase suspend. */
static void test_suspend_key(void **state)
{
	struct vssd_model m;

	(void)state;
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nsuspend_us = 20\n"), NULL, &m), 0);
	assert_int_equal(m.timing.suspend_ns, 20000);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nsuspend_us = 0\n"), NULL, &m), 0);
	assert_int_equal(m.timing.suspend_ns, 0);
	/* write_ack_us: the buffer's intake per write; off by default */
	assert_int_equal(m.timing.write_ack_ns, 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nwrite_ack_us = 6500ns\n"), NULL, &m), 0);
	assert_int_equal(m.timing.write_ack_ns, 6500);
	/* queue_us: a submission queue's rate; off by default */
	assert_int_equal(m.timing.queue_ns, 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nqueue_us = 8\n"), NULL, &m), 0);
	assert_int_equal(m.timing.queue_ns, 8000);
	/* queue_write_mbs: one submission queue's write data rate; off by default, in MB/s */
	assert_true(m.timing.queue_write_bytes_per_ns == 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nqueue_write_mbs = 6800\n"), NULL, &m), 0);
	assert_true(fabs(m.timing.queue_write_bytes_per_ns - 6.8) < 1e-9);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nqueue_write_mbs = -1\n"), NULL, &m), -1);
	assert_non_null(strstr(err_msg(), "queue_write_mbs"));
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nqueue_write_mbs = inf\n"), NULL, &m), -1);
	/* write_intake_mbs: the buffer's intake, drive-wide; off by default */
	assert_true(m.timing.write_intake_bytes_per_ns == 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nwrite_intake_mbs = 7600\n"), NULL, &m), 0);
	assert_true(fabs(m.timing.write_intake_bytes_per_ns - 7.6) < 1e-9);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nwrite_intake_mbs = x\n"), NULL, &m), -1);
	assert_non_null(strstr(err_msg(), "write_intake_mbs"));
	/* erase_slices: a count from 1 (whole, the default) */
	assert_int_equal(m.timing.erase_slices, 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nerase_slices = 32\n"), NULL, &m), 0);
	assert_int_equal(m.timing.erase_slices, 32);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nerase_slices = 0\n"), NULL, &m), -1);
	assert_non_null(strstr(err_msg(), "erase_slices"));
	/* planes (1 by default, at most 16), decode_us (off by default) and
	 * program_jitter (a spread below 100%, 0 by default) */
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\n"), NULL, &m), 0);
	assert_int_equal(m.timing.planes, 1);
	assert_true(m.timing.decode_ns == 0 && m.timing.program_jitter == 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nplanes = 4\ndecode_us = 35\n"
						    "program_jitter = 10%\n"), NULL, &m), 0);
	assert_int_equal(m.timing.planes, 4);
	assert_int_equal(m.timing.decode_ns, 35000);
	assert_true(fabs(m.timing.program_jitter - 0.1) < 1e-12);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nprogram_jitter = 0\n"), NULL, &m), 0);
	assert_true(m.timing.program_jitter == 0);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nwrite_ack_queued_ns = 28\n"),
					 NULL, &m), 0);
	assert_int_equal(m.timing.write_ack_queued_ns, 28);
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\n"
						    "pages_per_block = 64\nread_retry_rate = 4e-5\n"
						    "read_retry_us = 900\n"), NULL, &m), 0);
	assert_true(fabs(m.timing.read_retry_rate - 4e-5) < 1e-12);
	assert_int_equal(m.timing.read_retry_ns, 900000);
	const char *bad[] = { "planes = 0", "planes = 17", "decode_us = -1", "program_jitter = 100%",
			      "program_jitter = 1.5", "program_jitter = x", "write_ack_queued_ns = x",
			      "read_retry_rate = 1", "read_retry_rate = -1e-5", "read_retry_us = x" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[160];

		snprintf(text, sizeof(text), "[drive]\ncapacity_tb = 4\n[model]\npages_per_block = 64\n%s\n",
			 bad[i]);
		assert_int_equal(vssd_model_load(model_file(text), NULL, &m), -1);
		/* the error names the key */
		char key[32];

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(bad[i], " "), bad[i]);
		assert_non_null(strstr(err_msg(), key));
	}
}

/* slc_cache_dynamic: host data the dynamic cache holds on an empty drive,
 * scaled with the drive; at most the user capacity / bits per cell. */
static void test_dynamic_slc_key(void **state)
{
	struct vssd_model m;

	(void)state;
	assert_int_equal(vssd_model_load(model_file("[drive]\ncapacity_tb = 4\n[model]\ncell = qlc\n"
						    "pages_per_block = 64\nslc_cache_dynamic = 400g\n"),
					 "1/1000", &m), 0);
	/* 400 GB x 1/1000 x 4 bits / (16 KiB x 64) = 1525 blocks, whole per die (64) */
	assert_int_equal(m.geometry.slc_dynamic_blocks, 1472);
	assert_int_equal(m.geometry.slc_cache_blocks, 0);
	/* a spare open SLC block per die comes on top: 4 + 1 */
	assert_int_equal(m.geometry.blocks / 64,
			 (uint32_t)(m.capacity * 1.07 / (16384.0 * 64) / 64 + 0.5) + 5);
}

static void test_scale_spellings(void **state)
{
	double f;
	uint64_t c;

	(void)state;
	assert_int_equal(vssd_scale_parse("1/1000", &f, &c), 0);
	assert_true(fabs(f - 0.001) < 1e-12 && c == 0);
	assert_int_equal(vssd_scale_parse("0.25", &f, &c), 0);
	assert_true(fabs(f - 0.25) < 1e-12);
	assert_int_equal(vssd_scale_parse("8g", &f, &c), 0);
	assert_int_equal(c, 8ull << 30);
	assert_int_equal(f, 0);
	assert_int_equal(vssd_scale_parse("3/2", &f, &c), -1);
	assert_int_equal(vssd_scale_parse("0/5", &f, &c), -1);
	assert_int_equal(vssd_scale_parse("1.5", &f, &c), -1);
	assert_non_null(strstr(err_msg(), "not a fraction"));
	assert_int_equal(vssd_scale_parse("lots", &f, &c), -1);
	assert_non_null(strstr(err_msg(), "bad scale 'lots'"));
}

static void expect_refused(const char *text, const char *scale, const char *fragment)
{
	struct vssd_model m;
	const char *path = model_file(text);

	err_clear();
	assert_int_equal(vssd_model_load(path, scale, &m), -1);
	if (!strstr(err_msg(), fragment))
		fail_msg("'%s' lacks '%s'", err_msg(), fragment);
}

static void test_refusals(void **state)
{
	(void)state;
	expect_refused("[drive]\ncapacity_tb = 1\n", NULL, "no [model] section");
	expect_refused("[model]\ncell = tlc\n", NULL, "no capacity");
	expect_refused("[model]\nop = 0\n", NULL, "m.ini:2: key 'op': bad fraction '0'");
	expect_refused("[model]\nop = 100%\n", NULL, "key 'op': bad percentage '100%'");
	expect_refused("[model]\nchannels = 0\n", NULL, "m.ini:2: key 'channels'");
	expect_refused("[model]\nread_us = 0\n", NULL, "key 'read_us': bad time '0'");
	expect_refused("[model]\nsuspend_us = soon\n", NULL,
		       "m.ini:2: key 'suspend_us': bad time 'soon' (0 or more");
	expect_refused("[model]\nwrite_ack_us = -1\n", NULL,
		       "m.ini:2: key 'write_ack_us': bad time '-1' (0 or more");
	expect_refused("[model]\nqueue_us = soon\n", NULL,
		       "m.ini:2: key 'queue_us': bad time 'soon' (0 or more");
	expect_refused("[model]\nchannel_mbs = -3\n", NULL, "key 'channel_mbs': '-3' is not a number above 0");
	expect_refused("[model]\npcie_gen = 7\n", NULL, "key 'pcie_gen'");
	expect_refused("[model]\npcie_efficiency = 1.5\n", NULL,
		       "key 'pcie_efficiency': '1.5' is not a fraction in (0, 1]");
	expect_refused("[model]\npcie_efficiency = 0\n", NULL, "key 'pcie_efficiency'");
	expect_refused("[model]\nwarp = 1\n", NULL, "key 'warp': unknown key");
	expect_refused("[model]\ncell\n", NULL, "m.ini:2: key 'cell' needs a value");
	expect_refused("[model\n", NULL, "m.ini:1: bad section line");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\n[modle]\ncell = tlc\n", NULL,
		       "m.ini:4: unknown section [modle]");
	expect_refused("cell = tlc\n[drive]\ncapacity_tb = 1\n[model]\n", NULL,
		       "m.ini:1: key 'cell' outside a section");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\npage = 16k\niu = 12k\n", NULL,
		       "iu 12288 must divide page 16384");
	/* 0 divided build()'s page by it (SIGFPE) */
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\niu = 0\n", NULL,
		       "m.ini:4: key 'iu': '0' is outside 512 bytes .. 1 MiB");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\npage = 0\niu = 0\n", NULL,
		       "m.ini:4: key 'page': '0' is outside 512 bytes .. 1 MiB");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\npage = 2m\n", NULL,
		       "key 'page': '2m' is outside 512 bytes .. 1 MiB");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\n", "1/100000000",
		       "fewer than the 8 garbage collection needs");
	expect_refused("[drive]\ncapacity_tb = 1\n[model]\n", "2t",
		       "more than the drive's");
	expect_refused("[drive]\ncapacity_tb = 4\n[model]\ncell = qlc\npages_per_block = 64\n"
		       "slc_cache_dynamic = 1.1t\n",
		       NULL, "slc_cache_dynamic 1100000000000 bytes needs more blocks than");
	expect_refused("[model]\nslc_cache_dynamic = big\n", NULL, "m.ini:2: key 'slc_cache_dynamic'");
	expect_refused("[drive]\ncapacity_tb = lots\n[model]\n", NULL,
		       "key 'capacity_tb': 'lots' is not a capacity in TB");
	struct vssd_model m;
	assert_int_equal(vssd_model_load(tmp_path("missing.ini"), NULL, &m), -1);
	assert_non_null(strstr(err_msg(), "cannot read vssd model"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry_and_clock),
		cmocka_unit_test(test_suspend_key),
		cmocka_unit_test(test_dynamic_slc_key),
		cmocka_unit_test(test_scale_spellings),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
