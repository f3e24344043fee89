/* checkpoint_fs.c - the checks before a filesystem is made for the
 * checkpoints, and how its mode is recorded (checkpoint_fs.h). */
#include "workload/checkpoint_fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "device/model_target.h"
#include "util/error.h"

int checkpoint_fs_check(const char *option, const char *type, const char *target)
{
	char program[4096], said[128];
	struct stat st;
	int missing;

	/* as the user wrote it: "checkpoint_fs = xfs", "--checkpoint-fs xfs" */
	snprintf(said, sizeof(said), "%s%s%.32s", option, option[0] == '-' ? " " : " = ",
		 type ? type : "");
	if (!fs_setup_known(type))
		return err_set("%s: unknown filesystem (supported: %s)", said, FS_SETUP_TYPES);
	if (model_target_is(target))
		return err_set("%s: '%s' is a model target, which keeps no data: "
			       "there is no filesystem to make on it (drivebench vssd-serve "
			       "serves the model as a file a loop device and a filesystem "
			       "go on, docs/vssd.md)", said, target);
	missing = stat(target, &st);
	if (missing && errno != ENOENT)
		return err_set("%s: cannot use '%s': %s", said, target, strerror(errno));
	if (missing || !S_ISBLK(st.st_mode))
		return err_set("%s: '%s' is not a block device (the filesystem is made on a "
			       "whole device; without %s the checkpoints are files in a "
			       "directory or next to a file target)", said, target, option);
	if (fs_setup_tool(type, program, sizeof(program)))
		return err_prefix("%s", said);
	return 0;
}

int checkpoint_fs_detail(cJSON *j, const struct fs_setup *fs)
{
	return cJSON_AddStringToObject(j, "mode", fs->type) &&
	       cJSON_AddStringToObject(j, "device", fs->device) &&
	       cJSON_AddStringToObject(j, "filesystem", fs->type) &&
	       cJSON_AddStringToObject(j, "mkfs", fs->mkfs) &&
	       cJSON_AddStringToObject(j, "mount_options", FS_SETUP_MOUNT_OPTIONS) &&
	       cJSON_AddStringToObject(j, "directory", fs->dir) &&
	       cJSON_AddStringToObject(j, "after", "unmounted, signature wiped")
		? 0 : -1;
}

void checkpoint_fs_text(const struct fs_setup *fs, char *out, size_t len)
{
	snprintf(out, len, "%s made on %s (%s), mounted on %s (%s)", fs->type, fs->device,
		 fs->mkfs, fs->dir, FS_SETUP_MOUNT_OPTIONS);
}
