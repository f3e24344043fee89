/* identity.h - what a target is, from stat() and sysfs alone: kind, size,
 * block sizes, queue settings, model / serial / firmware, NVMe controller
 * and PCIe link. Every fact may be unavailable; nothing here needs root. */
#ifndef DRIVEBENCH_IDENTITY_H
#define DRIVEBENCH_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IDENTITY_NAME_MAX 64
#define IDENTITY_TEXT_MAX 128
#define IDENTITY_PATH_MAX 4096

enum drive_kind {
	DRIVE_FILE,    /* regular file on some filesystem */
	DRIVE_NVME,    /* NVMe namespace (or a partition of one) */
	DRIVE_LOOP,
	DRIVE_ZRAM,
	DRIVE_VIRTIO,
	DRIVE_SCSI,    /* SCSI / SATA / SAS / USB disks (sdX) */
	DRIVE_BLOCK,   /* any other block device (dm, md, mmc ...) */
	DRIVE_MODEL,   /* a modelled drive, vssd:FILE (target/model_target.h) */
};

/* A number that may be unavailable. */
struct maybe_u64 {
	bool known;
	uint64_t value;
};

/* Strings are "" when unavailable. */
struct drive_identity {
	char path[IDENTITY_PATH_MAX];
	enum drive_kind kind;
	char kernel_name[IDENTITY_NAME_MAX]; /* nvme0n1p2, loop3; "" for files */
	char disk_name[IDENTITY_NAME_MAX];   /* the whole disk (parent of a partition) */
	bool is_partition;
	char fs_device[IDENTITY_NAME_MAX];   /* files: block device of the filesystem */
	char loop_backing_file[IDENTITY_TEXT_MAX * 2];
	struct maybe_u64 size_bytes;
	struct maybe_u64 logical_block;
	struct maybe_u64 physical_block;
	struct maybe_u64 rotational;         /* 0 or 1 */
	struct maybe_u64 nr_requests;
	char scheduler[IDENTITY_NAME_MAX];   /* the active one, e.g. "mq-deadline" */
	char write_cache[IDENTITY_NAME_MAX]; /* "write back" / "write through" */
	char model[IDENTITY_TEXT_MAX];
	char serial[IDENTITY_TEXT_MAX];
	char firmware[IDENTITY_TEXT_MAX];
	char vendor[IDENTITY_TEXT_MAX];
	/* zoned block devices: queue/zoned ("none", "host-managed",
	 * "host-aware"), nr_zones, chunk_sectors as bytes, the open and
	 * active limits (0 = none), the first zone's capacity (BLKREPORTZONE) */
	char zoned[IDENTITY_NAME_MAX];
	struct maybe_u64 nr_zones, zone_size, zone_capacity, max_open_zones, max_active_zones;
	/* NVMe only */
	char nvme_controller[IDENTITY_NAME_MAX]; /* nvme0 */
	struct maybe_u64 nvme_nsid;
	char pcie_link_speed[IDENTITY_NAME_MAX]; /* "16.0 GT/s PCIe" as sysfs says */
	struct maybe_u64 pcie_link_width;
	/* modelled drives only: the model file, its scale, the real drive's capacity */
	char model_file[IDENTITY_TEXT_MAX * 2];
	char model_scale[IDENTITY_NAME_MAX];
	struct maybe_u64 model_rated_capacity;
};

const char *drive_kind_name(enum drive_kind kind);

/* Fills id for a regular file or a block device. Returns -1 with err_msg
 * only when path does not exist or is neither (a directory, a FIFO ...);
 * missing sysfs facts are left unavailable. */
int identity_probe(const char *path, struct drive_identity *id);

/* The block-device part of identity_probe, reading sysfs under sysfs_root
 * ("/sys", or a constructed tree in tests) for the kernel name (nvme0n1,
 * sda1, loop3). Fills every field except path, size of files and
 * fs_device. Returns -1 with err_msg when sysfs_root/class/block/<name>
 * does not exist. */
int identity_from_sysfs(const char *sysfs_root, const char *kernel_name,
			struct drive_identity *id);

/* The active scheduler in the text of queue/scheduler ("none [mq-deadline]
 * kyber" -> "mq-deadline"; a single name without brackets is that name).
 * Returns 0, or -1 when the text names none. */
int identity_active_scheduler(const char *text, char *out, size_t len);

/* The NVMe controller name in a namespace kernel name: "nvme0n1p2" ->
 * "nvme0". Returns 0, or -1 when the name is not nvme<N>n<M>... */
int identity_nvme_controller_name(const char *kernel_name, char *out, size_t len);

#endif
