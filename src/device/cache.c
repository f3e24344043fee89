/* cache.c - page-cache calls on a job's target (cache.h): fio's
 * file_invalidate_cache (posix_fadvise DONTNEED on a file, BLKFLSBUF on a
 * block device, retried while a multipath device answers EAGAIN) and its
 * fadvise_hint. */
#include "device/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/error.h"

int target_cache_drop(int fd, bool is_block, const char *path, uint64_t off, uint64_t len)
{
	int rc;

	if (!is_block) {
		rc = posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
		if (rc)
			return err_set("cache invalidation of '%s' failed: %s", path, strerror(rc));
		return 0;
	}
	/* a multipath device refuses ioctls while its maps change: fio
	 * retries for a quarter of a second */
	for (int tries = 0;; tries++) {
		if (ioctl(fd, BLKFLSBUF, 0) == 0)
			return 0;
		if (errno != EAGAIN || tries == 25)
			break;
		usleep(10000);
	}
	return err_set("cache invalidation of '%s' failed: %s%s", path, strerror(errno),
		       errno == EACCES || errno == EPERM ? " (only root may flush a block device)" : "");
}

int target_cache_advise(int fd, enum fadvise_hint hint, bool random, const char *path,
			uint64_t off, uint64_t len)
{
	int advice, rc;

	switch (hint) {
	case FADVISE_NONE:
		return 0;
	case FADVISE_TYPE:
		advice = random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
		break;
	case FADVISE_RANDOM:
		advice = POSIX_FADV_RANDOM;
		break;
	case FADVISE_SEQUENTIAL:
		advice = POSIX_FADV_SEQUENTIAL;
		break;
	default:
		advice = POSIX_FADV_NOREUSE;
		break;
	}
	rc = posix_fadvise(fd, (off_t)off, (off_t)len, advice);
	if (rc)
		return err_set("fadvise_hint on '%s' failed: %s", path, strerror(rc));
	return 0;
}

int target_drop_page_cache(void)
{
	FILE *f;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	if (!f)
		return err_set("cannot open /proc/sys/vm/drop_caches (needs root): %s", strerror(errno));
	if (fputs("3\n", f) == EOF) {
		fclose(f);
		return err_set("writing /proc/sys/vm/drop_caches failed");
	}
	if (fclose(f))
		return err_set("writing /proc/sys/vm/drop_caches failed: %s", strerror(errno));
	return 0;
}
