/* test_uring_cmd.c - ioengine=io_uring_cmd without a device: the NVMe
 * commands it encodes (Read, Write, Dataset Management deallocate, field by
 * field as the NVM Command Set lays them out, and what it refuses), and its
 * options: fio's names, cmd_type=nvme only, fio's options drivebench does
 * not do refused by name, and the job options that do not apply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/nvme_cmd.h"
#include "job/io_dir.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/fixtures.h"

static void test_encode_read_write(void **state)
{
	struct nvme_cmd_target t = { .nsid = 7, .lba_size = 4096 };
	struct nvme_uring_cmd cmd;
	struct nvme_dsm_range range;
	struct iovec iov;
	char buf[8192];

	(void)state;
	/* 8 KiB at 12 GiB + 4 KiB: SLBA 3145729, 2 blocks (NLB 1, 0's based) */
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, (12ull << 30) + 4096, 8192, buf,
					 &cmd, &range, &iov), 0);
	assert_int_equal(cmd.opcode, 0x02);
	assert_int_equal(cmd.nsid, 7);
	assert_int_equal(cmd.cdw10, 3145729u);
	assert_int_equal(cmd.cdw11, 0);
	assert_int_equal(cmd.cdw12, 1);
	assert_true(cmd.addr == (uint64_t)(uintptr_t)buf);
	assert_int_equal(cmd.data_len, 8192);
	assert_int_equal(cmd.metadata_len, 0);

	/* an SLBA above 32 bits lands in CDW11 */
	t.lba_size = 512;
	assert_int_equal(nvme_cmd_encode(&t, DIR_WRITE, (5ull << 32) * 512 + 1024, 512, buf,
					 &cmd, &range, &iov), 0);
	assert_int_equal(cmd.opcode, 0x01);
	assert_int_equal(cmd.cdw10, 2);
	assert_int_equal(cmd.cdw11, 5);
	assert_int_equal(cmd.cdw12, 0);

	/* FUA is bit 30 of CDW12, per direction */
	t.write_fua = true;
	assert_int_equal(nvme_cmd_encode(&t, DIR_WRITE, 0, 4096, buf, &cmd, &range, &iov), 0);
	assert_int_equal(cmd.cdw12, (1u << 30) | 7u);
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 4096, buf, &cmd, &range, &iov), 0);
	assert_int_equal(cmd.cdw12, 7u);
	t.read_fua = true;
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 4096, buf, &cmd, &range, &iov), 0);
	assert_int_equal(cmd.cdw12, (1u << 30) | 7u);

	/* vectored (nonvectored=0): addr is one iovec, data_len the count */
	t.vectored = true;
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 512, 1024, buf, &cmd, &range, &iov), 0);
	assert_true(cmd.addr == (uint64_t)(uintptr_t)&iov);
	assert_int_equal(cmd.data_len, 1);
	assert_ptr_equal(iov.iov_base, buf);
	assert_int_equal(iov.iov_len, 1024);
}

static void test_encode_trim(void **state)
{
	struct nvme_cmd_target t = { .nsid = 2, .lba_size = 4096 };
	struct nvme_uring_cmd cmd;
	struct nvme_dsm_range range;
	struct iovec iov;

	(void)state;
	assert_int_equal(sizeof(range), 16);
	assert_int_equal(nvme_cmd_encode(&t, DIR_TRIM, 1 << 20, 1 << 20, NULL, &cmd,
					 &range, &iov), 0);
	assert_int_equal(cmd.opcode, 0x09);
	assert_int_equal(cmd.nsid, 2);
	assert_int_equal(cmd.cdw10, 0);          /* one range, 0's based */
	assert_int_equal(cmd.cdw11, 1u << 2);    /* AD: deallocate */
	assert_true(cmd.addr == (uint64_t)(uintptr_t)&range);
	assert_int_equal(cmd.data_len, 16);
	assert_int_equal(range.slba, 256);
	assert_int_equal(range.nlb, 256);        /* 1's based in a range */
	assert_int_equal(range.attributes, 0);
}

static void test_encode_refuses(void **state)
{
	struct nvme_cmd_target t = { .nsid = 1, .lba_size = 4096 };
	struct nvme_uring_cmd cmd;
	struct nvme_dsm_range range;
	struct iovec iov;
	char buf[16];

	(void)state;
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 512, 4096, buf, &cmd, &range, &iov),
			 -EINVAL);
	assert_int_equal(nvme_cmd_encode(&t, DIR_WRITE, 0, 4095, buf, &cmd, &range, &iov),
			 -EINVAL);
	assert_int_equal(nvme_cmd_encode(&t, DIR_TRIM, 4096, 100, buf, &cmd, &range, &iov),
			 -EINVAL);
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 0, buf, &cmd, &range, &iov),
			 -EINVAL);
	/* NLB is 16 bits: 65536 blocks in one command, not one more */
	t.lba_size = 512;
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 65536u * 512, buf, &cmd, &range,
					 &iov), 0);
	assert_int_equal(cmd.cdw12, 65535u);
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 65537u * 512, buf, &cmd, &range,
					 &iov), -EINVAL);
	t.lba_size = 0;
	assert_int_equal(nvme_cmd_encode(&t, DIR_READ, 0, 512, buf, &cmd, &range, &iov),
			 -EINVAL);
}

static struct job_spec *cmd_spec(void)
{
	struct job_spec *s = new_spec();

	set_ok(s, "ioengine", "io_uring_cmd");
	return s;
}

static void test_options(void **state)
{
	struct job_spec *s = cmd_spec();

	(void)state;
	assert_non_null(engine_find("io_uring_cmd"));
	assert_true(engine_has(engine_find("io_uring_cmd"), ENGINE_NVME_CHAR));
	assert_true(engine_has(engine_find("io_uring_cmd"), ENGINE_TRIMS));
	assert_false(engine_has(engine_find("io_uring"), ENGINE_NVME_CHAR));
	/* fio's defaults: cmd_type=nvme, nonvectored decided (-1: non-vectored) */
	assert_string_equal(s->eng.uring_cmd.cmd_type, "nvme");
	assert_int_equal(s->eng.uring_cmd.nonvectored, -1);
	set_ok(s, "cmd_type", "nvme");
	set_ok(s, "nonvectored", "0");
	assert_int_equal(s->eng.uring_cmd.nonvectored, 0);
	set_ok(s, "nonvectored", NULL);
	assert_int_equal(s->eng.uring_cmd.nonvectored, 1);
	set_ok(s, "readfua", "1");
	set_ok(s, "writefua", "1");
	set_ok(s, "fixedbufs", "1");
	set_ok(s, "registerfiles", "1");
	set_ok(s, "sqthread_poll", "1");
	set_ok(s, "hipri", "1");
	assert_true(s->eng.uring_cmd.readfua && s->eng.uring_cmd.writefua);
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "nonvectored", "0");
	validate_fails_with(s, "option 'fixedbufs': the kernel's NVMe passthrough takes "
			    "registered buffers only in non-vectored commands");
	set_ok(s, "fixedbufs", "0");
	assert_int_equal(job_spec_validate(s), 0);
	set_fails_with(s, "cmd_type", "bsg", "drivebench's io_uring_cmd has only cmd_type=nvme");
	set_fails_with(s, "nonvectored", "maybe", "bad boolean 'maybe'");
	free(s);
}

static void test_options_refused(void **state)
{
	static const char *const refused[] = {
		"sqthread_poll_cpu", "force_async", "write_mode", "verify_mode", "read_mode",
		"md_per_io_size", "pi_act", "pi_chk", "apptag", "apptag_mask", "deac",
		"cdb_len", "verify_bytchk",
	};
	struct job_spec *s = cmd_spec();

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		set_fails_with(s, refused[i], "1", "not supported by drivebench's io_uring_cmd");
	/* another engine's options, and this engine's with another engine */
	set_ok(s, "nowait", "1");
	validate_fails_with(s, "option 'nowait' is an option of ioengine=pvsync2, "
			    "not of ioengine=io_uring_cmd");
	free(s);
	s = cmd_spec();
	set_ok(s, "cmdprio_percentage", "10");
	validate_fails_with(s, "not of ioengine=io_uring_cmd");
	free(s);
	s = new_spec();
	set_ok(s, "ioengine", "io_uring");
	set_ok(s, "readfua", "1");
	validate_fails_with(s, "option 'readfua' is an option of ioengine=io_uring_cmd, "
			    "not of ioengine=io_uring");
	free(s);
}

static void test_job_options_that_do_not_apply(void **state)
{
	struct job_spec *s = cmd_spec();

	(void)state;
	set_ok(s, "sync", "1");
	validate_fails_with(s, "option 'sync': ioengine=io_uring_cmd sends NVMe commands");
	free(s);
	s = cmd_spec();
	set_ok(s, "rw", "write");
	set_ok(s, "fsync", "4");
	validate_fails_with(s, "option 'fsync': ioengine=io_uring_cmd sends no NVMe Flush");
	free(s);
	s = cmd_spec();
	set_ok(s, "rw", "write");
	set_ok(s, "end_fsync", "1");
	validate_fails_with(s, "option 'end_fsync'");
	free(s);
	/* trims are its own (Dataset Management), verify too */
	s = cmd_spec();
	set_ok(s, "rw", "randtrim");
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
	s = cmd_spec();
	set_ok(s, "rw", "randwrite");
	set_ok(s, "verify", "crc32c");
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_read_write),
		cmocka_unit_test(test_encode_trim),
		cmocka_unit_test(test_encode_refuses),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_options_refused),
		cmocka_unit_test(test_job_options_that_do_not_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
