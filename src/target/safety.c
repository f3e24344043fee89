/* safety.c - decides whether drivebench may write to a target: looks for
 * mounts (/proc/self/mountinfo), active swap (/proc/swaps), holders (sysfs),
 * signatures (libblkid) and exclusive claims on block devices, and for the
 * created-by-drivebench mark on regular files; matches --destroy-data
 * consent against the device's serial / kernel name or the file's path. */
#include "target/safety.h"

#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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

/* ---- small text helpers ---- */

/* Copies src[0..srclen) to dst, turning the kernel's octal escapes (\040
 * for a space, \011, \012, \134) back into bytes; always terminates. */
static void unescape_octal(const char *src, size_t srclen, char *dst,
			   size_t len)
{
	size_t out = 0;

	if (len == 0)
		return;
	for (size_t i = 0; i < srclen && out + 1 < len; i++) {
		if (src[i] == '\\' && i + 3 < srclen &&
		    src[i + 1] >= '0' && src[i + 1] <= '3' &&
		    src[i + 2] >= '0' && src[i + 2] <= '7' &&
		    src[i + 3] >= '0' && src[i + 3] <= '7') {
			dst[out++] = (char)(((src[i + 1] - '0') << 6) |
					    ((src[i + 2] - '0') << 3) |
					    (src[i + 3] - '0'));
			i += 3;
		} else {
			dst[out++] = src[i];
		}
	}
	dst[out] = '\0';
}

/* Copies src into dst[len], cut short when it does not fit. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Splits line [start, end) into whitespace-separated fields; returns how
 * many were found (at most max). */
static unsigned split_fields(const char *start, const char *end,
			     const char **field, size_t *field_len,
			     unsigned max)
{
	unsigned n = 0;
	const char *p = start;

	while (p < end && n < max) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		field[n] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		field_len[n] = (size_t)(p - field[n]);
		n++;
	}
	return n;
}

static bool field_is(const char *field, size_t field_len, const char *word)
{
	return strlen(word) == field_len && memcmp(field, word, field_len) == 0;
}

int mountinfo_find(const char *text, unsigned major, unsigned minor,
		   const char *devnode, char *mountpoint, size_t len)
{
	char want[32];
	const char *line = text;

	snprintf(want, sizeof(want), "%u:%u", major, minor);
	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *field[64];
		size_t field_len[64];
		unsigned n;
		bool match;

		if (!end)
			end = line + strlen(line);
		/* id parent major:minor root mountpoint options [optional...]
		 * - fstype source superoptions */
		n = split_fields(line, end, field, field_len, 64);
		if (n >= 5) {
			match = field_is(field[2], field_len[2], want);
			for (unsigned i = 6; !match && devnode && i + 2 < n; i++) {
				char source[PATH_MAX];

				if (!field_is(field[i], field_len[i], "-"))
					continue;
				unescape_octal(field[i + 2], field_len[i + 2],
					       source, sizeof(source));
				match = strcmp(source, devnode) == 0;
				break;
			}
			if (match) {
				unescape_octal(field[4], field_len[4], mountpoint,
					       len);
				return 1;
			}
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

int swaps_entry(const char *text, unsigned index, char *path, size_t len)
{
	const char *line = strchr(text, '\n'); /* skip the header line */
	unsigned seen = 0;

	while (line && *line) {
		const char *field[1];
		size_t field_len[1];
		const char *end;

		line++;
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (split_fields(line, end, field, field_len, 1) == 1) {
			if (seen == index) {
				unescape_octal(field[0], field_len[0], path, len);
				return 1;
			}
			seen++;
		}
		line = *end ? end : NULL;
	}
	return 0;
}

/* Reads a whole (proc or sysfs) file into a new NUL-terminated buffer. */
static int read_text_file(const char *path, char **text)
{
	size_t size = 4096, used = 0;
	char *buf = malloc(size);
	int fd;

	if (!buf)
		return err_set("out of memory reading %s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return err_set("cannot open %s: %s", path, strerror(errno));
	}
	for (;;) {
		ssize_t got;

		if (used + 1 >= size) {
			char *bigger = realloc(buf, size * 2);

			if (!bigger) {
				free(buf);
				close(fd);
				return err_set("out of memory reading %s", path);
			}
			buf = bigger;
			size *= 2;
		}
		got = read(fd, buf + used, size - used - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int saved = errno;

			free(buf);
			close(fd);
			return err_set("cannot read %s: %s", path,
				       strerror(saved));
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	close(fd);
	buf[used] = '\0';
	*text = buf;
	return 0;
}

/* A short sysfs attribute, surrounding whitespace trimmed. Returns 0 with
 * a non-empty value, -1 when absent or empty (no err_msg: not an error). */
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
	if (text_read_small_file(path, value, sizeof(value)) == 0)
		goto found;
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/serial", disk);
	if (text_read_small_file(path, value, sizeof(value)) == 0)
		goto found;
	snprintf(path, sizeof(path), "/run/udev/data/b%u:%u", major(rdev),
		 minor(rdev));
	if (read_text_file(path, &udev) == 0) {
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
static unsigned check_partitions(struct safety_verdict *v, const char *path,
				 const char *disk, const char *mountinfo,
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
		char attribute[PATH_MAX + NAME_MAX + 16];
		dev_t rdev;

		if (strncmp(entry->d_name, disk, strlen(disk)) != 0)
			continue;
		snprintf(attribute, sizeof(attribute), "%s/%s/partition",
			 dirpath, entry->d_name);
		if (access(attribute, F_OK) != 0 ||
		    dev_of(entry->d_name, &rdev) != 0)
			continue;
		found += check_in_use(v, path, entry->d_name, rdev, false,
				      mountinfo, swaps);
	}
	closedir(dir);
	return found;
}

static const char *article(const char *word)
{
	return strchr("aeiouxAEIOUX", word[0]) && word[0] ? "an" : "a";
}

/* Filesystem, partition table, RAID/LVM or other signatures (libblkid).
 * Returns the number of findings, or -1 with err_msg when the device cannot
 * be opened for probing. */
static int check_signatures(struct safety_verdict *v, const char *path)
{
	blkid_probe probe;
	const char *type = NULL, *usage = NULL, *pttype = NULL;
	int rc, found = 0;

	errno = 0;
	probe = blkid_new_probe_from_filename(path);
	if (!probe)
		return err_set("cannot probe %s for signatures: %s", path,
			       strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(probe, 1);
	blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE |
						 BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(probe, 1);
	rc = blkid_do_safeprobe(probe);
	if (rc == 0) {
		blkid_probe_lookup_value(probe, "TYPE", &type, NULL);
		blkid_probe_lookup_value(probe, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(probe, "PTTYPE", &pttype, NULL);
		if (pttype) {
			add_reason(v, "%s has %s %s partition table", path,
				   article(pttype), pttype);
			found++;
		}
		if (type) {
			if (usage && strcmp(usage, "filesystem") == 0)
				add_reason(v, "%s carries %s %s filesystem", path,
					   article(type), type);
			else if (usage && strcmp(usage, "raid") == 0)
				add_reason(v, "%s carries %s %s RAID/LVM signature",
					   path, article(type), type);
			else if (usage && strcmp(usage, "crypto") == 0)
				add_reason(v, "%s carries %s %s encryption signature",
					   path, article(type), type);
			else
				add_reason(v, "%s carries %s %s signature", path,
					   article(type), type);
			found++;
		}
		if (!pttype && !type) {
			add_reason(v, "%s carries a signature of unknown type",
				   path);
			found++;
		}
	} else if (rc == -2) {
		add_reason(v, "%s carries more than one conflicting signature "
			      "(filesystem, partition table or RAID)", path);
		found++;
	} else if (rc < 0) {
		add_reason(v, "%s could not be probed for signatures", path);
		found++;
	}
	blkid_free_probe(probe);
	return found;
}

static int check_block(const char *path, dev_t rdev, const char *destroy_id,
		       struct safety_verdict *v)
{
	struct block_name name;
	char *mountinfo = NULL, *swaps = NULL;
	unsigned in_use, findings;
	int signatures, fd;
	dev_t disk_rdev = rdev;

	if (block_name_of(path, rdev, &name) != 0)
		return -1;
	if (read_text_file("/proc/self/mountinfo", &mountinfo) != 0)
		return err_prefix("cannot check whether %s is mounted", path);
	/* no /proc/swaps means a kernel without swap: nothing is swapped on */
	if (read_text_file("/proc/swaps", &swaps) != 0)
		swaps = NULL;
	err_clear();

	in_use = check_in_use(v, path, name.kernel, rdev, true, mountinfo,
			      swaps);
	if (!name.is_partition)
		in_use += check_partitions(v, path, name.kernel, mountinfo,
					   swaps);
	free(mountinfo);
	free(swaps);

	signatures = check_signatures(v, path);
	if (signatures < 0) {
		/* unreadable signatures count as data: consent still decides */
		add_reason(v, "%s", err_msg());
		err_clear();
		signatures = 1;
	}

	/* The kernel refuses an exclusive open of a device that is mounted
	 * (in any mount namespace), swapped on or claimed by dm/md: catches
	 * what this namespace's mountinfo cannot show. */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
	} else if (errno == EBUSY && in_use == 0) {
		add_reason(v, "%s is busy: the kernel holds it exclusively "
			      "(mounted in another mount namespace, or claimed "
			      "by another driver)", path);
		v->mounted = true;
		in_use++;
	}

	if (name.is_partition && dev_of(name.disk, &disk_rdev) != 0)
		disk_rdev = rdev;
	disk_id(name.disk, disk_rdev, v->device_id, sizeof(v->device_id));

	findings = in_use + (unsigned)signatures;
	if (v->mounted || findings == 0) {
		v->allowed = findings == 0;
		return 0;
	}
	if (destroy_id && strcmp(destroy_id, v->device_id) == 0) {
		v->allowed = true;
		return 0;
	}
	if (destroy_id && destroy_id[0])
		add_reason(v, "--destroy-data=%s does not match the ID of %s (%s)",
			   destroy_id, path, v->device_id);
	return 0;
}

static bool has_created_mark(const char *path)
{
	char value[8];
	ssize_t got = getxattr(path, SAFETY_CREATED_XATTR, value, sizeof(value));

	return got == 1 && value[0] == '1';
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

static int check_file(const char *path, const char *destroy_id,
		      struct safety_verdict *v)
{
	char resolved[PATH_MAX];

	if (!realpath(path, resolved))
		return err_set("cannot resolve %s: %s", path, strerror(errno));
	if (has_created_mark(path) || names_file(destroy_id, path, resolved)) {
		v->allowed = true;
		return 0;
	}
	add_reason(v, "existing file %s was not created by drivebench", path);
	if (destroy_id && destroy_id[0])
		add_reason(v, "--destroy-data=%s does not name %s", destroy_id,
			   path);
	return 0;
}

int safety_check(const char *path, const char *destroy_id,
		 struct safety_verdict *v)
{
	struct stat st;

	memset(v, 0, sizeof(*v));
	if (!path || !path[0])
		return err_set("no target path to check");
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return err_set("cannot examine %s: %s", path,
				       strerror(errno));
		/* drivebench will create it: nothing to destroy */
		if (strlen(path) < sizeof(v->device_id))
			snprintf(v->device_id, sizeof(v->device_id), "%s", path);
		v->allowed = true;
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		v->is_block = true;
		return check_block(path, st.st_rdev, destroy_id, v);
	}
	if (!S_ISREG(st.st_mode))
		return err_set("%s is neither a regular file nor a block device",
			       path);
	if (strlen(path) < sizeof(v->device_id))
		snprintf(v->device_id, sizeof(v->device_id), "%s", path);
	return check_file(path, destroy_id, v);
}

const char *safety_consent_hint(const struct safety_verdict *v)
{
	static _Thread_local char hint[256];

	if (v->allowed || v->mounted)
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
