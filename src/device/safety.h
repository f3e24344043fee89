/* safety.h - the gate that keeps drivebench from writing over data it does
 * not own: mounted, swapped-on or held block devices, devices carrying a
 * filesystem / partition table / RAID or LVM signature, and existing
 * regular files drivebench did not create. See docs/safety.md. */
#ifndef DRIVEBENCH_SAFETY_H
#define DRIVEBENCH_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

/* Extended attribute drivebench puts on files it creates ("1"). */
#define SAFETY_CREATED_XATTR "user.drivebench.created"

#define SAFETY_MAX_REASONS 8

struct safety_verdict {
	bool allowed;
	bool is_block;
	/* Block device: its serial number, or its kernel name (loop3, zram0)
	 * when it has none; a partition carries its parent disk's ID.
	 * Regular file: the path as given (empty when it does not fit). */
	char device_id[128];
	char reasons[SAFETY_MAX_REASONS][256]; /* one sentence per finding */
	unsigned nr_reasons;
	/* Mounted, or busy for an exclusive open (mounted in another mount
	 * namespace). */
	bool mounted;
	/* Refused even with consent: mounted or busy, or a file on a pseudo
	 * filesystem (procfs, sysfs). */
	bool never;
};

/* Decides whether drivebench may WRITE to path. Returns 0 with v filled
 * (allowed or not; reasons lists every finding, also when consent allows
 * the write anyway), or -1 with err_msg when path cannot be examined.
 * destroy_id (NULL or "" for none) is the --destroy-data consent: the
 * device's ID, or for a regular file its path or realpath. */
int safety_check(const char *path, const char *destroy_id,
		 struct safety_verdict *v);

/* One line telling the user how to consent, e.g. "pass --destroy-data=loop3
 * to allow writing to this device (destroys its data)"; "" when allowed or
 * when the target is mounted (consent cannot help: unmount first). The
 * string lives in a thread-local buffer until the next call. */
const char *safety_consent_hint(const struct safety_verdict *v);

/* Marks a file drivebench just created (SAFETY_CREATED_XATTR = "1"), so a
 * later run may write to it again. Returns 0, also when the filesystem has
 * no user extended attributes (then the file is not marked and a later run
 * refuses it without consent); -1 with err_msg on any other failure. */
int safety_mark_created(int fd);
/* Whether the file (or directory) at path, or the file open as fd,
 * carries that mark. */
bool safety_path_marked(const char *path);
bool safety_fd_marked(int fd);
/* Whether destroy_id (a --destroy-data name) names the file at path: the
 * path as given, or the same file under another spelling ("./x", a link
 * to it), as the gate reads consent for a file. */
bool safety_names_file(const char *destroy_id, const char *path);

#endif
