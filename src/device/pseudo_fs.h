/* pseudo_fs.h - the kernel's pseudo filesystems (procfs, sysfs, debugfs,
 * cgroup ...): their files are kernel knobs, not storage, so no job target
 * and no output is ever opened on one (docs/safety.md). */
#ifndef DRIVEBENCH_PSEUDO_FS_H
#define DRIVEBENCH_PSEUDO_FS_H

#include <stdbool.h>

/* The pseudo filesystem's name ("procfs", "sysfs" ...) for a statfs f_type,
 * or NULL for a filesystem that stores data. */
const char *pseudo_fs_name(long f_type);

/* The pseudo filesystem path lives on, or NULL. A path that does not exist
 * is judged by its parent directory. Paths below /proc/ and /sys/ count as
 * their filesystems even where something else is mounted there (a tmpfs at
 * /sys/fs/cgroup), and fd is used instead of path when it is >= 0. */
const char *pseudo_fs_of(const char *path, int fd);

/* True for a path in /dev outside /dev/shm (a missing one judged by its
 * parent): there a missing name is a mistyped device, never a file to
 * create. */
bool path_in_dev(const char *path);

#endif
