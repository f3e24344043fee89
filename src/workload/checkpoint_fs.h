/* checkpoint_fs.h - checkpoints as files on a filesystem made for them on
 * the block device (a suite step's `checkpoint_fs = xfs`, the command's
 * --checkpoint-fs): what is refused before anything is written, and the
 * mode as recorded. Making, mounting and undoing the filesystem is
 * target/fs_setup.h's; the files are written as in any directory
 * (workload/checkpoint.h). See docs/checkpoint.md. */
#ifndef DRIVEBENCH_CHECKPOINT_FS_H
#define DRIVEBENCH_CHECKPOINT_FS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "device/fs_setup.h"

/* Whether `option = type` can run on target: type a known filesystem
 * (xfs, ext4), target a block device (not a file, not a vssd: model), the
 * filesystem's mkfs installed. 0, or -1 with err_msg naming option and
 * the reason (bad input: exit 2). Writes nothing. */
int checkpoint_fs_check(const char *option, const char *type, const char *target);

/* Adds the filesystem mode to a step detail: "mode" (the type),
 * "device", "filesystem", "mkfs" (the command), "mount_options",
 * "directory" (the mount point while the step ran) and "after" (what the
 * device holds once the step ends). -1 out of memory. */
int checkpoint_fs_detail(cJSON *j, const struct fs_setup *fs);

/* "xfs made on /dev/loop0, mounted on /tmp/drivebench-xfs.Ab12Cd" */
void checkpoint_fs_text(const struct fs_setup *fs, char *out, size_t len);

#endif
