/* test_overlap.c - target/overlap.c: one drive named twice is found (the
 * same path, another spelling, a hard or symbolic link, a file not made
 * yet under two names, one modelled drive), distinct files are not; the
 * disk of a block device from a sysfs tree (a disk is its own, a partition
 * its parent's); an unknown device and a path that cannot be examined are
 * errors naming them. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "device/overlap.h"
#include "util/error.h"
#include "helpers/tmpdir.h"

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(close(fd), 0);
}

static void assert_overlap(const char *a, const char *b, const char *why_part)
{
	char why[4096] = "";

	assert_int_equal(target_overlap(a, b, why, sizeof(why)), 1);
	if (!strstr(why, why_part))
		fail_msg("'%s' does not say '%s'", why, why_part);
}

static void assert_distinct(const char *a, const char *b)
{
	char why[4096] = "";

	assert_int_equal(target_overlap(a, b, why, sizeof(why)), 0);
	assert_string_equal(why, "");
}

static void test_same_file(void **state)
{
	char a[256], b[256], hard[256], soft[256], dotted[300], cwd[4096];

	(void)state;
	snprintf(a, sizeof(a), "%s", tmp_path("a.dat"));
	snprintf(b, sizeof(b), "%s", tmp_path("b.dat"));
	snprintf(hard, sizeof(hard), "%s", tmp_path("hard.dat"));
	snprintf(soft, sizeof(soft), "%s", tmp_path("soft.dat"));
	snprintf(dotted, sizeof(dotted), "%s/./a.dat", tmp_dir());
	make_file(a);
	make_file(b);
	assert_int_equal(link(a, hard), 0);
	assert_int_equal(symlink(a, soft), 0);
	assert_overlap(a, a, "are the same file");
	assert_overlap(a, dotted, "are the same file");
	assert_overlap(a, hard, "are the same file");
	assert_overlap(soft, a, "are the same file");
	assert_distinct(a, b);
	/* a relative spelling from inside the directory */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmp_dir()), 0);
	assert_overlap("a.dat", a, "are the same file");
	assert_overlap("new.dat", "./new.dat", "are the same file");
	assert_distinct("new.dat", "other-new.dat");
	assert_distinct("new.dat", "a.dat");   /* one to be made, one there */
	assert_int_equal(chdir(cwd), 0);
}

static void test_model(void **state)
{
	char spec[256], one[300], two[300], scaled[300];

	(void)state;
	snprintf(spec, sizeof(spec), "%s", tmp_path("m.ini"));
	make_file(spec);
	snprintf(one, sizeof(one), "vssd:%s@8g", spec);
	snprintf(two, sizeof(two), "vssd:%s/./m.ini@8g", tmp_dir());
	snprintf(scaled, sizeof(scaled), "vssd:%s@4g", spec);
	assert_overlap(one, two, "the same modelled drive");
	assert_distinct(one, scaled);
	assert_distinct(one, spec);   /* the model file is not the drive */
}

/* stat fails for another reason than a missing path: a file used as a
 * directory (ENOTDIR, also for root) */
static void test_unexaminable(void **state)
{
	char file[256], inside[300], why[256] = "";

	(void)state;
	snprintf(file, sizeof(file), "%s", tmp_path("plain.dat"));
	make_file(file);
	snprintf(inside, sizeof(inside), "%s/x", file);
	assert_int_equal(target_overlap(inside, file, why, sizeof(why)), -1);
	assert_non_null(strstr(err_msg(), "cannot examine"));
	assert_non_null(strstr(err_msg(), inside));
}

static void sysfs_dir(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void sysfs_link(const char *root, const char *rel, const char *to)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(to, path), 0);
}

/* /sys/dev/block/M:m links into /sys/devices; a partition's directory is
 * in its disk's and holds a "partition" file. */
static void test_block_disk(void **state)
{
	char root[256], part_file[400], name[64], disk[64];

	(void)state;
	snprintf(root, sizeof(root), "%s", tmp_path("sys"));
	assert_int_equal(mkdir(root, 0755), 0);
	sysfs_dir(root, "devices");
	sysfs_dir(root, "devices/sda");
	sysfs_dir(root, "devices/sda/sda1");
	snprintf(part_file, sizeof(part_file), "%s/devices/sda/sda1/partition", root);
	make_file(part_file);
	sysfs_dir(root, "dev");
	sysfs_dir(root, "dev/block");
	sysfs_link(root, "dev/block/8:0", "../../devices/sda");
	sysfs_link(root, "dev/block/8:1", "../../devices/sda/sda1");

	assert_int_equal(target_block_disk(root, 8, 0, name, sizeof(name), disk, sizeof(disk)), 0);
	assert_string_equal(name, "sda");
	assert_string_equal(disk, "sda");
	assert_int_equal(target_block_disk(root, 8, 1, name, sizeof(name), disk, sizeof(disk)), 0);
	assert_string_equal(name, "sda1");
	assert_string_equal(disk, "sda");
	assert_int_equal(target_block_disk(root, 8, 2, name, sizeof(name), disk, sizeof(disk)), -1);
	assert_non_null(strstr(err_msg(), "dev/block/8:2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_file),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_unexaminable),
		cmocka_unit_test(test_block_disk),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
