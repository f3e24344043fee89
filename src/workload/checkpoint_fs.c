/* checkpoint_fs.c - the checks before a filesystem is made for the
 * checkpoints, and how its mode is recorded (checkpoint_fs.h). */
#include "workload/checkpoint_fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "target/model_target.h"
#include "util/error.h"

int checkpoint_fs_check(const char *option, const char *type, const char *target)
{
	char program[4096];
	struct stat st;
	if (!fs_setup_known(type))
		return err_set("%s = %s: unknown filesystem (supported: %s)", option,
			       type ? type : "", FS_SETUP_TYPES);
	if (model_target_is(target))
		return err_set("%s = %s: '%s' is a model target, which keeps no data: "
			       "there is no filesystem to make on it", option, type, target);
	int missing = stat(target, &st);

	if (missing && errno != ENOENT)
		return err_set("%s = %s: cannot use '%s': %s", option, type, target,
			       strerror(errno));
	if (missing || !S_ISBLK(st.st_mode))
		return err_set("%s = %s: '%s' is not a block device (the filesystem is made "
			       "on the whole device; a file target's checkpoints are files "
			       "next to it without %s)", option, type, target, option);
	if (fs_setup_tool(type, program, sizeof(program)))
		return err_prefix("%s = %s", option, type);
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
