/* safety.c - decides whether drivebench may write to a target: looks for
 * mounts (/proc/self/mountinfo), active swap (/proc/swaps), holders (sysfs),
 * signatures (libblkid) and exclusive claims on block devices, and for the
 * created-by-drivebench mark on regular files; matches --destroy-data
 * consent against the device's serial / kernel name or the file's path. */
#include "device/safety.h"
#include "device/model_target.h"
#include "device/loop_backing.h"
#include "device/nvme_char.h"
#include "device/proc_tables.h"
#include "device/pseudo_fs.h"
#include "device/signatures.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"

#define SYSFS_BLOCK "/sys/class/block"
/* mountinfo with thousands of mounts stays far below this */
#define TEXT_TABLE_MAX (64u << 20)

/* Copies src into dst[len], cut short when it does not fit. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- the verdict ---- */

static void add_reason(struct safety_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_reason(struct safety_verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nr_reasons == SAFETY_MAX_REASONS) {
		/* keep the count honest: the last slot says more were found */
		snprintf(v->reasons[SAFETY_MAX_REASONS - 1],
			 sizeof(v->reasons[0]), "(more findings not shown)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(v->reasons[v->nr_reasons], sizeof(v->reasons[0]), fmt, ap);
	va_end(ap);
	v->nr_reasons++;
}

/* A block device as sysfs names it. */
struct block_name {
	char kernel[NAME_MAX + 1];  /* loop3p1 */
	char disk[NAME_MAX + 1];    /* loop3 (the same for a whole disk) */
	bool is_partition;
};

static int block_name_of(const char *path, dev_t rdev, struct block_name *b)
{
	char link[128], resolved[PATH_MAX], attribute[PATH_MAX + 32];
	char *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	if (!realpath(link, resolved))
		return err_set("%s: cannot find %s in sysfs: %s", path, link,
			       strerror(errno));
	slash = strrchr(resolved, '/');
	snprintf(b->kernel, sizeof(b->kernel), "%s", slash + 1);
	snprintf(attribute, sizeof(attribute), "%s/partition", resolved);
	b->is_partition = access(attribute, F_OK) == 0;
	snprintf(b->disk, sizeof(b->disk), "%s", b->kernel);
	if (b->is_partition) {
		*slash = '\0';
		slash = strrchr(resolved, '/');
		snprintf(b->disk, sizeof(b->disk), "%s", slash + 1);
	}
	return 0;
}

/* The serial number of a whole disk, or its kernel name when it has none:
 * device/serial (SCSI, NVMe controller), serial (virtio), udev's
 * ID_SERIAL_SHORT, then SCSI VPD page 0x80. */
static void disk_id(const char *disk, dev_t rdev, char *id, size_t len)
{
	char path[PATH_MAX], value[256];
	char *udev = NULL;

	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/device/serial", disk);
	if (text_read_small_file(path, value, sizeof(value)) == 0) {
		char nsid[32];

		/* An NVMe namespace: the controller's serial names every
		 * namespace on it, so the ID is SERIAL:nsNSID. */
		snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/nsid", disk);
		if (text_read_small_file(path, nsid, sizeof(nsid)) == 0 && nsid[0]) {
			size_t n = strlen(value);

			snprintf(value + n, sizeof(value) - n, ":ns%s", nsid);
		}
		err_clear();
		goto found;
	}
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/serial", disk);
	if (text_read_small_file(path, value, sizeof(value)) == 0)
		goto found;
	snprintf(path, sizeof(path), "/run/udev/data/b%u:%u", major(rdev),
		 minor(rdev));
	if (text_read_file(path, TEXT_TABLE_MAX, &udev) == 0) {
		const char *key = "E:ID_SERIAL_SHORT=";
		char *at = strstr(udev, key);

		if (at && (at == udev || at[-1] == '\n')) {
			at += strlen(key);
			snprintf(value, sizeof(value), "%.*s",
				 (int)strcspn(at, "\n"), at);
			free(udev);
			if (value[0])
				goto found;
		} else {
			free(udev);
		}
	}
	err_clear();
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/device/vpd_pg80", disk);
	{
		unsigned char page[256];
		FILE *file = fopen(path, "re");
		size_t got = 0;

		if (file) {
			got = fread(page, 1, sizeof(page), file);
			fclose(file);
		}
		/* header: qualifier, page code 0x80, length (2 bytes) */
		if (got > 4 && page[1] == 0x80) {
			size_t n = ((size_t)page[2] << 8) | page[3];
			size_t start = 4;

			if (n > got - 4)
				n = got - 4;
			while (n > 0 && isspace(page[start])) {
				start++;
				n--;
			}
			while (n > 0 && (isspace(page[start + n - 1]) ||
					 page[start + n - 1] == '\0'))
				n--;
			if (n > 0) {
				snprintf(value, sizeof(value), "%.*s", (int)n,
					 (const char *)page + start);
				goto found;
			}
		}
	}
	copy_text(id, len, disk);
	return;
found:
	copy_text(id, len, value);
}

/* Comma-separated entries of sysfs holders/ ("" when none). */
static void holders_of(const char *kernel, char *list, size_t len)
{
	char path[PATH_MAX];
	DIR *dir;
	struct dirent *entry;
	size_t used = 0;

	list[0] = '\0';
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/holders", kernel);
	dir = opendir(path);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		int n;

		if (entry->d_name[0] == '.')
			continue;
		n = snprintf(list + used, len - used, "%s%s", used ? ", " : "",
			     entry->d_name);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	closedir(dir);
}

/* Reads sysfs dev ("8:1") of a kernel block name. */
static int dev_of(const char *kernel, dev_t *rdev)
{
	char path[PATH_MAX], value[32];
	unsigned maj, min;

	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/dev", kernel);
	if (text_read_small_file(path, value, sizeof(value)) != 0 ||
	    sscanf(value, "%u:%u", &maj, &min) != 2)
		return -1;
	*rdev = makedev(maj, min);
	return 0;
}

static bool is_active_swap(const char *swaps, dev_t rdev, const char *devnode)
{
	char path[PATH_MAX];

	for (unsigned i = 0; swaps && swaps_entry(swaps, i, path, sizeof(path));
	     i++) {
		struct stat st;

		if (strcmp(path, devnode) == 0)
			return true;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == rdev)
			return true;
	}
	return false;
}

/* Mount, swap and holder findings for one block device (the target or one
 * of its partitions). Returns how many findings it added. */
static unsigned check_in_use(struct safety_verdict *v, const char *path,
			     const char *kernel, dev_t rdev, bool is_target,
			     const char *mountinfo, const char *swaps)
{
	char devnode[NAME_MAX + 8], subject[PATH_MAX + NAME_MAX + 32];
	char mountpoint[PATH_MAX], holders[200];
	unsigned found = 0;

	snprintf(devnode, sizeof(devnode), "/dev/%s", kernel);
	if (is_target)
		snprintf(subject, sizeof(subject), "%s", path);
	else
		snprintf(subject, sizeof(subject), "%s's partition %s", path,
			 devnode);
	if (mountinfo && mountinfo_find(mountinfo, major(rdev), minor(rdev),
					devnode, mountpoint,
					sizeof(mountpoint))) {
		add_reason(v, "%s is mounted at %s", subject, mountpoint);
		v->mounted = true;
		found++;
	}
	if (is_active_swap(swaps, rdev, devnode)) {
		add_reason(v, "%s is active swap", subject);
		found++;
	}
	holders_of(kernel, holders, sizeof(holders));
	if (holders[0]) {
		add_reason(v, "%s has holders: %s", subject, holders);
		found++;
	}
	return found;
}

/* Partitions of a whole disk: sysfs subdirectories with a partition file. */
/* A partition's region on its disk, from sysfs (512-byte sectors). */
static int partition_region(const char *kernel, uint64_t *offset, uint64_t *size)
{
	char path[PATH_MAX], value[32];
	unsigned long long start, sectors;

	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/start", kernel);
	if (text_read_small_file(path, value, sizeof(value)) || sscanf(value, "%llu", &start) != 1)
		return -1;
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/size", kernel);
	if (text_read_small_file(path, value, sizeof(value)) || sscanf(value, "%llu", &sectors) != 1)
		return -1;
	*offset = start * 512;
	*size = sectors * 512;
	return 0;
}

/* Adds the signature findings of [offset, offset + size) of fd; an
 * unreadable region counts as data (consent still decides). */
static unsigned check_signatures(struct safety_verdict *v, int fd, uint64_t offset,
				 uint64_t size, const char *subject)
{
	struct signature_findings found;
	int n = signatures_probe(fd, offset, size, subject, &found);

	if (n < 0) {
		add_reason(v, "%s", err_msg());
		err_clear();
		return 1;
	}
	for (int i = 0; i < n; i++)
		add_reason(v, "%s", found.sentence[i]);
	return (unsigned)n;
}

/* Whether the kernel refuses an exclusive open of the device node: it is
 * mounted (in any mount namespace), swapped on or claimed by dm/md. */
static bool held_exclusively(const char *node)
{
	int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EBUSY;
}

/* Whether the kernel refuses an exclusive open of partition name (its
 * node /dev/NAME, when that is the partition's): mounted in another mount
 * namespace, which this one's mountinfo does not show; an exclusive open
 * of the whole disk succeeds while a partition of it is held. */
static bool partition_busy(const char *name, dev_t rdev)
{
	char node[PATH_MAX];
	struct stat st;

	snprintf(node, sizeof(node), "/dev/%s", name);
	return stat(node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev &&
	       held_exclusively(node);
}

/* Every partition the kernel lists for a whole disk: in use (mounted, swap,
 * holders), or carrying a signature of its own. The partition table itself
 * may be gone while the kernel still knows its partitions (and a filesystem
 * lives on in one), so each partition's region is probed on the disk. */
static unsigned check_partitions(struct safety_verdict *v, const char *path,
				 int fd, const char *disk, const char *mountinfo,
				 const char *swaps)
{
	char dirpath[PATH_MAX];
	DIR *dir;
	struct dirent *entry;
	unsigned found = 0;

	snprintf(dirpath, sizeof(dirpath), SYSFS_BLOCK "/%s", disk);
	dir = opendir(dirpath);
	if (!dir)
		return 0;
	while ((entry = readdir(dir))) {
		char attribute[PATH_MAX + NAME_MAX + 16], subject[PATH_MAX + NAME_MAX + 32];
		uint64_t offset, size;
		unsigned in_use;
		dev_t rdev;

		if (strncmp(entry->d_name, disk, strlen(disk)) != 0)
			continue;
		snprintf(attribute, sizeof(attribute), "%s/%s/partition",
			 dirpath, entry->d_name);
		if (access(attribute, F_OK) != 0 ||
		    dev_of(entry->d_name, &rdev) != 0)
			continue;
		in_use = check_in_use(v, path, entry->d_name, rdev, false, mountinfo, swaps);
		if (!in_use && partition_busy(entry->d_name, rdev)) {
			add_reason(v, "%s's partition /dev/%s is busy: the kernel holds it "
				      "exclusively (mounted in another mount namespace, or "
				      "claimed by another driver)", path, entry->d_name);
			v->mounted = true;
			in_use = 1;
		}
		found += in_use;
		if (fd < 0 || partition_region(entry->d_name, &offset, &size) || size == 0)
			continue;
		snprintf(subject, sizeof(subject), "%s's partition /dev/%s", path, entry->d_name);
		found += check_signatures(v, fd, offset, size, subject);
	}
	closedir(dir);
	return found;
}

/* Consent decides what findings allow: none needed without findings, never
 * for what consent cannot help (v->never), else the device's ID. */
static void decide(struct safety_verdict *v, unsigned findings, const char *destroy_id,
		   const char *path)
{
	if (v->never || findings == 0) {
		v->allowed = findings == 0;
		return;
	}
	if (destroy_id && strcmp(destroy_id, v->device_id) == 0) {
		v->allowed = true;
		return;
	}
	if (destroy_id && destroy_id[0])
		add_reason(v, "--destroy-data=%s does not match the ID of %s (%s)",
			   destroy_id, path, v->device_id);
}

/* Mounts, swap, holders and signatures of the device and every partition
 * the kernel knows on it, and the kernel's exclusive-open verdict. */
static int block_findings(const char *path, dev_t rdev, const struct block_name *name,
			  struct safety_verdict *v, unsigned *findings)
{
	char *mountinfo = NULL, *swaps = NULL;
	unsigned in_use, signatures;
	int fd;

	if (text_read_file("/proc/self/mountinfo", TEXT_TABLE_MAX, &mountinfo) != 0)
		return err_prefix("cannot check whether %s is mounted", path);
	/* no /proc/swaps means a kernel without swap: nothing is swapped on */
	if (text_read_file("/proc/swaps", TEXT_TABLE_MAX, &swaps) != 0)
		swaps = NULL;
	err_clear();

	fd = open(path, O_RDONLY | O_CLOEXEC);
	in_use = check_in_use(v, path, name->kernel, rdev, true, mountinfo, swaps);
	if (fd < 0) {
		add_reason(v, "cannot probe %s for signatures: %s", path, strerror(errno));
		signatures = 1;
	} else {
		signatures = check_signatures(v, fd, 0, 0, path);
	}
	if (!name->is_partition)
		in_use += check_partitions(v, path, fd, name->kernel, mountinfo, swaps);
	if (fd >= 0)
		close(fd);
	free(mountinfo);
	free(swaps);

	/* The kernel refuses an exclusive open of a device that is mounted
	 * (in any mount namespace), swapped on or claimed by dm/md: catches
	 * what this namespace's mountinfo cannot show. */
	if (in_use == 0 && held_exclusively(path)) {
		add_reason(v, "%s is busy: the kernel holds it exclusively "
			      "(mounted in another mount namespace, or claimed "
			      "by another driver)", path);
		v->mounted = true;
		in_use++;
	}
	if (v->mounted)
		v->never = true;
	*findings = in_use + signatures;
	return 0;
}

static int check_block(const char *path, dev_t rdev, const char *destroy_id,
		       struct safety_verdict *v)
{
	struct block_name name;
	unsigned findings;
	dev_t disk_rdev = rdev;

	if (block_name_of(path, rdev, &name) != 0 ||
	    block_findings(path, rdev, &name, v, &findings) != 0)
		return -1;
	if (name.is_partition && dev_of(name.disk, &disk_rdev) != 0)
		disk_rdev = rdev;
	disk_id(name.disk, disk_rdev, v->device_id, sizeof(v->device_id));
	decide(v, findings, destroy_id, path);
	return 0;
}

/* The mark's value as read (getxattr's or fgetxattr's answer): "1". */
static bool is_mark(ssize_t got, const char *value)
{
	return got == 1 && value[0] == '1';
}

bool safety_path_marked(const char *path)
{
	char value[8];

	return is_mark(getxattr(path, SAFETY_CREATED_XATTR, value, sizeof(value)), value);
}

static bool names_file(const char *destroy_id, const char *path,
		       const char *resolved)
{
	char consent_resolved[PATH_MAX];

	if (!destroy_id || !destroy_id[0])
		return false;
	if (strcmp(destroy_id, path) == 0 || strcmp(destroy_id, resolved) == 0)
		return true;
	/* "./x" for "x": the same file under another spelling */
	return realpath(destroy_id, consent_resolved) &&
	       strcmp(consent_resolved, resolved) == 0;
}

/* A regular file backing an attached loop device is that device's data:
 * its findings (a mounted filesystem above all) are the file's, the mark
 * of a file drivebench once created no longer counts, and consent names
 * the file or the loop device. */
static int check_loop_backing(const char *path, const struct stat *st,
			      const char *destroy_id, const char *resolved,
			      struct safety_verdict *v, bool *backs)
{
	char loop[NAME_MAX + 1], devnode[NAME_MAX + 8];
	struct stat dev_st;
	struct block_name name;
	unsigned findings;

	*backs = loop_device_backed_by(st, loop, sizeof(loop)) == 1;
	if (!*backs)
		return 0;
	snprintf(devnode, sizeof(devnode), "/dev/%s", loop);
	add_reason(v, "%s is the backing file of %s", path, devnode);
	if (stat(devnode, &dev_st) == 0 && S_ISBLK(dev_st.st_mode) &&
	    block_name_of(devnode, dev_st.st_rdev, &name) == 0 &&
	    block_findings(devnode, dev_st.st_rdev, &name, v, &findings) != 0)
		return -1;
	err_clear();
	if (!v->never && (names_file(destroy_id, path, resolved) ||
			  (destroy_id && strcmp(destroy_id, loop) == 0))) {
		v->allowed = true;
		return 0;
	}
	if (destroy_id && destroy_id[0] && !v->never)
		add_reason(v, "--destroy-data=%s names neither %s nor %s", destroy_id,
			   path, loop);
	return 0;
}

static int check_file(const char *path, const struct stat *st, const char *destroy_id,
		      struct safety_verdict *v)
{
	char resolved[PATH_MAX];
	const char *pseudo = pseudo_fs_of(path, -1);
	unsigned signatures = 0;
	bool backs;
	int fd;

	if (!realpath(path, resolved))
		return err_set("cannot resolve %s: %s", path, strerror(errno));
	if (pseudo) {
		add_reason(v, "%s is on %s: a kernel setting, not storage", path, pseudo);
		v->never = true;
		return 0;
	}
	if (check_loop_backing(path, st, destroy_id, resolved, v, &backs) || backs)
		return backs ? 0 : -1;
	/* a file that now holds a filesystem image is data, whoever made it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		signatures = st->st_size > 0 ? check_signatures(v, fd, 0, 0, path) : 0;
		close(fd);
	}
	if ((signatures == 0 && safety_path_marked(path)) ||
	    names_file(destroy_id, path, resolved)) {
		v->allowed = true;
		return 0;
	}
	if (signatures == 0)
		add_reason(v, "existing file %s was not created by drivebench", path);
	if (destroy_id && destroy_id[0])
		add_reason(v, "--destroy-data=%s does not name %s", destroy_id,
			   path);
	return 0;
}

/* A path that does not exist: drivebench will create it, so nothing is
 * destroyed, except where a new name is a kernel knob or a mistyped device. */
static int check_missing(const char *path, struct safety_verdict *v)
{
	const char *pseudo = pseudo_fs_of(path, -1);

	if (pseudo)
		add_reason(v, "%s would be created on %s: a kernel setting, not storage",
			   path, pseudo);
	else if (path_in_dev(path))   /* bad input, not a verdict */
		return err_set("%s: no such device (a missing name in /dev is a "
			       "mistyped device, never a file to create)", path);
	v->never = v->nr_reasons > 0;
	v->allowed = !v->never;
	return 0;
}

/* /dev/ngXnY is the namespace /dev/nvmeXnY is: the same data, the same
 * device ID (SERIAL:nsN); the block device's findings are its findings. */
static int check_nvme_char(const char *path, const struct stat *st,
			   const char *destroy_id, struct safety_verdict *v)
{
	char block[PATH_MAX];
	struct stat block_st;

	if (nvme_char_block_path(path, st, block, sizeof(block)) ||
	    stat(block, &block_st) != 0)
		return err_prefix("cannot examine %s", path);
	v->is_block = true;
	if (check_block(block, block_st.st_rdev, destroy_id, v))
		return -1;
	if (!v->allowed)
		add_reason(v, "%s is the character device of namespace %s: the same drive",
			   path, block);
	return 0;
}

int safety_check(const char *path, const char *destroy_id,
		 struct safety_verdict *v)
{
	struct stat st;

	memset(v, 0, sizeof(*v));
	if (!path || !path[0])
		return err_set("no target path to check");
	if (model_target_is(path)) {   /* a model keeps no data a user could lose */
		model_target_key(path, v->device_id, sizeof(v->device_id));
		v->allowed = true;
		return 0;
	}
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return err_set("cannot examine %s: %s", path,
				       strerror(errno));
		if (strlen(path) < sizeof(v->device_id))
			snprintf(v->device_id, sizeof(v->device_id), "%s", path);
		return check_missing(path, v);
	}
	if (S_ISBLK(st.st_mode)) {
		v->is_block = true;
		return check_block(path, st.st_rdev, destroy_id, v);
	}
	if (nvme_char_is(&st))
		return check_nvme_char(path, &st, destroy_id, v);
	if (!S_ISREG(st.st_mode))
		return err_set("%s is neither a regular file, a block device nor an NVMe "
			       "namespace's character device", path);
	if (strlen(path) < sizeof(v->device_id))
		snprintf(v->device_id, sizeof(v->device_id), "%s", path);
	return check_file(path, &st, destroy_id, v);
}

const char *safety_consent_hint(const struct safety_verdict *v)
{
	static _Thread_local char hint[256];

	if (v->allowed || v->never)
		return "";
	if (v->is_block)
		snprintf(hint, sizeof(hint),
			 "pass --destroy-data=%s to allow writing to this "
			 "device (destroys its data)", v->device_id);
	else if (v->device_id[0])
		snprintf(hint, sizeof(hint),
			 "pass --destroy-data=%s to allow writing over this file",
			 v->device_id);
	else
		snprintf(hint, sizeof(hint),
			 "pass --destroy-data=<the file's path> to allow writing "
			 "over this file");
	return hint;
}

bool safety_fd_marked(int fd)
{
	char value[8];

	return is_mark(fgetxattr(fd, SAFETY_CREATED_XATTR, value, sizeof(value)), value);
}

bool safety_names_file(const char *destroy_id, const char *path)
{
	char resolved[PATH_MAX];

	return names_file(destroy_id, path, realpath(path, resolved) ? resolved : path);
}

int safety_mark_created(int fd)
{
	if (fsetxattr(fd, SAFETY_CREATED_XATTR, "1", 1, 0) == 0)
		return 0;
	/* a filesystem without user xattrs: the file stays unmarked */
	if (errno == ENOTSUP || errno == EOPNOTSUPP)
		return 0;
	return err_set("cannot mark file as created by drivebench (%s): %s",
		       SAFETY_CREATED_XATTR, strerror(errno));
}
