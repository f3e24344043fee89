/* test_identity.c - target identity: the scheduler and controller-name
 * parsers, identity_from_sysfs over a constructed sysfs tree (an NVMe
 * namespace and its partition, a SCSI disk, a loop device, a disk with
 * nothing but a size), identity_probe and drive_snapshot_take on real
 * files and devices, and their error paths. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/identity.h"
#include "device/snapshot.h"
#include "util/error.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

/* Writes tmp_dir()/rel (creating its directories) with text. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tmp_dir(), rel);
	for (char *p = path + strlen(tmp_dir()) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	file_write_text(path, text);
}

static void link_to(const char *target, const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tmp_dir(), rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A sysfs tree shaped like the kernel's (class/ links into devices/). */
static int build_tree(void **state)
{
	if (tmp_setup(state))
		return -1;

	/* NVMe controller nvme0 on a PCIe device, namespace nvme0n1, partition p1 */
	put("devices/pci0/0000:01:00.0/current_link_speed", "16.0 GT/s PCIe\n");
	put("devices/pci0/0000:01:00.0/current_link_width", "4\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/model", "SAMSUNG MZWLJ7T6HALA-00AU3              \n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/serial", "S5RTNC0T104269      \n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/firmware_rev", "EPK9CR5Q\n");
	link_to("../..", "devices/pci0/0000:01:00.0/nvme/nvme0/device");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/size", "15002931888\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/nsid", "1\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/logical_block_size", "512\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/physical_block_size", "4096\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/rotational", "0\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/nr_requests", "1023\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/scheduler", "[none] mq-deadline\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/write_cache", "write back\n");
	link_to("..", "devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/device");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/nvme0n1p1/partition", "1\n");
	put("devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/nvme0n1p1/size", "2048\n");
	put("class/nvme/.keep", "");
	link_to("../../devices/pci0/0000:01:00.0/nvme/nvme0", "class/nvme/nvme0");
	put("class/block/.keep", "");
	link_to("../../devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1", "class/block/nvme0n1");
	link_to("../../devices/pci0/0000:01:00.0/nvme/nvme0/nvme0n1/nvme0n1p1",
		"class/block/nvme0n1p1");

	/* SCSI disk: firmware in "rev", vendor padded */
	put("devices/host0/target0/0:0:0:0/scsi_level", "8\n");
	put("devices/host0/target0/0:0:0:0/model", "ST4000NM0035-1V4\n");
	put("devices/host0/target0/0:0:0:0/rev", "TN03\n");
	put("devices/host0/target0/0:0:0:0/vendor", "ATA     \n");
	put("devices/host0/target0/0:0:0:0/block/sda/size", "7814037168\n");
	put("devices/host0/target0/0:0:0:0/block/sda/queue/rotational", "1\n");
	put("devices/host0/target0/0:0:0:0/block/sda/queue/scheduler", "mq-deadline\n");
	link_to("../..", "devices/host0/target0/0:0:0:0/block/sda/device");
	link_to("../../devices/host0/target0/0:0:0:0/block/sda", "class/block/sda");

	/* loop device with a backing file */
	put("devices/virtual/block/loop3/size", "8192\n");
	put("devices/virtual/block/loop3/loop/backing_file", "/var/tmp/img (deleted)\n");
	link_to("../../devices/virtual/block/loop3", "class/block/loop3");

	/* a device with only a size: everything else unavailable */
	put("devices/virtual/block/bare0/size", "\n");
	link_to("../../devices/virtual/block/bare0", "class/block/bare0");

	/* NVMe head whose controller is not in class/nvme (multipath) */
	put("devices/virtual/nvme-subsystem/nvme-subsys0/nvme5n1/size", "16\n");
	link_to("../../devices/virtual/nvme-subsystem/nvme-subsys0/nvme5n1", "class/block/nvme5n1");
	return 0;
}

static int remove_tree(void **state)
{
	return tmp_teardown(state);
}

static void test_active_scheduler(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(identity_active_scheduler("none [mq-deadline] kyber bfq\n", out, sizeof(out)), 0);
	assert_string_equal(out, "mq-deadline");
	assert_int_equal(identity_active_scheduler("[none] mq-deadline", out, sizeof(out)), 0);
	assert_string_equal(out, "none");
	assert_int_equal(identity_active_scheduler("  none\n", out, sizeof(out)), 0);
	assert_string_equal(out, "none");
	assert_int_equal(identity_active_scheduler("none kyber", out, sizeof(out)), -1);
	assert_int_equal(identity_active_scheduler("", out, sizeof(out)), -1);
	assert_int_equal(identity_active_scheduler("[] none", out, sizeof(out)), -1);
	assert_int_equal(identity_active_scheduler("[none", out, sizeof(out)), -1);
	assert_int_equal(identity_active_scheduler("[mq-deadline]", out, 4), 0);
	assert_string_equal(out, "mq-");
}

static void test_controller_name(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(identity_nvme_controller_name("nvme0n1", out, sizeof(out)), 0);
	assert_string_equal(out, "nvme0");
	assert_int_equal(identity_nvme_controller_name("nvme12n3p4", out, sizeof(out)), 0);
	assert_string_equal(out, "nvme12");
	assert_int_equal(identity_nvme_controller_name("nvme0", out, sizeof(out)), -1);
	assert_int_equal(identity_nvme_controller_name("nvmen1", out, sizeof(out)), -1);
	assert_int_equal(identity_nvme_controller_name("sda", out, sizeof(out)), -1);
	assert_int_equal(identity_nvme_controller_name("nvme0nx", out, sizeof(out)), -1);
	assert_int_equal(identity_nvme_controller_name("nvme123n1", out, 5), -1);
}

static void test_sysfs_nvme(void **state)
{
	struct drive_identity id;

	(void)state;
	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "nvme0n1", &id), 0);
	assert_int_equal(id.kind, DRIVE_NVME);
	assert_string_equal(drive_kind_name(id.kind), "nvme");
	assert_false(id.is_partition);
	assert_string_equal(id.disk_name, "nvme0n1");
	assert_true(id.size_bytes.known);
	assert_int_equal(id.size_bytes.value, 15002931888ull * 512);
	assert_int_equal(id.logical_block.value, 512);
	assert_int_equal(id.physical_block.value, 4096);
	assert_true(id.rotational.known);
	assert_int_equal(id.rotational.value, 0);
	assert_int_equal(id.nr_requests.value, 1023);
	assert_string_equal(id.scheduler, "none");
	assert_string_equal(id.write_cache, "write back");
	assert_string_equal(id.model, "SAMSUNG MZWLJ7T6HALA-00AU3");
	assert_string_equal(id.serial, "S5RTNC0T104269");
	assert_string_equal(id.firmware, "EPK9CR5Q");
	assert_string_equal(id.nvme_controller, "nvme0");
	assert_true(id.nvme_nsid.known);
	assert_int_equal(id.nvme_nsid.value, 1);
	assert_string_equal(id.pcie_link_speed, "16.0 GT/s PCIe");
	assert_true(id.pcie_link_width.known);
	assert_int_equal(id.pcie_link_width.value, 4);
}

static void test_sysfs_partition_uses_parent(void **state)
{
	struct drive_identity id;

	(void)state;
	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "nvme0n1p1", &id), 0);
	assert_true(id.is_partition);
	assert_string_equal(id.kernel_name, "nvme0n1p1");
	assert_string_equal(id.disk_name, "nvme0n1");
	assert_int_equal(id.kind, DRIVE_NVME);
	assert_int_equal(id.size_bytes.value, 2048 * 512); /* its own size */
	assert_int_equal(id.nr_requests.value, 1023);      /* the disk's queue */
	assert_string_equal(id.serial, "S5RTNC0T104269");
	assert_string_equal(id.nvme_controller, "nvme0");
}

static void test_sysfs_scsi(void **state)
{
	struct drive_identity id;

	(void)state;
	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "sda", &id), 0);
	assert_int_equal(id.kind, DRIVE_SCSI);
	assert_string_equal(id.model, "ST4000NM0035-1V4");
	assert_string_equal(id.firmware, "TN03");
	assert_string_equal(id.vendor, "ATA");
	assert_string_equal(id.serial, "");
	assert_string_equal(id.scheduler, "mq-deadline");
	assert_int_equal(id.rotational.value, 1);
	assert_false(id.nr_requests.known);
	assert_false(id.logical_block.known);
	assert_string_equal(id.write_cache, "");
	assert_string_equal(id.nvme_controller, "");
}

static void test_sysfs_loop_and_bare(void **state)
{
	struct drive_identity id;

	(void)state;
	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "loop3", &id), 0);
	assert_int_equal(id.kind, DRIVE_LOOP);
	assert_string_equal(id.loop_backing_file, "/var/tmp/img (deleted)");
	assert_int_equal(id.size_bytes.value, 8192 * 512);

	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "bare0", &id), 0);
	assert_int_equal(id.kind, DRIVE_BLOCK);
	assert_false(id.size_bytes.known); /* empty size file */
	assert_false(id.logical_block.known);
	assert_false(id.physical_block.known);
	assert_false(id.rotational.known);
	assert_string_equal(id.model, "");
	assert_string_equal(id.scheduler, "");

	/* NVMe head without a matching controller: no controller facts */
	memset(&id, 0, sizeof(id));
	assert_int_equal(identity_from_sysfs(tmp_dir(), "nvme5n1", &id), 0);
	assert_int_equal(id.kind, DRIVE_NVME);
	assert_string_equal(id.nvme_controller, "");
	assert_string_equal(id.pcie_link_speed, "");
	assert_false(id.pcie_link_width.known);
}

static void test_sysfs_missing(void **state)
{
	struct drive_identity id;

	(void)state;
	assert_int_equal(identity_from_sysfs(tmp_dir(), "sdz", &id), -1);
	assert_non_null(strstr(err_msg(), "no sysfs entry for block device 'sdz'"));
	assert_int_equal(identity_from_sysfs("/nonexistent-sysfs", "sda", &id), -1);
}

static void test_probe_file(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	struct drive_identity id;
	int fd = tmp_file("drivebench-identity", path, sizeof(path));

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello", 5), 5);
	close(fd);
	assert_int_equal(identity_probe(path, &id), 0);
	assert_int_equal(id.kind, DRIVE_FILE);
	assert_string_equal(id.path, path);
	assert_true(id.size_bytes.known);
	assert_int_equal(id.size_bytes.value, 5);
	assert_true(id.logical_block.known);
	assert_true(id.logical_block.value >= 512);
	/* queue and device facts do not belong to a file */
	assert_false(id.rotational.known);
	assert_false(id.nr_requests.known);
	assert_string_equal(id.model, "");
	assert_string_equal(id.serial, "");
	assert_string_equal(id.kernel_name, "");
	unlink(path);
}

static void test_probe_errors(void **state)
{
	struct drive_identity id;
	struct drive_snapshot *s = calloc(1, sizeof(*s));
	char long_path[IDENTITY_PATH_MAX + 10];

	(void)state;
	assert_non_null(s);
	assert_int_equal(identity_probe("/nonexistent/drivebench", &id), -1);
	assert_non_null(strstr(err_msg(), "No such file"));
	assert_int_equal(identity_probe("/tmp", &id), -1);
	assert_non_null(strstr(err_msg(), "neither a regular file nor a block device"));
	assert_int_equal(identity_probe("/dev/null", &id), -1);
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[sizeof(long_path) - 1] = '\0';
	assert_int_equal(identity_probe(long_path, &id), -1);
	assert_non_null(strstr(err_msg(), "too long"));
	assert_int_equal(drive_snapshot_take("/nonexistent/drivebench", s), -1);
	free(s);
}

static void test_snapshot_of_file(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	struct drive_snapshot *s = calloc(1, sizeof(*s));
	int fd = tmp_file("drivebench-identity", path, sizeof(path));
	cJSON *j;

	(void)state;
	assert_non_null(s);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(drive_snapshot_take(path, s), 0);
	assert_true(s->taken_unix_ms > 1600000000000ull);
	assert_false(s->have_ctrl || s->have_health || s->have_ocp || s->have_ns);
	j = drive_snapshot_json(s);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring, "file");
	assert_int_equal(cJSON_GetObjectItem(j, "size_bytes")->valueint, 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "nvme")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "serial")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "scheduler")));
	assert_true(cJSON_IsArray(cJSON_GetObjectItem(j, "notes")));
	cJSON_Delete(j);
	unlink(path);
	free(s);
}

static void test_probe_zram_if_present(void **state)
{
	struct drive_identity id;

	(void)state;
	if (access("/dev/zram0", F_OK) < 0) {
		printf("skip: no /dev/zram0\n");
		skip();
	}
	assert_int_equal(identity_probe("/dev/zram0", &id), 0);
	assert_int_equal(id.kind, DRIVE_ZRAM);
	assert_string_equal(id.kernel_name, "zram0");
	assert_true(id.logical_block.known);
	assert_string_equal(id.serial, ""); /* zram has none */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_active_scheduler),
		cmocka_unit_test(test_controller_name),
		cmocka_unit_test(test_sysfs_nvme),
		cmocka_unit_test(test_sysfs_partition_uses_parent),
		cmocka_unit_test(test_sysfs_scsi),
		cmocka_unit_test(test_sysfs_loop_and_bare),
		cmocka_unit_test(test_sysfs_missing),
		cmocka_unit_test(test_probe_file),
		cmocka_unit_test(test_probe_errors),
		cmocka_unit_test(test_snapshot_of_file),
		cmocka_unit_test(test_probe_zram_if_present),
	};

	return cmocka_run_group_tests(tests, build_tree, remove_tree);
}
