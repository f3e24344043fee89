/* test_safety.c - the safety gate: the mountinfo and swaps parsers over
 * constructed text; regular files (new, marked, unmarked, consent by path);
 * and, when root, loop devices that are clean, carry ext4 / GPT / swap
 * signatures, or are mounted (whole or through a partition). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "device/safety.h"
#include "device/proc_tables.h"
#include "util/error.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

/* ---- mountinfo parsing ---- */

static const char mountinfo_text[] =
	"22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/root rw\n"
	"23 22 0:21 / /proc rw,nosuid shared:5 - proc proc rw\n"
	"40 22 7:3 / /mnt/my\\040disk rw,relatime shared:20 master:3 - ext4 "
	"/dev/loop3 rw\n"
	"41 22 0:45 /sub /srv/btrfs rw - btrfs /dev/loop5 rw,space_cache\n"
	"garbage line\n"
	"42 22 8:17 / /boot rw - vfat /dev/sdb1 rw";  /* no final newline */

static void test_mountinfo_by_device_number(void **state)
{
	char mountpoint[64];

	(void)state;
	assert_int_equal(mountinfo_find(mountinfo_text, 253, 1, NULL, mountpoint,
					sizeof(mountpoint)), 1);
	assert_string_equal(mountpoint, "/");
	assert_int_equal(mountinfo_find(mountinfo_text, 8, 17, NULL, mountpoint,
					sizeof(mountpoint)), 1);
	assert_string_equal(mountpoint, "/boot");
}

static void test_mountinfo_unescapes_mountpoint(void **state)
{
	char mountpoint[64];

	(void)state;
	/* two optional fields before the separator */
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 3, "/dev/loop3",
					mountpoint, sizeof(mountpoint)), 1);
	assert_string_equal(mountpoint, "/mnt/my disk");
}

static void test_mountinfo_by_source(void **state)
{
	char mountpoint[64];

	(void)state;
	/* btrfs shows an anonymous 0:45; only the source names the device */
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 5, NULL, mountpoint,
					sizeof(mountpoint)), 0);
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 5, "/dev/loop5",
					mountpoint, sizeof(mountpoint)), 1);
	assert_string_equal(mountpoint, "/srv/btrfs");
}

static void test_mountinfo_not_found(void **state)
{
	char mountpoint[64] = "untouched";

	(void)state;
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 4, "/dev/loop4",
					mountpoint, sizeof(mountpoint)), 0);
	/* "7:3" must not match 7:30 by prefix, nor 17:3 by suffix */
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 30, NULL, mountpoint,
					sizeof(mountpoint)), 0);
	assert_int_equal(mountinfo_find(mountinfo_text, 17, 3, NULL, mountpoint,
					sizeof(mountpoint)), 0);
	/* empty text */
	assert_int_equal(mountinfo_find("", 7, 3, "/dev/loop3", mountpoint,
					sizeof(mountpoint)), 0);
	assert_string_equal(mountpoint, "untouched");
}

static void test_mountinfo_truncates_mountpoint(void **state)
{
	char mountpoint[6];

	(void)state;
	assert_int_equal(mountinfo_find(mountinfo_text, 7, 3, NULL, mountpoint,
					sizeof(mountpoint)), 1);
	assert_string_equal(mountpoint, "/mnt/");
}

/* ---- swaps parsing ---- */

static const char swaps_text[] =
	"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	"/dev/zram0                              partition\t4194300\t\t0\t\t100\n"
	"/var/swap\\040file                       file\t\t1048572\t\t0\t\t-2\n";

static void test_swaps_entries(void **state)
{
	char path[64];

	(void)state;
	assert_int_equal(swaps_entry(swaps_text, 0, path, sizeof(path)), 1);
	assert_string_equal(path, "/dev/zram0");
	assert_int_equal(swaps_entry(swaps_text, 1, path, sizeof(path)), 1);
	assert_string_equal(path, "/var/swap file");
	assert_int_equal(swaps_entry(swaps_text, 2, path, sizeof(path)), 0);
}

static void test_swaps_empty(void **state)
{
	char path[64];

	(void)state;
	assert_int_equal(swaps_entry("Filename Type Size Used Priority\n", 0,
				     path, sizeof(path)), 0);
	assert_int_equal(swaps_entry("", 0, path, sizeof(path)), 0);
	/* header is never an entry even without a newline */
	assert_int_equal(swaps_entry("Filename Type", 0, path, sizeof(path)), 0);
	/* last entry without a final newline */
	assert_int_equal(swaps_entry("Filename\n/dev/sda2 partition 1 0 -2", 0,
				     path, sizeof(path)), 1);
	assert_string_equal(path, "/dev/sda2");
}

/* ---- regular files ---- */

static struct tmpdir work;

static int make_workdir(void **state)
{
	(void)state;
	/* /var/tmp: a disk filesystem, where user xattrs normally work */
	return tmpdir_make(&work, "/var/tmp", "drivebench-safety");
}

static int remove_workdir(void **state)
{
	(void)state;
	return tmpdir_remove(&work);
}

static void in_workdir(char *out, size_t size, const char *name)
{
	tmpdir_join(&work, name, out, size);
}

static void test_new_file_allowed(void **state)
{
	char path[PATH_MAX];
	struct safety_verdict v;

	(void)state;
	in_workdir(path, sizeof(path), "does-not-exist.dat");
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_true(v.allowed);
	assert_false(v.is_block);
	assert_false(v.mounted);
	assert_int_equal(v.nr_reasons, 0);
	assert_string_equal(safety_consent_hint(&v), "");
}

static void test_unmarked_file_refused(void **state)
{
	char path[PATH_MAX], expected[PATH_MAX + 64];
	struct safety_verdict v;

	(void)state;
	in_workdir(path, sizeof(path), "precious.txt");
	file_write_text(path, "someone's thesis\n");
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_false(v.allowed);
	assert_false(v.is_block);
	assert_int_equal(v.nr_reasons, 1);
	snprintf(expected, sizeof(expected),
		 "existing file %s was not created by drivebench", path);
	assert_string_equal(v.reasons[0], expected);
	assert_non_null(strstr(safety_consent_hint(&v), "--destroy-data="));
	assert_non_null(strstr(safety_consent_hint(&v), path));
	/* an empty destroy_id is no consent */
	assert_int_equal(safety_check(path, "", &v), 0);
	assert_false(v.allowed);
	assert_int_equal(v.nr_reasons, 1);
}

static void test_file_consent_by_path(void **state)
{
	char path[PATH_MAX], resolved[PATH_MAX], cwd[PATH_MAX];
	struct safety_verdict v;

	(void)state;
	in_workdir(path, sizeof(path), "consented.txt");
	file_write_text(path, "old data\n");
	assert_int_equal(safety_check(path, path, &v), 0);
	assert_true(v.allowed);
	assert_int_equal(v.nr_reasons, 0);

	/* the realpath, when the path was given through a detour */
	assert_non_null(realpath(path, resolved));
	in_workdir(path, sizeof(path), "../");
	strncat(path, strrchr(work.path, '/') + 1, sizeof(path) - strlen(path) - 1);
	strncat(path, "/consented.txt", sizeof(path) - strlen(path) - 1);
	assert_int_equal(safety_check(path, resolved, &v), 0);
	assert_true(v.allowed);

	/* another spelling of the same file: ./consented.txt from work.path */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(work.path), 0);
	assert_int_equal(safety_check("consented.txt", "./consented.txt", &v), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_true(v.allowed);
}

static void test_file_wrong_consent(void **state)
{
	char path[PATH_MAX], other[PATH_MAX];
	struct safety_verdict v;

	(void)state;
	in_workdir(path, sizeof(path), "guarded.txt");
	in_workdir(other, sizeof(other), "other.txt");
	file_write_text(path, "data\n");
	file_write_text(other, "data\n");
	assert_int_equal(safety_check(path, other, &v), 0);
	assert_false(v.allowed);
	assert_int_equal(v.nr_reasons, 2);
	assert_non_null(strstr(v.reasons[1], "does not name"));
	assert_int_equal(safety_check(path, "loop3", &v), 0);
	assert_false(v.allowed);
}

static void test_marked_file_allowed(void **state)
{
	char path[PATH_MAX], value[8];
	struct safety_verdict v;
	int fd;

	(void)state;
	in_workdir(path, sizeof(path), "ours.dat");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(safety_mark_created(fd), 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(close(fd), 0);
	if (getxattr(path, SAFETY_CREATED_XATTR, value, sizeof(value)) < 0 &&
	    (errno == ENOTSUP || errno == EOPNOTSUPP)) {
		printf("skip: %s has no user extended attributes\n", work.path);
		skip();
	}
	assert_int_equal(getxattr(path, SAFETY_CREATED_XATTR, value,
				  sizeof(value)), 1);
	assert_int_equal(value[0], '1');
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_true(v.allowed);
	assert_int_equal(v.nr_reasons, 0);

	/* a mark with another value is not ours */
	assert_int_equal(setxattr(path, SAFETY_CREATED_XATTR, "0", 1, 0), 0);
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_false(v.allowed);
}

static void test_mark_bad_fd(void **state)
{
	(void)state;
	err_clear();
	assert_int_equal(safety_mark_created(-1), -1);
	assert_non_null(strstr(err_msg(), SAFETY_CREATED_XATTR));
}

static void test_unexaminable_paths(void **state)
{
	struct safety_verdict v;

	(void)state;
	err_clear();
	assert_int_equal(safety_check(work.path, NULL, &v), -1);
	assert_non_null(strstr(err_msg(), "neither a regular file, a block device nor an NVMe "
				"namespace's character device"));
	assert_int_equal(safety_check("/dev/null", NULL, &v), -1);
	assert_non_null(strstr(err_msg(), "/dev/null"));
	/* ENOTDIR, not ENOENT: cannot tell what is there */
	assert_int_equal(safety_check("/proc/self/status/x", NULL, &v), -1);
	assert_non_null(strstr(err_msg(), "cannot examine"));
	assert_int_equal(safety_check("", NULL, &v), -1);
}

/* ---- loop devices (root) ---- */

struct loop {
	char device[64];      /* /dev/loop3 */
	char name[32];        /* loop3 */
	char image[PATH_MAX];
	char mountpoint[PATH_MAX];
};

static struct loop loop;

static void run_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void run_ok(const char *fmt, ...)
{
	char command[2 * PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(command, sizeof(command), fmt, ap);
	va_end(ap);
	rc = system(command);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, command);
}

/* Attaches a fresh 16 MiB image (with partition scanning); skips the test
 * when that is impossible here. */
static void attach_loop(const char *tag)
{
	char command[PATH_MAX + 64];
	FILE *out;
	size_t n;

	if (geteuid() != 0) {
		printf("skip: loop devices need root\n");
		skip();
	}
	in_workdir(loop.image, sizeof(loop.image), tag);
	strncat(loop.image, ".img", sizeof(loop.image) - strlen(loop.image) - 1);
	run_ok("truncate -s 16M '%s'", loop.image);
	snprintf(command, sizeof(command), "losetup -P -f --show '%s' 2>&1",
		 loop.image);
	out = popen(command, "r");
	assert_non_null(out);
	n = fread(loop.device, 1, sizeof(loop.device) - 1, out);
	loop.device[n] = '\0';
	if (pclose(out) != 0 || strncmp(loop.device, "/dev/loop", 9) != 0) {
		printf("skip: losetup failed: %s\n", loop.device);
		loop.device[0] = '\0';
		skip();
	}
	loop.device[strcspn(loop.device, "\n")] = '\0';
	snprintf(loop.name, sizeof(loop.name), "%.31s", loop.device + 5);
}

static int detach_loop(void **state)
{
	char command[3 * PATH_MAX];
	int rc = 0;

	(void)state;
	if (loop.mountpoint[0]) {
		snprintf(command, sizeof(command), "umount '%s'; rmdir '%s'",
			 loop.mountpoint, loop.mountpoint);
		rc |= system(command);
		loop.mountpoint[0] = '\0';
	}
	if (loop.device[0]) {
		snprintf(command, sizeof(command), "losetup -d %s", loop.device);
		rc |= system(command);
		loop.device[0] = '\0';
	}
	if (loop.image[0]) {
		unlink(loop.image);
		loop.image[0] = '\0';
	}
	return rc == 0 ? 0 : -1;
}

static bool has_reason(const struct safety_verdict *v, const char *part)
{
	for (unsigned i = 0; i < v->nr_reasons; i++)
		if (strstr(v->reasons[i], part))
			return true;
	return false;
}

static void test_loop_clean_allowed(void **state)
{
	struct safety_verdict v;

	(void)state;
	attach_loop("clean");
	assert_int_equal(safety_check(loop.device, NULL, &v), 0);
	assert_true(v.is_block);
	assert_true(v.allowed);
	assert_false(v.mounted);
	assert_int_equal(v.nr_reasons, 0);
	/* a loop device has no serial: its kernel name is the ID */
	assert_string_equal(v.device_id, loop.name);
	assert_string_equal(safety_consent_hint(&v), "");
}

static void test_loop_ext4(void **state)
{
	struct safety_verdict v;
	char expected[128], hint[128];

	(void)state;
	attach_loop("ext4");
	run_ok("mkfs.ext4 -q -F %s", loop.device);
	assert_int_equal(safety_check(loop.device, NULL, &v), 0);
	assert_true(v.is_block);
	assert_false(v.allowed);
	assert_false(v.mounted);
	assert_int_equal(v.nr_reasons, 1);
	snprintf(expected, sizeof(expected), "%s carries an ext4 filesystem",
		 loop.device);
	assert_string_equal(v.reasons[0], expected);
	assert_string_equal(v.device_id, loop.name);
	snprintf(hint, sizeof(hint), "pass --destroy-data=%s ", loop.name);
	assert_non_null(strstr(safety_consent_hint(&v), hint));

	/* consent with the device's ID; reasons still list the finding */
	assert_int_equal(safety_check(loop.device, loop.name, &v), 0);
	assert_true(v.allowed);
	assert_int_equal(v.nr_reasons, 1);

	/* a wrong ID, and the device path itself, are no consent */
	assert_int_equal(safety_check(loop.device, "loop999", &v), 0);
	assert_false(v.allowed);
	assert_true(has_reason(&v, "--destroy-data=loop999 does not match"));
	assert_int_equal(safety_check(loop.device, loop.device, &v), 0);
	assert_false(v.allowed);
}

static void test_loop_gpt_and_partition(void **state)
{
	struct safety_verdict v;
	char partition[80], expected[128];

	(void)state;
	attach_loop("gpt");
	run_ok("printf 'label: gpt\\n,8M\\n' | sfdisk -q %s >/dev/null",
	       loop.device);
	assert_int_equal(safety_check(loop.device, NULL, &v), 0);
	assert_false(v.allowed);
	snprintf(expected, sizeof(expected), "%s has a gpt partition table",
		 loop.device);
	assert_true(has_reason(&v, expected));
	assert_int_equal(safety_check(loop.device, loop.name, &v), 0);
	assert_true(v.allowed);

	/* the partition is judged with its parent disk's ID */
	snprintf(partition, sizeof(partition), "%sp1", loop.device);
	run_ok("udevadm settle 2>/dev/null; test -b %s || partx -a %s",
	       partition, loop.device);
	assert_int_equal(safety_check(partition, NULL, &v), 0);
	assert_true(v.is_block);
	assert_string_equal(v.device_id, loop.name);
	assert_true(v.allowed); /* an empty partition */
	run_ok("mkfs.ext4 -q -F %s", partition);
	assert_int_equal(safety_check(partition, NULL, &v), 0);
	assert_false(v.allowed);
	assert_true(has_reason(&v, "carries an ext4 filesystem"));
	assert_int_equal(safety_check(partition, loop.name, &v), 0);
	assert_true(v.allowed);
}

static void test_loop_swap_signature(void **state)
{
	struct safety_verdict v;

	(void)state;
	attach_loop("swap");
	run_ok("mkswap -q %s >/dev/null 2>&1 || mkswap %s >/dev/null",
	       loop.device, loop.device);
	assert_int_equal(safety_check(loop.device, NULL, &v), 0);
	assert_false(v.allowed);
	assert_true(has_reason(&v, "carries a swap signature"));
}

static void make_mountpoint(void)
{
	in_workdir(loop.mountpoint, sizeof(loop.mountpoint), "mnt");
	assert_int_equal(mkdir(loop.mountpoint, 0755), 0);
}

static void test_loop_mounted(void **state)
{
	struct safety_verdict v;
	char expected[2 * PATH_MAX];

	(void)state;
	attach_loop("mounted");
	run_ok("mkfs.ext4 -q -F %s", loop.device);
	make_mountpoint();
	run_ok("mount %s '%s'", loop.device, loop.mountpoint);
	assert_int_equal(safety_check(loop.device, NULL, &v), 0);
	assert_false(v.allowed);
	assert_true(v.mounted);
	snprintf(expected, sizeof(expected), "%s is mounted at %s", loop.device,
		 loop.mountpoint);
	assert_true(has_reason(&v, expected));
	assert_true(has_reason(&v, "carries an ext4 filesystem"));
	/* consent cannot help: unmount first */
	assert_string_equal(safety_consent_hint(&v), "");
	assert_int_equal(safety_check(loop.device, loop.name, &v), 0);
	assert_false(v.allowed);
	assert_true(v.mounted);
}

static void test_loop_partition_mounted(void **state)
{
	struct safety_verdict v;
	char partition[80], expected[2 * PATH_MAX];

	(void)state;
	attach_loop("partmounted");
	run_ok("printf 'label: gpt\\n,8M\\n' | sfdisk -q %s >/dev/null",
	       loop.device);
	snprintf(partition, sizeof(partition), "%sp1", loop.device);
	run_ok("udevadm settle 2>/dev/null; test -b %s || partx -a %s",
	       partition, loop.device);
	run_ok("mkfs.ext4 -q -F %s", partition);
	make_mountpoint();
	run_ok("mount %s '%s'", partition, loop.mountpoint);
	/* the whole disk is refused because its partition is mounted */
	assert_int_equal(safety_check(loop.device, loop.name, &v), 0);
	assert_false(v.allowed);
	assert_true(v.mounted);
	snprintf(expected, sizeof(expected),
		 "%s's partition %s is mounted at %s", loop.device, partition,
		 loop.mountpoint);
	assert_true(has_reason(&v, expected));
	assert_true(has_reason(&v, "has a gpt partition table"));
}

/* A file drivebench created, then attached as a loop device: judged as
 * the device it backs, whatever its mark says. */
static void test_loop_backing_file(void **state)
{
	struct safety_verdict v;
	char expected[2 * PATH_MAX];
	int fd;

	(void)state;
	attach_loop("backing");
	fd = open(loop.image, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(safety_mark_created(fd), 0);
	close(fd);
	assert_int_equal(safety_check(loop.image, NULL, &v), 0);
	assert_false(v.allowed);
	snprintf(expected, sizeof(expected), "%s is the backing file of %s", loop.image,
		 loop.device);
	assert_true(has_reason(&v, expected));
	assert_int_equal(safety_check(loop.image, loop.name, &v), 0);
	assert_true(v.allowed);
	assert_int_equal(safety_check(loop.image, loop.image, &v), 0);
	assert_true(v.allowed);

	run_ok("mkfs.ext4 -q -F %s", loop.device);
	make_mountpoint();
	run_ok("mount %s '%s'", loop.device, loop.mountpoint);
	assert_int_equal(safety_check(loop.image, loop.image, &v), 0);
	assert_false(v.allowed);   /* mounted: consent cannot help */
	assert_true(v.never);
	assert_true(has_reason(&v, "is mounted at"));
	assert_string_equal(safety_consent_hint(&v), "");
}

/* A file that now holds a filesystem image needs consent, even when
 * drivebench created it. */
static void test_file_with_filesystem(void **state)
{
	struct safety_verdict v;
	char path[PATH_MAX];
	int fd;

	(void)state;
	in_workdir(path, sizeof(path), "image.img");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(safety_mark_created(fd), 0);
	assert_int_equal(ftruncate(fd, 16 << 20), 0);
	close(fd);
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_true(v.allowed);
	run_ok("mkfs.ext4 -q -F '%s'", path);
	assert_int_equal(safety_check(path, NULL, &v), 0);
	assert_false(v.allowed);
	assert_true(has_reason(&v, "carries an ext4 filesystem"));
	assert_int_equal(safety_check(path, path, &v), 0);
	assert_true(v.allowed);
}

/* Kernel settings are never targets, and nothing new is created there. */
static void test_pseudo_filesystem_targets(void **state)
{
	struct safety_verdict v;

	(void)state;
	assert_int_equal(safety_check("/proc/sys/vm/drop_caches", "/proc/sys/vm/drop_caches",
				      &v), 0);
	assert_false(v.allowed);
	assert_true(v.never);
	assert_true(has_reason(&v, "on procfs"));
	assert_int_equal(safety_check("/sys/kernel/new-file", NULL, &v), 0);
	assert_false(v.allowed);
	assert_true(has_reason(&v, "would be created on sysfs"));
	assert_int_equal(safety_check("/dev/no-such-device", NULL, &v), -1);
	assert_non_null(strstr(err_msg(), "no such device"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pseudo_filesystem_targets),
		cmocka_unit_test(test_file_with_filesystem),
		cmocka_unit_test_teardown(test_loop_backing_file, detach_loop),
		cmocka_unit_test(test_mountinfo_by_device_number),
		cmocka_unit_test(test_mountinfo_unescapes_mountpoint),
		cmocka_unit_test(test_mountinfo_by_source),
		cmocka_unit_test(test_mountinfo_not_found),
		cmocka_unit_test(test_mountinfo_truncates_mountpoint),
		cmocka_unit_test(test_swaps_entries),
		cmocka_unit_test(test_swaps_empty),
		cmocka_unit_test(test_new_file_allowed),
		cmocka_unit_test(test_unmarked_file_refused),
		cmocka_unit_test(test_file_consent_by_path),
		cmocka_unit_test(test_file_wrong_consent),
		cmocka_unit_test(test_marked_file_allowed),
		cmocka_unit_test(test_mark_bad_fd),
		cmocka_unit_test(test_unexaminable_paths),
		cmocka_unit_test_teardown(test_loop_clean_allowed, detach_loop),
		cmocka_unit_test_teardown(test_loop_ext4, detach_loop),
		cmocka_unit_test_teardown(test_loop_gpt_and_partition,
					  detach_loop),
		cmocka_unit_test_teardown(test_loop_swap_signature, detach_loop),
		cmocka_unit_test_teardown(test_loop_mounted, detach_loop),
		cmocka_unit_test_teardown(test_loop_partition_mounted,
					  detach_loop),
	};

	return cmocka_run_group_tests(tests, make_workdir, remove_workdir);
}
