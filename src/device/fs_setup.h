/* fs_setup.h - a filesystem made on a block device for one step of
 * drivebench's own (the checkpoints of a suite's `checkpoint_fs = xfs`):
 * the write gate, mkfs (exec'd), a mount on a temporary directory in this
 * process's own mount namespace, and afterwards the unmount, the directory
 * removed and the signature wiped, so the device does not look like it
 * holds a user's filesystem. See docs/checkpoint.md. */
#ifndef DRIVEBENCH_FS_SETUP_H
#define DRIVEBENCH_FS_SETUP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "job/job_spec.h"

#define FS_SETUP_TYPES "xfs, ext4"
#define FS_SETUP_MOUNT_OPTIONS "nosuid,nodev"

struct fs_setup {
	char device[JOB_PATH_MAX];
	char type[8];               /* "xfs", "ext4" */
	char mkfs[JOB_PATH_MAX + 128]; /* the command as run, for the record */
	char dir[256];              /* the mount point; "" when none */
	bool mounted;
	bool made;                  /* mkfs ran: the signature is wiped after */
};

/* Whether fs_setup can make type ("xfs", "ext4"). */
bool fs_setup_known(const char *type);

/* The mkfs program for type, looked up in $PATH (/usr/sbin:/sbin:/usr/bin:
 * /bin without one) into out: 0, or -1 with err_msg naming the program and
 * the package that has it (xfsprogs, e2fsprogs). */
int fs_setup_tool(const char *type, char *out, size_t len);

/* Makes type on device and mounts it: the write gate first (safety_check:
 * a device holding a filesystem, a partition table ... needs one of the
 * destroy_ids naming it; a mounted one is refused whatever they say; a
 * refusal is err_refused(), nothing written), then mkfs (-f), then a mount
 * (nosuid,nodev) on a new directory under $TMPDIR or /tmp, in a mount
 * namespace of this process's own (its mounts seen by no other process,
 * gone when the process is). Call it from the thread that later starts the
 * I/O threads, before it starts them: they must share that namespace.
 * stop (may be NULL) is checked after mkfs. 0 with fs filled, or -1 with
 * err_msg and what was done undone (fs_setup_release). */
int fs_setup_make(struct fs_setup *fs, const char *device, const char *type,
		  const char *const *destroy_ids, unsigned nr_destroy_ids,
		  const volatile sig_atomic_t *stop);

/* Undoes fs_setup_make, whatever part of it was done: unmounts, removes
 * the directory and wipes the filesystem's signature (libblkid, as wipefs
 * does: the magic bytes of its superblock; the rest of what the filesystem
 * wrote stays on the device). Every part is tried; 0, or -1 with err_msg
 * naming the first that failed. Safe to call twice. */
int fs_setup_release(struct fs_setup *fs);

#endif
