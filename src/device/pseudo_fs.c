/* pseudo_fs.c - recognises the kernel's pseudo filesystems by their statfs
 * magic and by the /proc and /sys prefixes, so that a job or an output never
 * opens a kernel knob (drop_caches, read_ahead_kb) for writing. */
#include "device/pseudo_fs.h"

#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

static const struct {
	long magic;
	const char *name;
} pseudo_filesystems[] = {
	{ PROC_SUPER_MAGIC, "procfs" },
	{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ BPF_FS_MAGIC, "bpf" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ 0x62656570, "configfs" },   /* CONFIGFS_MAGIC: not in every linux/magic.h */
	{ 0x65735543, "fusectl" },    /* FUSE_CTL_SUPER_MAGIC */
};

const char *pseudo_fs_name(long f_type)
{
	for (size_t i = 0; i < sizeof(pseudo_filesystems) / sizeof(pseudo_filesystems[0]); i++)
		if (pseudo_filesystems[i].magic == f_type)
			return pseudo_filesystems[i].name;
	return NULL;
}

static bool has_prefix(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

#define LINK_HOPS_MAX 40   /* the kernel's own limit (ELOOP) */

/* A dangling symbolic link's chain followed to the missing name it ends
 * at: where a create through it makes the file. false when path is not a
 * link (or the chain loops). */
static bool dangling_end(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], target[PATH_MAX], next[2 * PATH_MAX];
	struct stat st;

	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops <= LINK_HOPS_MAX; hops++) {
		ssize_t n;
		const char *slash;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			snprintf(out, len, "%s", cur);
			return hops > 0;
		}
		if ((n = readlink(cur, target, sizeof(target) - 1)) < 0)
			return false;
		target[n] = '\0';
		slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash)
			snprintf(next, sizeof(next), "%s", target);
		else
			snprintf(next, sizeof(next), "%.*s/%s", (int)(slash - cur), cur, target);
		if (strlen(next) >= sizeof(cur))
			return false;
		memcpy(cur, next, strlen(next) + 1);
	}
	return false;
}

/* The resolved path, or of its parent directory when it does not exist
 * (for a dangling link, of the missing name its chain ends at). */
static bool resolve(const char *path, char *out)
{
	char parent[PATH_MAX], end[PATH_MAX];
	const char *slash;

	if (realpath(path, out))
		return true;
	if (dangling_end(path, end, sizeof(end)))
		path = end;
	slash = strrchr(path, '/');
	if (!slash)
		return realpath(".", out) != NULL;
	snprintf(parent, sizeof(parent), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return realpath(parent, out) != NULL;
}

const char *pseudo_fs_of(const char *path, int fd)
{
	char resolved[PATH_MAX];
	struct statfs fs;
	const char *name;

	if (path && resolve(path, resolved)) {
		if (has_prefix(resolved, "/proc"))
			return "procfs";
		if (has_prefix(resolved, "/sys"))
			return "sysfs";
	}
	if (fd >= 0) {
		if (fstatfs(fd, &fs) == 0 && (name = pseudo_fs_name((long)fs.f_type)))
			return name;
		return NULL;
	}
	if (path && (statfs(path, &fs) == 0 ||
		     (errno == ENOENT && resolve(path, resolved) && statfs(resolved, &fs) == 0)))
		return pseudo_fs_name((long)fs.f_type);
	return NULL;
}

bool path_in_dev(const char *path)
{
	char resolved[PATH_MAX];

	if (!resolve(path, resolved))
		return has_prefix(path, "/dev") && !has_prefix(path, "/dev/shm");
	return has_prefix(resolved, "/dev") && !has_prefix(resolved, "/dev/shm");
}
