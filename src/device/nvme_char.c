/* nvme_char.c - NVMe generic character devices (nvme_char.h). */
#include "device/nvme_char.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/nvme.h"
#include "util/text.h"
#include "util/error.h"

/* The kernel name of a character device (ng0n1), from sysfs. */
static int char_name(const struct stat *st, char *out, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u", major(st->st_rdev),
		 minor(st->st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -1;
	memcpy(out, base, strlen(base) + 1);
	return 0;
}

bool nvme_char_is(const struct stat *st)
{
	char name[NAME_MAX + 1], class_path[NAME_MAX + 40];

	if (!S_ISCHR(st->st_mode) || char_name(st, name, sizeof(name)))
		return false;
	snprintf(class_path, sizeof(class_path), "/sys/class/nvme-generic/%s", name);
	return strncmp(name, "ng", 2) == 0 && access(class_path, F_OK) == 0;
}

int nvme_char_probe(const char *path, uint32_t *nsid, uint32_t *lba_size,
		    uint64_t *bytes)
{
	static _Thread_local uint8_t buf[NVME_IDENTIFY_SIZE] __attribute__((aligned(4096)));
	struct nvme_ns_info ns;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set("target '%s': %s", path, strerror(errno));
	if (nvme_namespace_id(fd, nsid) || nvme_identify(fd, *nsid, 0, buf) ||
	    nvme_parse_ns(buf, &ns)) {
		close(fd);
		return err_prefix("target '%s' (an NVMe namespace's character device)", path);
	}
	close(fd);
	if (ns.metadata_size)
		return err_set("target '%s': the namespace's LBA format carries %u bytes of "
			       "metadata per block, which io_uring_cmd does not send",
			       path, (unsigned)ns.metadata_size);
	*lba_size = ns.lba_data_size;
	*bytes = ns.size_blocks * ns.lba_data_size;
	return 0;
}

int nvme_char_block_path(const char *path, const struct stat *st, char *out,
			 size_t len)
{
	char name[NAME_MAX + 1];
	struct stat block;
	uint32_t char_ns = 0, block_ns = 0;
	int fd;

	if (!nvme_char_is(st) || char_name(st, name, sizeof(name)))
		return err_set("%s is not an NVMe namespace's character device", path);
	if ((size_t)snprintf(out, len, "/dev/nvme%s", name + 2) >= len)
		return err_set("%s: name too long", path);
	errno = 0;
	if (stat(out, &block) != 0 || !S_ISBLK(block.st_mode))
		return err_set("%s: its namespace has no block device %s (%s), so the "
			       "write gate cannot examine it", path, out,
			       errno ? strerror(errno) : "not a block device");
	/* the same namespace id through both: the names did not mislead */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (nvme_namespace_id(fd, &char_ns))
			char_ns = 0;
		close(fd);
	}
	fd = open(out, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (nvme_namespace_id(fd, &block_ns))
			block_ns = 0;
		close(fd);
	}
	err_clear();
	if (!char_ns || char_ns != block_ns)
		return err_set("%s: %s answers namespace id %u, the character device %u: "
			       "not the same namespace", path, out, block_ns, char_ns);
	return 0;
}

uint32_t nvme_char_max_transfer(const char *block)
{
	char path[PATH_MAX], value[32];
	const char *name = strrchr(block, '/');
	unsigned long kb;

	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/max_hw_sectors_kb",
		 name ? name + 1 : block);
	if (text_read_small_file(path, value, sizeof(value)) ||
	    sscanf(value, "%lu", &kb) != 1 || kb == 0 || kb > UINT32_MAX / 1024)
		return 0;
	return (uint32_t)(kb * 1024);
}

unsigned nvme_char_max_segments(const char *block)
{
	char path[PATH_MAX], value[32];
	const char *name = strrchr(block, '/');
	unsigned segments;

	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/max_segments",
		 name ? name + 1 : block);
	if (text_read_small_file(path, value, sizeof(value)) ||
	    sscanf(value, "%u", &segments) != 1)
		return 0;
	return segments;
}
