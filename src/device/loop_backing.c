/* loop_backing.c - finds the loop device a regular file backs: asks each
 * attached loop device for its backing inode (LOOP_GET_STATUS64), and falls
 * back to the path sysfs shows when the device node cannot be opened. */
#include "device/loop_backing.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/text.h"

static bool same_file(const struct stat *st, dev_t dev, ino_t ino)
{
	return major(st->st_dev) == major(dev) && minor(st->st_dev) == minor(dev) &&
	       st->st_ino == ino;
}

/* Whether the attached loop device kernel (loop3) is backed by st. */
static bool backs(const char *kernel, const struct stat *st)
{
	char path[PATH_MAX], backing[PATH_MAX];
	struct loop_info64 info;
	struct stat backing_st;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", kernel);
	if (text_read_small_file(path, backing, sizeof(backing)) != 0)
		return false;   /* not attached */
	snprintf(path, sizeof(path), "/dev/%s", kernel);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	memset(&info, 0, sizeof(info));   /* filled by the kernel; valgrind cannot tell */
	if (fd >= 0) {
		int rc = ioctl(fd, LOOP_GET_STATUS64, &info);

		close(fd);
		if (rc == 0 && same_file(st, (dev_t)info.lo_device, (ino_t)info.lo_inode))
			return true;
	}
	/* the path as sysfs shows it ("... (deleted)" once unlinked) */
	return stat(backing, &backing_st) == 0 &&
	       same_file(st, backing_st.st_dev, backing_st.st_ino);
}

int loop_device_backed_by(const struct stat *st, char *name, size_t len)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *entry;
	int found = 0;

	if (!dir)
		return 0;
	while (!found && (entry = readdir(dir))) {
		if (strncmp(entry->d_name, "loop", 4) != 0 || !backs(entry->d_name, st))
			continue;
		snprintf(name, len, "%s", entry->d_name);
		found = 1;
	}
	closedir(dir);
	return found;
}
