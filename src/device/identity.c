/* identity.c - a target's identity from stat() and sysfs: kind, size, block
 * sizes, scheduler, nr_requests, write cache, model / serial / firmware /
 * vendor, and for NVMe the controller and its PCIe link. A partition is
 * described by its parent disk's queue and device. Missing facts stay
 * unavailable; nothing is guessed. */
#include "device/identity.h"

#include <ctype.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/target.h"
#include "device/zones.h"
#include "util/error.h"
#include "util/text.h"

const char *drive_kind_name(enum drive_kind kind)
{
	switch (kind) {
	case DRIVE_FILE: return "file";
	case DRIVE_NVME: return "nvme";
	case DRIVE_LOOP: return "loop";
	case DRIVE_ZRAM: return "zram";
	case DRIVE_VIRTIO: return "virtio";
	case DRIVE_SCSI: return "scsi";
	case DRIVE_BLOCK: return "block";
	case DRIVE_MODEL: return "model";
	}
	return "unknown";
}

/* Reads dir/name into out with surrounding whitespace removed. Returns 0,
 * or -1 when the file cannot be read or is empty. */
static int read_attr(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX];

	out[0] = '\0';
	if (!dir[0] || snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -1;
	return text_read_small_file(path, out, len);
}

static void read_u64_attr(const char *dir, const char *name, struct maybe_u64 *out)
{
	char text[64], *end;
	unsigned long long v;

	out->known = false;
	if (read_attr(dir, name, text, sizeof(text)) < 0)
		return;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || *end)
		return;
	out->known = true;
	out->value = v;
}

static bool path_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* Copies in, cut to fit (sysfs values and kernel names are short). */
static void copy_string(char *out, size_t len, const char *in)
{
	size_t n = strnlen(in, len - 1);

	memcpy(out, in, n);
	out[n] = '\0';
}

/* out = dir/name; an over-long path becomes "" (it then reads as absent). */
static void join_path(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		out[0] = '\0';
}

int identity_active_scheduler(const char *text, char *out, size_t len)
{
	const char *open = strchr(text, '['), *close;
	size_t n;

	if (open) {
		close = strchr(open, ']');
		if (!close || close == open + 1)
			return -1;
		n = (size_t)(close - open - 1);
		if (n >= len)
			n = len - 1;
		memcpy(out, open + 1, n);
		out[n] = '\0';
		return 0;
	}
	/* Some kernels print a single scheduler without brackets. */
	while (isspace((unsigned char)*text))
		text++;
	n = strcspn(text, " \t\n");
	if (n == 0 || text[n + strspn(text + n, " \t\n")] != '\0')
		return -1; /* nothing, or several names and none marked */
	if (n >= len)
		n = len - 1;
	memcpy(out, text, n);
	out[n] = '\0';
	return 0;
}

int identity_nvme_controller_name(const char *kernel_name, char *out, size_t len)
{
	const char *p = kernel_name;
	size_t digits;

	if (strncmp(p, "nvme", 4))
		return -1;
	p += 4;
	digits = strspn(p, "0123456789");
	if (digits == 0 || p[digits] != 'n' || !isdigit((unsigned char)p[digits + 1]))
		return -1;
	if (4 + digits >= len)
		return -1;
	memcpy(out, kernel_name, 4 + digits);
	out[4 + digits] = '\0';
	return 0;
}

static enum drive_kind kind_of(const char *disk, const char *disk_dir)
{
	char device[PATH_MAX], link[PATH_MAX];

	if (!strncmp(disk, "nvme", 4))
		return DRIVE_NVME;
	if (!strncmp(disk, "loop", 4))
		return DRIVE_LOOP;
	if (!strncmp(disk, "zram", 4))
		return DRIVE_ZRAM;
	if (snprintf(device, sizeof(device), "%s/device", disk_dir) < (int)sizeof(device) &&
	    realpath(device, link)) {
		if (strstr(link, "/virtio"))
			return DRIVE_VIRTIO;
		if (path_exists(device, "scsi_level"))
			return DRIVE_SCSI;
	}
	return DRIVE_BLOCK;
}

/* NVMe: model / serial / firmware and the PCIe link come from the
 * controller, /sys/class/nvme/<ctrl>. */
static void fill_nvme(const char *sysfs_root, const char *disk_dir,
		      struct drive_identity *id)
{
	char ctrl_dir[PATH_MAX], pci_dir[PATH_MAX];

	read_u64_attr(disk_dir, "nsid", &id->nvme_nsid);
	if (identity_nvme_controller_name(id->disk_name, id->nvme_controller,
					  sizeof(id->nvme_controller)) < 0)
		return;
	snprintf(ctrl_dir, sizeof(ctrl_dir), "%s/class/nvme/%s", sysfs_root,
		 id->nvme_controller);
	if (access(ctrl_dir, F_OK) < 0) {
		/* With native multipath the head's number need not be a
		 * controller's; the identity then stays at what the disk has. */
		id->nvme_controller[0] = '\0';
		return;
	}
	read_attr(ctrl_dir, "model", id->model, sizeof(id->model));
	read_attr(ctrl_dir, "serial", id->serial, sizeof(id->serial));
	read_attr(ctrl_dir, "firmware_rev", id->firmware, sizeof(id->firmware));
	join_path(pci_dir, sizeof(pci_dir), ctrl_dir, "device");
	read_attr(pci_dir, "current_link_speed", id->pcie_link_speed,
		  sizeof(id->pcie_link_speed));
	if (!strcmp(id->pcie_link_speed, "Unknown"))
		id->pcie_link_speed[0] = '\0';
	read_u64_attr(pci_dir, "current_link_width", &id->pcie_link_width);
	if (id->pcie_link_width.known && id->pcie_link_width.value == 0)
		id->pcie_link_width.known = false;
}

int identity_from_sysfs(const char *sysfs_root, const char *kernel_name,
			struct drive_identity *id)
{
	char dev_dir[PATH_MAX], real[PATH_MAX], disk_dir[PATH_MAX];
	char queue_dir[PATH_MAX], device_dir[PATH_MAX], text[256];
	struct maybe_u64 sectors;

	if (snprintf(dev_dir, sizeof(dev_dir), "%s/class/block/%s", sysfs_root,
		     kernel_name) >= (int)sizeof(dev_dir) || !realpath(dev_dir, real))
		return err_set("no sysfs entry for block device '%s'", kernel_name);
	copy_string(id->kernel_name, sizeof(id->kernel_name), kernel_name);
	copy_string(id->disk_name, sizeof(id->disk_name), kernel_name);
	copy_string(disk_dir, sizeof(disk_dir), real);
	id->is_partition = path_exists(real, "partition");
	if (id->is_partition) {
		/* A partition's directory lies inside its disk's directory. */
		char *slash = strrchr(disk_dir, '/');

		if (slash && slash != disk_dir) {
			*slash = '\0';
			copy_string(id->disk_name, sizeof(id->disk_name),
				    strrchr(disk_dir, '/') + 1);
		}
	}
	id->kind = kind_of(id->disk_name, disk_dir);

	read_u64_attr(real, "size", &sectors); /* always 512-byte units */
	id->size_bytes.known = sectors.known;
	id->size_bytes.value = sectors.value * 512;

	join_path(queue_dir, sizeof(queue_dir), disk_dir, "queue");
	read_u64_attr(queue_dir, "logical_block_size", &id->logical_block);
	read_u64_attr(queue_dir, "physical_block_size", &id->physical_block);
	read_u64_attr(queue_dir, "rotational", &id->rotational);
	read_u64_attr(queue_dir, "nr_requests", &id->nr_requests);
	if (read_attr(queue_dir, "scheduler", text, sizeof(text)) == 0 &&
	    identity_active_scheduler(text, id->scheduler, sizeof(id->scheduler)) < 0)
		id->scheduler[0] = '\0';
	read_attr(queue_dir, "write_cache", id->write_cache, sizeof(id->write_cache));
	read_attr(queue_dir, "zoned", id->zoned, sizeof(id->zoned));
	if (id->zoned[0] && strcmp(id->zoned, "none")) {
		struct maybe_u64 chunk = { 0 };

		read_u64_attr(queue_dir, "nr_zones", &id->nr_zones);
		read_u64_attr(queue_dir, "chunk_sectors", &chunk);
		id->zone_size = (struct maybe_u64){ chunk.known, chunk.value * 512 };
		read_u64_attr(queue_dir, "max_open_zones", &id->max_open_zones);
		read_u64_attr(queue_dir, "max_active_zones", &id->max_active_zones);
	}

	join_path(device_dir, sizeof(device_dir), disk_dir, "device");
	read_attr(device_dir, "model", id->model, sizeof(id->model));
	read_attr(device_dir, "serial", id->serial, sizeof(id->serial));
	if (!id->serial[0])
		read_attr(disk_dir, "serial", id->serial, sizeof(id->serial)); /* virtio-blk */
	if (read_attr(device_dir, "firmware_rev", id->firmware, sizeof(id->firmware)) < 0)
		read_attr(device_dir, "rev", id->firmware, sizeof(id->firmware)); /* SCSI */
	read_attr(device_dir, "vendor", id->vendor, sizeof(id->vendor));

	if (id->kind == DRIVE_NVME)
		fill_nvme(sysfs_root, disk_dir, id);
	if (id->kind == DRIVE_LOOP) {
		char loop_dir[PATH_MAX];

		join_path(loop_dir, sizeof(loop_dir), disk_dir, "loop");
		read_attr(loop_dir, "backing_file", id->loop_backing_file,
			  sizeof(id->loop_backing_file));
	}
	return 0;
}

/* Kernel name of the block device major:minor via /sys/dev/block. */
static int kernel_name_of(dev_t dev, char *out, size_t len)
{
	char link[64], target[PATH_MAX];
	ssize_t n;
	const char *base;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	copy_string(out, len, base ? base + 1 : target);
	return 0;
}

/* a zoned device's first zone's capacity, from the zone report (left
 * unknown when it cannot be read) */
static void zone_capacity(const char *path, struct drive_identity *id)
{
	struct blkzone *z;
	unsigned nr;
	int fd;

	if (!id->zone_size.known || !id->zone_size.value)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (zones_report(fd, path, 0, id->zone_size.value, &z, &nr) == 0 && nr)
		id->zone_capacity = (struct maybe_u64){ true, z[0].cap };
	else
		err_clear();
	free(z);
	close(fd);
}

int identity_probe(const char *path, struct drive_identity *id)
{
	struct stat st;
	struct target t;
	char name[IDENTITY_NAME_MAX];

	memset(id, 0, sizeof(*id));
	if (strlen(path) >= sizeof(id->path))
		return err_set("path too long: '%.64s...'", path);
	copy_string(id->path, sizeof(id->path), path);
	if (stat(path, &st) < 0)
		return err_set("cannot examine '%s': %s", path, strerror(errno));

	if (S_ISBLK(st.st_mode)) {
		if (kernel_name_of(st.st_rdev, name, sizeof(name)) < 0)
			return err_set("'%s': block device %u:%u is not in sysfs", path,
				       major(st.st_rdev), minor(st.st_rdev));
		if (identity_from_sysfs("/sys", name, id) < 0)
			return -1;
		zone_capacity(path, id);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return err_set("'%s' is neither a regular file nor a block device", path);

	id->kind = DRIVE_FILE;
	id->size_bytes.known = true;
	id->size_bytes.value = (uint64_t)st.st_size;
	/* The block sizes the runner aligns O_DIRECT to, as target_probe
	 * reports them; queue facts of a file are not its own. */
	if (target_probe(path, &t) == 0) {
		id->logical_block.known = id->physical_block.known = true;
		id->logical_block.value = t.logical_block;
		id->physical_block.value = t.physical_block;
	}
	err_clear();
	if (kernel_name_of(st.st_dev, name, sizeof(name)) == 0)
		copy_string(id->fs_device, sizeof(id->fs_device), name);
	return 0;
}
