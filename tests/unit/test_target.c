/* test_target.c - target layer: probing files, missing paths and devices
 * (a loop device when root), the scratch path, file layout (create, extend,
 * leave alone, ENOSPC), job range arithmetic and its errors, open flags. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "device/target.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

#define MIB (1ull << 20)

/* A directory on a disk filesystem (O_DIRECT works there; /tmp may be
 * tmpfs), made once for the whole group. */
static struct tmpdir work;

static void path_in_workdir(char *out, size_t size, const char *name)
{
	tmpdir_join(&work, name, out, size);
}

static void assert_error_is(const char *expected)
{
	if (strcmp(err_msg(), expected) != 0)
		fail_msg("error\n  got:    %s\n  wanted: %s", err_msg(), expected);
}

static void assert_error_has(const char *part)
{
	if (!strstr(err_msg(), part))
		fail_msg("error '%s' does not contain '%s'", err_msg(), part);
}

static int group_setup(void **state)
{
	(void)state;
	if (tmpdir_make(&work, "/var/tmp", "drivebench-target") &&
	    tmpdir_make(&work, ".", "drivebench-target"))
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return tmpdir_remove(&work);
}

/* A regular-file target of the given size, probed. */
static void file_target(struct target *t, const char *name, uint64_t size)
{
	char path[512];

	path_in_workdir(path, sizeof(path), name);
	file_make_sized(path, size);
	assert_int_equal(target_probe(path, t), 0);
}

static void spec_named(struct job_spec *spec, const char *name, enum rw_mode rw)
{
	job_spec_defaults(spec);
	snprintf(spec->name, sizeof(spec->name), "%s", name);
	spec->rw = rw;
	spec->bs[DIR_READ] = 4096;
	spec->bs[DIR_WRITE] = 4096;
}

/* ---- probe ---- */

static void test_probe_regular_file(void **state)
{
	char path[512];
	struct target t;
	struct stat st;

	(void)state;
	path_in_workdir(path, sizeof(path), "probe.dat");
	file_make_sized(path, 10000);
	assert_int_equal(target_probe(path, &t), 0);
	assert_string_equal(t.path, path);
	assert_true(t.exists);
	assert_false(t.is_block);
	assert_int_equal(t.size, 10000);
	/* 512 unless the filesystem asks more of O_DIRECT; a power of two */
	assert_true(t.logical_block >= 512);
	assert_int_equal(t.logical_block & (t.logical_block - 1), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(t.physical_block, (unsigned)st.st_blksize);
}

static void test_probe_missing_file(void **state)
{
	char path[512];
	struct target t;

	(void)state;
	path_in_workdir(path, sizeof(path), "not-there.dat");
	assert_int_equal(target_probe(path, &t), 0);
	assert_false(t.exists);
	assert_false(t.is_block);
	assert_int_equal(t.size, 0);
	assert_int_equal(t.logical_block, 512);
	assert_true(t.physical_block >= 512);
	assert_string_equal(t.path, path);
	/* probing must not create it */
	assert_int_equal(access(path, F_OK), -1);
}

static void test_probe_missing_dev(void **state)
{
	struct target t;

	(void)state;
	assert_int_equal(target_probe("/dev/drivebench-nvme9n1", &t), -1);
	assert_error_is("target '/dev/drivebench-nvme9n1': No such file or "
			"directory");
}

static void test_probe_missing_parent(void **state)
{
	char path[512], expected[JOB_PATH_MAX + 200];
	struct target t;

	(void)state;
	path_in_workdir(path, sizeof(path), "no-dir/file.dat");
	assert_int_equal(target_probe(path, &t), -1);
	snprintf(expected, sizeof(expected),
		 "target '%s': No such file or directory", path);
	assert_error_is(expected);
}

static void test_probe_parent_is_file(void **state)
{
	char path[512];
	struct target t;

	(void)state;
	path_in_workdir(path, sizeof(path), "plain");
	file_write(path, "x", 1);
	path_in_workdir(path, sizeof(path), "plain/file.dat");
	assert_int_equal(target_probe(path, &t), -1);
	assert_error_has("Not a directory");
}

static void test_probe_directory(void **state)
{
	struct target t;
	char expected[JOB_PATH_MAX + 200];

	(void)state;
	assert_int_equal(target_probe(work.path, &t), -1);
	snprintf(expected, sizeof(expected), "target '%s' is a directory; "
		 "drivebench needs a regular file, a block device or an NVMe namespace's "
		 "character device (/dev/ngXnY, with ioengine=io_uring_cmd)", work.path);
	assert_error_is(expected);
}

static void test_probe_char_device(void **state)
{
	struct target t;

	(void)state;
	assert_int_equal(target_probe("/dev/null", &t), -1);
	assert_error_is("target '/dev/null' is a character device; drivebench "
			"needs a regular file, a block device or an NVMe namespace's "
			"character device (/dev/ngXnY, with ioengine=io_uring_cmd)");
}

static void test_probe_bad_paths(void **state)
{
	struct target t;
	char *long_path = malloc(JOB_PATH_MAX + 10);

	(void)state;
	assert_non_null(long_path);
	assert_int_equal(target_probe("", &t), -1);
	assert_error_is("target: empty path");
	memset(long_path, 'a', JOB_PATH_MAX + 9);
	long_path[JOB_PATH_MAX + 9] = '\0';
	assert_int_equal(target_probe(long_path, &t), -1);
	assert_error_has("path longer than 4095 bytes");
	free(long_path);
}

/* ---- a real block device: a loop device over a temp file (root) ---- */

static char loop_device[64];

static int loop_teardown(void **state)
{
	char command[128];

	(void)state;
	if (!loop_device[0])
		return 0;
	snprintf(command, sizeof(command), "losetup -d %s", loop_device);
	loop_device[0] = '\0';
	return system(command) == 0 ? 0 : -1;
}

static void test_probe_block_device(void **state)
{
	char backing[512], command[700];
	struct target t;
	struct job_spec spec;
	uint64_t start, len;
	FILE *out;
	size_t n;

	(void)state;
	if (geteuid() != 0) {
		printf("skip: attaching a loop device needs root\n");
		skip();
	}
	path_in_workdir(backing, sizeof(backing), "loop-backing.img");
	file_make_sized(backing, 8 * MIB);
	snprintf(command, sizeof(command),
		 "losetup --sector-size 4096 -f --show '%s' 2>&1", backing);
	out = popen(command, "r");
	assert_non_null(out);
	n = fread(loop_device, 1, sizeof(loop_device) - 1, out);
	loop_device[n] = '\0';
	if (pclose(out) != 0 || strncmp(loop_device, "/dev/loop", 9) != 0) {
		printf("skip: losetup failed: %s\n", loop_device);
		loop_device[0] = '\0';
		skip();
	}
	loop_device[strcspn(loop_device, "\n")] = '\0';

	assert_int_equal(target_probe(loop_device, &t), 0);
	assert_true(t.is_block);
	assert_true(t.exists);
	assert_int_equal(t.size, 8 * MIB);
	assert_int_equal(t.logical_block, 4096);
	assert_true(t.physical_block >= 4096);

	/* the whole device when size is not given */
	spec_named(&spec, "dev", RW_RANDREAD);
	spec.direct = true;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(start, 0);
	assert_int_equal(len, 8 * MIB);
	/* 512-byte I/O is not enough for this device's 4096 logical block */
	spec.bs[DIR_READ] = 512;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'dev': bs=512 is not a multiple of the logical "
			"block size 4096 required by direct=1");
	/* a device cannot grow */
	spec.bs[DIR_READ] = 4096;
	spec.offset = 4 * MIB;
	spec.size = 8 * MIB;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	snprintf(command, sizeof(command), "job 'dev': range [4194304, "
		 "12582912) is beyond the end of '%s' (8388608 bytes)",
		 loop_device);
	assert_error_is(command);
}

/* ---- scratch path ---- */

static void test_scratch_path(void **state)
{
	(void)state;
	assert_int_equal(unsetenv(SCRATCH_ENV), 0);
	assert_string_equal(target_scratch_path(), "./drivebench-scratch.dat");
	assert_int_equal(setenv(SCRATCH_ENV, "", 1), 0);
	assert_string_equal(target_scratch_path(), "./drivebench-scratch.dat");
	assert_int_equal(setenv(SCRATCH_ENV, "/mnt/fast/scratch", 1), 0);
	assert_string_equal(target_scratch_path(), "/mnt/fast/scratch");
	assert_int_equal(unsetenv(SCRATCH_ENV), 0);
}

/* ---- layout ---- */

/* Every 4 KiB block from offset on holds some non-zero byte, and the file
 * has real blocks behind it (no holes). */
static void assert_written_data(const char *path, uint64_t from)
{
	struct stat st;
	unsigned char block[4096];
	uint64_t size = file_size_of(path);
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	for (uint64_t at = from; at < size; at += sizeof(block)) {
		ssize_t n = pread(fd, block, sizeof(block), (off_t)at);
		bool nonzero = false;

		assert_true(n > 0);
		for (ssize_t i = 0; i < n && !nonzero; i++)
			nonzero = block[i] != 0;
		if (!nonzero)
			fail_msg("block at %llu of '%s' is all zeros",
				 (unsigned long long)at, path);
	}
	assert_int_equal(fstat(fd, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= size - from);
	assert_int_equal(close(fd), 0);
}

static void test_layout_creates(void **state)
{
	char path[512];
	uint64_t size = 3 * MIB + 123;

	(void)state;
	path_in_workdir(path, sizeof(path), "layout-new.dat");
	assert_int_equal(target_layout_file(path, size, NULL), 1);
	assert_int_equal(file_size_of(path), size);
	assert_written_data(path, 0);
}

static void test_layout_extends(void **state)
{
	char path[512];
	unsigned char head[1000], again[1000];
	int fd;

	(void)state;
	for (size_t i = 0; i < sizeof(head); i++)
		head[i] = (unsigned char)(i * 7);
	path_in_workdir(path, sizeof(path), "layout-grow.dat");
	file_write(path, head, sizeof(head));
	assert_int_equal(target_layout_file(path, 2 * MIB, NULL), 1);
	assert_int_equal(file_size_of(path), 2 * MIB);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, again, sizeof(again)), (ssize_t)sizeof(again));
	assert_int_equal(close(fd), 0);
	assert_memory_equal(head, again, sizeof(head));
	assert_written_data(path, 4096);
}

/* A stop request ends a layout between writes: -1 "interrupted", and the
 * file keeps its whole written chunks, so the next layout extends it. */
static void test_layout_interrupted(void **state)
{
	char path[600];
	volatile sig_atomic_t stop = 1;

	(void)state;
	path_in_workdir(path, sizeof(path), "layout-stop.dat");
	assert_int_equal(target_layout_file(path, 4 * MIB, &stop), -1);
	assert_error_has("interrupted while laying out");
	assert_error_has("(0 of 4194304 bytes written)");
	assert_int_equal(file_size_of(path), 0);
	stop = 0;
	assert_int_equal(target_layout_file(path, 4 * MIB, &stop), 1);
	assert_int_equal(file_size_of(path), 4 * MIB);
}

static void test_layout_leaves_big_file(void **state)
{
	char path[512];
	unsigned char data[8192], again[8192];
	int fd;

	(void)state;
	memset(data, 0x5a, sizeof(data));
	path_in_workdir(path, sizeof(path), "layout-big.dat");
	file_write(path, data, sizeof(data));
	assert_int_equal(target_layout_file(path, 8192, NULL), 0);
	assert_int_equal(target_layout_file(path, 4096, NULL), 0);
	assert_int_equal(file_size_of(path), 8192);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, again, sizeof(again)), (ssize_t)sizeof(again));
	assert_int_equal(close(fd), 0);
	assert_memory_equal(data, again, sizeof(data));
}

static void test_layout_errors(void **state)
{
	char path[512], expected[JOB_PATH_MAX + 200];

	(void)state;
	assert_int_equal(target_layout_file(work.path, MIB, NULL), -1);
	snprintf(expected, sizeof(expected), "cannot lay out '%s': it is a "
		 "directory, not a regular file", work.path);
	assert_error_is(expected);

	assert_int_equal(target_layout_file("/dev/null", MIB, NULL), -1);
	assert_error_is("cannot lay out '/dev/null': it is a character device, "
			"not a regular file");

	path_in_workdir(path, sizeof(path), "no-dir/file.dat");
	assert_int_equal(target_layout_file(path, MIB, NULL), -1);
	snprintf(expected, sizeof(expected), "cannot lay out '%s': No such "
		 "file or directory", path);
	assert_error_is(expected);
}

/* A write error other than ENOSPC: the file-size limit (EFBIG). */
static void test_layout_write_error(void **state)
{
	char path[512], expected[JOB_PATH_MAX + 200];
	struct rlimit old, small = { .rlim_cur = MIB, .rlim_max = 0 };

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	assert_true(signal(SIGXFSZ, SIG_IGN) != SIG_ERR);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	path_in_workdir(path, sizeof(path), "layout-efbig.dat");
	int rc = target_layout_file(path, 4 * MIB, NULL);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_true(signal(SIGXFSZ, SIG_DFL) != SIG_ERR);
	assert_int_equal(rc, -1);
	snprintf(expected, sizeof(expected), "cannot lay out '%s': %s", path,
		 strerror(EFBIG));
	assert_error_is(expected);
}

/* A full filesystem: a 1 MiB tmpfs mounted for the test (root only). */
static char small_mount[512];

static int small_mount_teardown(void **state)
{
	(void)state;
	if (!small_mount[0])
		return 0;
	if (umount2(small_mount, MNT_DETACH) < 0)
		return -1;
	if (rmdir(small_mount) < 0)
		return -1;
	small_mount[0] = '\0';
	return 0;
}

static void test_layout_no_space(void **state)
{
	char path[700];

	(void)state;
	path_in_workdir(small_mount, sizeof(small_mount), "small-fs");
	assert_int_equal(mkdir(small_mount, 0755), 0);
	if (mount("tmpfs", small_mount, "tmpfs", 0, "size=1m") < 0) {
		printf("skip: cannot mount a small tmpfs: %s\n", strerror(errno));
		assert_int_equal(rmdir(small_mount), 0);
		small_mount[0] = '\0';
		skip();
	}
	snprintf(path, sizeof(path), "%s/full.dat", small_mount);
	file_write(path, "abc", 3);
	/* refused before a byte is written: the filesystem has 1 MiB, the
	 * layout needs 4 MiB (the ENOSPC path below it, for space taken while
	 * the layout runs, gives the file back to its size as well) */
	assert_int_equal(target_layout_file(path, 4 * MIB, NULL), -1);
	assert_error_has("cannot lay out '");
	assert_error_has("to 4194304 bytes: it needs 4194301 more and the filesystem has ");
	assert_int_equal(file_size_of(path), 3);
	/* what fits is laid out */
	assert_int_equal(target_layout_file(path, 512 * 1024, NULL), 1);
	assert_int_equal(file_size_of(path), 512 * 1024);
}

/* ---- job range ---- */

static void test_range_size_and_offset(void **state)
{
	struct target t;
	struct job_spec spec;
	uint64_t start, len;

	(void)state;
	file_target(&t, "range.dat", 10 * MIB);
	spec_named(&spec, "r", RW_RANDREAD);
	spec.size = MIB;
	spec.offset = 8192;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(start, 8192);
	assert_int_equal(len, MIB);

	/* size 0: the rest of the target after the offset */
	spec.size = 0;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(start, 8192);
	assert_int_equal(len, 10 * MIB - 8192);

	/* offset_increment moves each clone */
	spec.size = MIB;
	spec.offset_increment = 2 * MIB;
	assert_int_equal(target_job_range(&t, &spec, 3, &start, &len), 0);
	assert_int_equal(start, 8192 + 6 * MIB);
	assert_int_equal(len, MIB);
	spec.size = 0;
	assert_int_equal(target_job_range(&t, &spec, 2, &start, &len), 0);
	assert_int_equal(start, 8192 + 4 * MIB);
	assert_int_equal(len, 6 * MIB - 8192);
}

static void test_range_percentages(void **state)
{
	struct target t;
	struct job_spec spec;
	uint64_t start, len;

	(void)state;
	/* 10 MiB + 1000: percentages fall between blocks and round down */
	file_target(&t, "range-pct.dat", 10 * MIB + 1000);
	spec_named(&spec, "p", RW_RANDREAD);
	spec.size_pct = 50;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(start, 0);
	assert_int_equal(len, 5 * MIB + 0);   /* 5 MiB + 500 -> 5 MiB */

	spec.size_pct = 0;
	spec.offset_pct = 25;
	spec.bs[DIR_READ] = 64 * 1024;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	/* 25% = 2621690 -> up to a 64 KiB multiple, as fio's
	 * get_start_offset: 2686976 */
	assert_int_equal(start, 2686976);
	assert_int_equal(len, 10 * MIB + 1000 - 2686976);

	spec.size_pct = 10;
	spec.offset_increment = MIB;
	assert_int_equal(target_job_range(&t, &spec, 1, &start, &len), 0);
	/* 2621690 + 1 MiB = 3670266, rounded up once (fio sums, then
	 * aligns): 3735552, not 2686976 + 1 MiB */
	assert_int_equal(start, 3735552);
	/* 10% = 1048676 -> 1048576 */
	assert_int_equal(len, MIB);

	/* offset_increment=N% is not rounded before it is summed */
	spec.size_pct = 0;
	spec.offset_pct = 0;
	spec.offset_increment = 0;
	spec.offset_increment_pct = 10;
	spec.size = MIB;
	assert_int_equal(target_job_range(&t, &spec, 2, &start, &len), 0);
	/* 2 x 1048676 = 2097352 -> 2162688 (fio), not 2 x 1048576 */
	assert_int_equal(start, 2162688);
	spec.offset_increment_pct = 0;
	spec.size = 0;

	spec.size_pct = 100;
	spec.offset_pct = 0;
	spec.offset_increment = 0;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(len, 10 * MIB);
}

static void test_range_file_may_grow(void **state)
{
	struct target t;
	struct job_spec spec;
	uint64_t start, len;
	char path[512];

	(void)state;
	file_target(&t, "grow.dat", MIB);
	spec_named(&spec, "g", RW_WRITE);
	spec.size = 4 * MIB;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(len, 4 * MIB);
	/* reads too: the file is laid out before the run */
	spec.rw = RW_READ;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(len, 4 * MIB);

	/* a file that does not exist yet, with a size */
	path_in_workdir(path, sizeof(path), "later.dat");
	assert_int_equal(target_probe(path, &t), 0);
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(start, 0);
	assert_int_equal(len, 4 * MIB);
}

static void test_range_errors(void **state)
{
	struct target t, missing, device;
	struct job_spec spec;
	uint64_t start = 1, len = 1;
	char path[512], expected[JOB_PATH_MAX + 200];

	(void)state;
	file_target(&t, "range-err.dat", MIB);
	spec_named(&spec, "x", RW_RANDREAD);

	/* empty file and no size */
	file_target(&t, "empty.dat", 0);
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_has("job 'x': size 0");
	assert_int_equal(start, 0);
	assert_int_equal(len, 0);

	/* offset at the end of the file and no size */
	file_target(&t, "range-err.dat", MIB);
	spec.offset = MIB;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	snprintf(expected, sizeof(expected), "job 'x': size 0: offset 1048576 "
		 "is at or beyond the end of '%s' (1048576 bytes)", t.path);
	assert_error_is(expected);
	spec.offset = 0;

	/* size% that rounds to nothing */
	spec.size_pct = 0.1;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': size 0");
	spec.size_pct = 0;

	/* a missing target needs a size */
	path_in_workdir(path, sizeof(path), "missing.dat");
	assert_int_equal(target_probe(path, &missing), 0);
	assert_int_equal(target_job_range(&missing, &spec, 0, &start, &len), -1);
	snprintf(expected, sizeof(expected), "job 'x': size 0: '%s' does not "
		 "exist, so size= must be given", path);
	assert_error_is(expected);
	spec.size_pct = 50;
	assert_int_equal(target_job_range(&missing, &spec, 0, &start, &len), -1);
	assert_error_has("job 'x': size 0: size=50% of '");
	spec.size_pct = 0;
	spec.size = MIB;
	spec.offset_pct = 10;
	assert_int_equal(target_job_range(&missing, &spec, 0, &start, &len), -1);
	assert_error_has("job 'x': offset=10% needs an existing target");
	spec.offset_pct = 0;
	spec.size = 0;

	/* smaller than the block size */
	spec.size = 2048;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': size 2048 is smaller than the block size 4096");
	/* the largest block size of the job counts */
	spec.size = 64 * 1024;
	spec.rw = RW_RANDRW;
	spec.bs[DIR_WRITE] = 128 * 1024;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': size 65536 is smaller than the block size "
			"131072");
	spec.rw = RW_RANDREAD;
	spec.bs[DIR_WRITE] = 4096;

	/* a block device cannot grow (struct filled by hand) */
	memset(&device, 0, sizeof(device));
	snprintf(device.path, sizeof(device.path), "/dev/nvme9n1");
	device.is_block = device.exists = true;
	device.size = 100 * MIB;
	device.logical_block = device.physical_block = 512;
	spec.size = 10 * MIB;
	spec.offset = 95 * MIB;
	assert_int_equal(target_job_range(&device, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': range [99614720, 110100480) is beyond the end "
			"of '/dev/nvme9n1' (104857600 bytes)");
	/* ... also when a clone's offset_increment pushes it over */
	spec.offset = 0;
	spec.offset_increment = 50 * MIB;
	assert_int_equal(target_job_range(&device, &spec, 1, &start, &len), 0);
	assert_int_equal(start, 50 * MIB);
	assert_int_equal(target_job_range(&device, &spec, 2, &start, &len), -1);
	assert_error_has("range [104857600, 115343360) is beyond the end");
	/* overflow */
	spec.offset_increment = UINT64_MAX / 2;
	assert_int_equal(target_job_range(&device, &spec, 3, &start, &len), -1);
	assert_error_has("job 'x': offset_increment=");
	spec.offset_increment = 0;
	spec.offset = UINT64_MAX - 10;
	assert_int_equal(target_job_range(&device, &spec, 0, &start, &len), -1);
	assert_error_has("overflows");
}

static void test_range_direct_alignment(void **state)
{
	struct target t;
	struct job_spec spec;
	uint64_t start, len;

	(void)state;
	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/dev/sdz");
	t.is_block = t.exists = true;
	t.size = 100 * MIB;
	t.logical_block = 512;
	t.physical_block = 4096;
	spec_named(&spec, "x", RW_RANDREAD);
	spec.direct = true;
	spec.size = MIB;

	spec.bs[DIR_READ] = 1000;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': bs=1000 is not a multiple of the logical "
			"block size 512 required by direct=1");
	/* without direct=1 any size goes */
	spec.direct = false;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	spec.direct = true;

	/* only the directions the job uses are checked */
	spec.bs[DIR_READ] = 4096;
	spec.bs[DIR_WRITE] = 1000;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	spec.rw = RW_RANDRW;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': bs=1000 is not a multiple of the logical "
			"block size 512 required by direct=1");
	spec.bs[DIR_WRITE] = 4096;

	/* every bssplit entry */
	spec.bssplit_nr[DIR_WRITE] = 2;
	spec.bssplit[DIR_WRITE][0] = (struct bssplit_entry){ 4096, 50 };
	spec.bssplit[DIR_WRITE][1] = (struct bssplit_entry){ 6000, 50 };
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': bssplit bs=6000 is not a multiple of the "
			"logical block size 512 required by direct=1");
	spec.bssplit[DIR_WRITE][1].bs = 8192;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);

	/* blockalign */
	spec.blockalign[DIR_READ] = 100;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': blockalign=100 is not a multiple of the "
			"logical block size 512 required by direct=1");
	spec.blockalign[DIR_READ] = 0;

	/* the start, offset_increment included */
	spec.offset = 4096;
	spec.offset_increment = 100;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), 0);
	assert_int_equal(target_job_range(&t, &spec, 1, &start, &len), -1);
	assert_error_is("job 'x': offset=4196 is not a multiple of the logical "
			"block size 512 required by direct=1");

	/* a 4K-native device */
	spec.offset_increment = 0;
	t.logical_block = 4096;
	spec.offset = 512;
	assert_int_equal(target_job_range(&t, &spec, 0, &start, &len), -1);
	assert_error_is("job 'x': offset=512 is not a multiple of the logical "
			"block size 4096 required by direct=1");
}

/* ---- open ---- */

static void test_open_flags(void **state)
{
	struct target t;
	struct job_spec spec;
	int fd, flags;

	(void)state;
	file_target(&t, "open.dat", MIB);
	spec_named(&spec, "o", RW_RANDREAD);
	fd = target_open(&t, &spec);
	assert_true(fd >= 0);
	flags = fcntl(fd, F_GETFL);
	assert_int_equal(flags & O_ACCMODE, O_RDONLY);
	assert_int_equal(flags & O_DIRECT, 0);
	assert_int_equal((flags & O_SYNC) == O_SYNC, 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(close(fd), 0);

	spec.rw = RW_RANDRW;
	fd = target_open(&t, &spec);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	assert_int_equal(close(fd), 0);

	spec.rw = RW_WRITE;
	spec.sync_io = true;
	fd = target_open(&t, &spec);
	assert_true(fd >= 0);
	flags = fcntl(fd, F_GETFL);
	assert_int_equal(flags & O_ACCMODE, O_RDWR);
	assert_int_equal(flags & O_SYNC, O_SYNC);
	assert_int_equal(close(fd), 0);
}

static void test_open_direct(void **state)
{
	struct target t;
	struct job_spec spec;
	int fd;

	(void)state;
	file_target(&t, "direct.dat", MIB);
	spec_named(&spec, "d", RW_RANDREAD);
	spec.direct = true;
	fd = target_open(&t, &spec);
	if (fd < 0) {
		printf("skip: %s does not take O_DIRECT: %s\n", work.path,
		       err_msg());
		skip();
	}
	assert_true(fcntl(fd, F_GETFL) & O_DIRECT);
	assert_int_equal(close(fd), 0);
}

static void test_open_creates_file(void **state)
{
	char path[512];
	struct target t;
	struct job_spec spec;
	struct stat st;
	mode_t mask = umask(022);
	int fd;

	(void)state;
	path_in_workdir(path, sizeof(path), "created.dat");
	assert_int_equal(target_probe(path, &t), 0);
	spec_named(&spec, "c", RW_WRITE);
	fd = target_open(&t, &spec);
	umask(mask);
	assert_true(fd >= 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0644);
}

static void test_open_errors(void **state)
{
	struct target t;
	struct job_spec spec;
	char expected[JOB_PATH_MAX + 200];

	(void)state;
	/* the directory vanished between probe and open */
	memset(&t, 0, sizeof(t));
	path_in_workdir(t.path, sizeof(t.path), "gone/file.dat");
	spec_named(&spec, "e", RW_RANDREAD);
	assert_int_equal(target_open(&t, &spec), -1);
	snprintf(expected, sizeof(expected), "cannot open '%s': No such file "
		 "or directory", t.path);
	assert_error_is(expected);

	/* a filesystem without O_DIRECT (procfs: EINVAL, like old tmpfs) */
	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/proc/self/status");
	t.is_block = true;  /* no O_CREAT */
	spec.direct = true;
	assert_int_equal(target_open(&t, &spec), -1);
	assert_error_is("cannot open '/proc/self/status': Invalid argument: "
			"the filesystem does not support direct=1 (O_DIRECT); "
			"use a file on a disk filesystem or direct=0");
}

/* offset_increment=25% with size=25%: four clones on the four quarters. */
static void test_range_increment_percent(void **state)
{
	struct target t;
	struct job_spec spec;
	uint64_t start, len;

	(void)state;
	file_target(&t, "range-inc.dat", 8 * MIB);
	spec_named(&spec, "q", RW_WRITE);
	spec.bs[DIR_WRITE] = MIB;
	spec.size_pct = 25;
	spec.offset_increment_pct = 25;
	for (unsigned clone = 0; clone < 4; clone++) {
		assert_int_equal(target_job_range(&t, &spec, clone, &start, &len), 0);
		assert_int_equal(start, clone * 2 * MIB);
		assert_int_equal(len, 2 * MIB);
	}
	/* fio's get_start_offset on 8 MiB + 1000: clone x 2097402 rounded up
	 * to the 1 MiB block (0, 3, 5, 7 MiB); the size rounds down */
	file_target(&t, "range-inc-odd.dat", 8 * MIB + 1000);
	for (unsigned clone = 0; clone < 4; clone++) {
		static const uint64_t want[] = { 0, 3 * MIB, 5 * MIB, 7 * MIB };

		assert_int_equal(target_job_range(&t, &spec, clone, &start, &len), 0);
		assert_int_equal(start, want[clone]);
		assert_int_equal(len, 2 * MIB);
	}
	/* a share of a target that does not exist yet has no size */
	t.exists = false;
	assert_int_equal(target_job_range(&t, &spec, 1, &start, &len), -1);
	assert_error_has("offset_increment=25% needs an existing target");
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_regular_file),
		cmocka_unit_test(test_probe_missing_file),
		cmocka_unit_test(test_probe_missing_dev),
		cmocka_unit_test(test_probe_missing_parent),
		cmocka_unit_test(test_probe_parent_is_file),
		cmocka_unit_test(test_probe_directory),
		cmocka_unit_test(test_probe_char_device),
		cmocka_unit_test(test_probe_bad_paths),
		cmocka_unit_test_teardown(test_probe_block_device,
					  loop_teardown),
		cmocka_unit_test(test_scratch_path),
		cmocka_unit_test(test_layout_creates),
		cmocka_unit_test(test_layout_extends),
		cmocka_unit_test(test_layout_leaves_big_file),
		cmocka_unit_test(test_layout_interrupted),
		cmocka_unit_test(test_layout_errors),
		cmocka_unit_test(test_layout_write_error),
		cmocka_unit_test_teardown(test_layout_no_space,
					  small_mount_teardown),
		cmocka_unit_test(test_range_size_and_offset),
		cmocka_unit_test(test_range_percentages),
		cmocka_unit_test(test_range_increment_percent),
		cmocka_unit_test(test_range_file_may_grow),
		cmocka_unit_test(test_range_errors),
		cmocka_unit_test(test_range_direct_alignment),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_open_direct),
		cmocka_unit_test(test_open_creates_file),
		cmocka_unit_test(test_open_errors),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
