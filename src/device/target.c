/* target.c - what a job does its I/O against: probing a regular file or block
 * device (kind, size, logical/physical block size), the default scratch path,
 * laying out a file with real written data, resolving a job's byte range on
 * the target with its alignment checks, and opening it with the job's flags. */
#include "device/target.h"
#include "device/model_target.h"
#include "device/nvme_char.h"
#include "device/pseudo_fs.h"
#include "device/safety.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"

#define LAYOUT_CHUNK (1u << 20)
#define FILE_LOGICAL_BLOCK 512u
#define NOT_A_TARGET "not a regular file or block device"

/* Copies the directory part of path into dir ("." when there is none). */
static void parent_dir(const char *path, char *dir, size_t dir_size)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, dir_size, ".");
		return;
	}
	if (slash == path) {
		snprintf(dir, dir_size, "/");
		return;
	}
	snprintf(dir, dir_size, "%.*s", (int)(slash - path), path);
}

/* The O_DIRECT offset alignment the filesystem reports for a file, or 0 when
 * the kernel does not say (statx STATX_DIOALIGN, Linux 6.1+). */
static unsigned fs_direct_alignment(const char *path)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN))
		return stx.stx_dio_offset_align;
#else
	(void)path;
#endif
	return 0;
}

static int probe_block_device(const char *path, struct target *t)
{
	uint64_t bytes = 0;
	int logical = 0;
	unsigned int physical = 0;
	/* Read-only and closed right away: opening a block device for writing
	 * makes udev rescan it when it is closed. */
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set("target '%s': %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0 ||
	    ioctl(fd, BLKSSZGET, &logical) < 0 ||
	    ioctl(fd, BLKPBSZGET, &physical) < 0) {
		int saved = errno;

		close(fd);
		return err_set("target '%s': cannot read the device's size and "
			       "block sizes: %s", path, strerror(saved));
	}
	close(fd);
	if (logical <= 0)
		return err_set("target '%s': the device reports a logical block "
			       "size of %d", path, logical);
	t->is_block = true;
	t->exists = true;
	t->size = bytes;
	t->logical_block = (unsigned)logical;
	t->physical_block = physical ? physical : (unsigned)logical;
	return 0;
}

static int probe_nvme_char(const char *path, struct target *t)
{
	uint32_t lba = 0;
	uint64_t bytes = 0;

	struct stat st;
	char block[JOB_PATH_MAX];

	if (nvme_char_probe(path, &t->nvme_nsid, &lba, &bytes))
		return -1;
	/* the kernel refuses (EINVAL) a passthrough command above this */
	if (stat(path, &st) == 0 && nvme_char_block_path(path, &st, block, sizeof(block)) == 0)
	{
		t->max_io_bytes = nvme_char_max_transfer(block);
		t->max_segments = nvme_char_max_segments(block);
	}
	err_clear();
	t->is_block = true;
	t->is_nvme_char = true;
	t->exists = true;
	t->size = bytes;
	t->logical_block = lba;
	t->physical_block = lba;
	return 0;
}

static void probe_regular_file(const char *path, const struct stat *st,
			       struct target *t)
{
	unsigned direct_align = fs_direct_alignment(path);

	t->is_block = false;
	t->exists = true;
	t->size = (uint64_t)st->st_size;
	t->logical_block = direct_align > FILE_LOGICAL_BLOCK ?
		direct_align : FILE_LOGICAL_BLOCK;
	t->physical_block = st->st_blksize > 0 ?
		(unsigned)st->st_blksize : t->logical_block;
}

/* A file that does not exist yet: fine when its directory exists and the
 * path is not under /dev (a typo there must not create a regular file). */
static int probe_missing(const char *path, struct target *t)
{
	char dir[JOB_PATH_MAX];
	struct stat dir_st;

	if (strncmp(path, "/dev/", 5) == 0)
		return err_set("target '%s': %s", path, strerror(ENOENT));
	parent_dir(path, dir, sizeof(dir));
	if (stat(dir, &dir_st) < 0)
		return err_set("target '%s': %s", path, strerror(errno));
	if (!S_ISDIR(dir_st.st_mode))
		return err_set("target '%s': %s", path, strerror(ENOTDIR));
	t->is_block = false;
	t->exists = false;
	t->size = 0;
	t->logical_block = FILE_LOGICAL_BLOCK;
	t->physical_block = dir_st.st_blksize > 0 ?
		(unsigned)dir_st.st_blksize : FILE_LOGICAL_BLOCK;
	return 0;
}

void target_identity_of(const char *path, struct target_identity *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) != 0)
		return;
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		id->device = true;
		id->rdev = st.st_rdev;
	} else if (S_ISREG(st.st_mode)) {
		id->file = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	}
}

/* Whether fd, just opened at path, is what id recorded when it was
 * checked: the same device, or the same regular file, or a regular file
 * drivebench made (its created mark: a file laid out since). A path
 * changed in between (a link swapped to a disk while earlier groups ran)
 * is refused: 0, or -1 with err_msg (refused) naming path and what it is
 * now. */
static int recheck_opened(const char *path, const struct target_identity *id, int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return err_set("target '%s': cannot examine it: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		if (id->device && st.st_rdev == id->rdev)
			return 0;
	} else if (S_ISREG(st.st_mode)) {
		if ((id->file && st.st_dev == id->dev && st.st_ino == id->ino) ||
		    safety_fd_marked(fd))
			return 0;
	}
	return err_refuse("target '%s': refusing to use it: it is %s now, not the %s checked "
			  "before the run (the path changed since)", path,
			  text_file_kind(st.st_mode, S_ISREG(st.st_mode) ?
					 "another file" : "not a plain file"),
			  id->device ? "device" : id->file ? "file" : "new file");
}

int target_probe(const char *path, struct target *t)
{
	struct stat st;
	size_t length;
	const char *pseudo;

	memset(t, 0, sizeof(*t));
	if (!path || !*path)
		return err_set("target: empty path");
	length = strlen(path);
	if (length >= sizeof(t->path))
		return err_set("target '%.64s...': path longer than %zu bytes",
			       path, sizeof(t->path) - 1);
	if (model_target_is(path))
		return model_target_probe(path, t);
	memcpy(t->path, path, length + 1);
	target_identity_of(path, &t->id);

	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return probe_missing(path, t);
		return err_set("target '%s': %s", path, strerror(errno));
	}
	if (S_ISBLK(st.st_mode))
		return probe_block_device(path, t);
	if (nvme_char_is(&st))
		return probe_nvme_char(path, t);
	if (S_ISREG(st.st_mode) && (pseudo = pseudo_fs_of(path, -1)))
		return err_refuse("target '%s' is on %s: a kernel setting, not storage",
				  path, pseudo);
	if (S_ISREG(st.st_mode)) {
		probe_regular_file(path, &st, t);
		return 0;
	}
	return err_set("target '%s' is %s; drivebench needs a regular file, "
		       "a block device or an NVMe namespace's character device "
		       "(/dev/ngXnY, with ioengine=io_uring_cmd)", path,
		       text_file_kind(st.st_mode, NOT_A_TARGET));
}

int target_engine_fits(const char *path, const char *engine, bool nvme_engine)
{
	struct stat st;
	bool found = !model_target_is(path) && stat(path, &st) == 0;
	bool is_char = found && nvme_char_is(&st);
	const char *kind;

	if (nvme_engine && !is_char) {
		kind = model_target_is(path) ? "a modelled drive" : !found ? "missing" :
			S_ISREG(st.st_mode) ? "a regular file" :
			text_file_kind(st.st_mode, "not an NVMe device");
		return err_set("ioengine=%s drives an NVMe namespace's character device "
			       "(/dev/ngXnY); '%s' is %s%s", engine, path, kind,
			       found && S_ISBLK(st.st_mode) && !strncmp(path, "/dev/nvme", 9) ?
			       " (its namespace's character device is /dev/ng...)" : "");
	}
	if (!nvme_engine && is_char)
		return err_set("'%s' is an NVMe namespace's character device: only "
			       "ioengine=io_uring_cmd drives it (ioengine=%s reads and writes "
			       "a file or block device)", path, engine);
	return 0;
}

const char *target_scratch_path(void)
{
	const char *env = getenv(SCRATCH_ENV);

	return env && *env ? env : SCRATCH_DEFAULT_PATH;
}

/* xorshift64*: fast, and its output has no zero runs for reads to skip. */
static void fill_random(unsigned char *buf, size_t len, uint64_t *state)
{
	uint64_t x = *state;

	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t word;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		word = x * 0x2545F4914F6CDD1Dull;
		memcpy(buf + i, &word, 8);
	}
	*state = x;
}

static int write_all(int fd, const unsigned char *buf, size_t len, off_t at)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, at);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		at += n;
	}
	return 0;
}

static int layout_failed(int fd, const char *path, uint64_t from,
			 uint64_t size, uint64_t reached, int saved)
{
	if (saved == ENOSPC || saved == EDQUOT) {
		/* Give back what we took rather than leave the disk full. */
		if (ftruncate(fd, (off_t)from) < 0) {
			/* nothing more to do: the error below still stands */
		}
		close(fd);
		return err_set("cannot lay out '%s': %s: the filesystem ran out "
			       "of space after %llu of the %llu bytes needed "
			       "(the file is back to %llu bytes)",
			       path, strerror(saved),
			       (unsigned long long)(reached - from),
			       (unsigned long long)(size - from),
			       (unsigned long long)from);
	}
	close(fd);
	return err_set("cannot lay out '%s': %s", path, strerror(saved));
}

int target_open_for_layout(const char *path)
{
	/* a file drivebench creates is marked as its own (safety.h) */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd >= 0 && safety_mark_created(fd) < 0) {
		close(fd);
		return err_prefix("cannot lay out '%s'", path);
	}
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set("cannot lay out '%s': %s", path, strerror(errno));
	return fd;
}

/* The bytes free to an unprivileged writer on path's filesystem (its
 * directory's, for a path that does not exist yet). */
static int fs_free_bytes(const char *path, uint64_t *out)
{
	struct statvfs fs;
	char dir[JOB_PATH_MAX];
	const char *slash;

	if (statvfs(path, &fs) < 0) {
		slash = strrchr(path, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path),
				 path);
		if (statvfs(dir, &fs) < 0)
			return err_set("cannot find the free space of '%s': %s", dir,
				       strerror(errno));
	}
	*out = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
	return 0;
}

int target_layout_room(int fd, const char *path, uint64_t from, uint64_t size)
{
	struct statvfs fs;
	uint64_t need = size > from ? size - from : 0, avail;

	if (!need || fstatvfs(fd, &fs) < 0)
		return 0;   /* no answer: the writes will say */
	avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
	if (need <= avail)
		return 0;
	return err_set("cannot lay out '%s' to %llu bytes: it needs %llu more and the "
		       "filesystem has %llu free (lower size=, offset= or "
		       "offset_increment=, or use fallocate=none / truncate)", path,
		       (unsigned long long)size, (unsigned long long)need,
		       (unsigned long long)avail);
}

int target_layout_file(const char *path, uint64_t size, const volatile sig_atomic_t *stop)
{
	struct stat st;
	unsigned char *buf;
	uint64_t from, at;
	uint64_t seed;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return err_set("cannot lay out '%s': it is %s, not a regular "
			       "file", path, S_ISBLK(st.st_mode) ?
			       "a block device" : text_file_kind(st.st_mode, NOT_A_TARGET));
	fd = target_open_for_layout(path);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int saved = errno;

		close(fd);
		return err_set("cannot lay out '%s': %s", path,
			       strerror(saved));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return err_set("cannot lay out '%s': not a regular file", path);
	}
	from = (uint64_t)st.st_size;
	if (from >= size) {
		close(fd);
		return 0;
	}
	if (target_layout_room(fd, path, from, size)) {
		close(fd);
		return -1;
	}
	buf = malloc(LAYOUT_CHUNK);
	if (!buf) {
		close(fd);
		return err_set("cannot lay out '%s': out of memory", path);
	}
	seed = 0x9E3779B97F4A7C15ull ^ from ^ size;
	for (at = from; at < size;) {
		uint64_t left = size - at;
		size_t chunk = left < LAYOUT_CHUNK ? (size_t)left : LAYOUT_CHUNK;

		if (stop && *stop) {
			free(buf);
			close(fd);
			return err_fail(EXIT_RUN_FAILED, "interrupted while laying out '%s' (%llu of %llu "
				       "bytes written)", path, (unsigned long long)at,
				       (unsigned long long)size);
		}
		fill_random(buf, LAYOUT_CHUNK, &seed);
		if (write_all(fd, buf, chunk, (off_t)at) < 0) {
			int saved = errno;

			free(buf);
			return layout_failed(fd, path, from, size, at, saved);
		}
		at += chunk;
	}
	free(buf);
	if (fsync(fd) < 0) {
		int saved = errno;

		close(fd);
		return err_set("cannot lay out '%s': fsync: %s", path,
			       strerror(saved));
	}
	if (close(fd) < 0)
		return err_set("cannot lay out '%s': close: %s", path,
			       strerror(errno));
	return 1;
}

/* O_DIRECT needs every I/O's offset and length on a logical block, an
 * NVMe command whole blocks of its namespace (nvme: the target is an NVMe
 * character device, whose logical block is its LBA size). */
static _Thread_local bool alignment_for_nvme;

static int check_direct_multiple(const struct job_spec *spec, const char *what,
				 uint64_t value, unsigned logical)
{
	if (value % logical == 0)
		return 0;
	if (alignment_for_nvme)
		return err_set("job '%s': %s=%llu is not a multiple of the namespace's "
			       "LBA size %u (ioengine=io_uring_cmd sends whole blocks)",
			       spec->name, what, (unsigned long long)value, logical);
	return err_set("job '%s': %s=%llu is not a multiple of the logical "
		       "block size %u required by direct=1", spec->name, what,
		       (unsigned long long)value, logical);
}

static int check_direct_alignment(const struct job_spec *spec, uint64_t start,
				  unsigned logical)
{
	for (int dir = 0; dir < DIR_COUNT; dir++) {
		bool used = dir == DIR_READ ? job_spec_reads(spec) :
			job_spec_writes(spec);

		if (!used)
			continue;
		if (spec->bssplit_nr[dir] == 0) {
			if (check_direct_multiple(spec, "bs", spec->bs[dir],
						  logical) < 0)
				return -1;
		}
		for (unsigned i = 0; i < spec->bssplit_nr[dir]; i++) {
			if (check_direct_multiple(spec, "bssplit bs",
						  spec->bssplit[dir][i].bs,
						  logical) < 0)
				return -1;
		}
		if (check_direct_multiple(spec, "blockalign",
					  spec->blockalign[dir], logical) < 0)
			return -1;
	}
	if (alignment_for_nvme && job_spec_trims(spec) &&
	    check_direct_multiple(spec, "bs (of the trims)", spec->bs[DIR_TRIM], logical) < 0)
		return -1;
	return check_direct_multiple(spec, "offset", start, logical);
}

static uint64_t round_down(uint64_t value, uint64_t align)
{
	return align > 1 ? value - value % align : value;
}

/* pct of the target's size, rounded down to align. */
static uint64_t percent_of(const struct target *t, double pct, uint64_t align)
{
	double bytes = (double)t->size * pct / 100.0;

	if (bytes <= 0)
		return 0;
	if (bytes >= (double)t->size)
		return round_down(t->size, align);
	return round_down((uint64_t)bytes, align);
}

int target_job_range(const struct target *t, const struct job_spec *spec,
		     unsigned clone, uint64_t *start, uint64_t *len)
{
	return target_file_range(t, spec, clone, spec->size, spec->size_pct, 0, start, len);
}

/* The bytes pct% of the target is, unrounded (fio's
 * real_file_size * percent / 100). */
static uint64_t percent_raw(const struct target *t, double pct)
{
	double bytes = (double)t->size * pct / 100.0;

	return bytes <= 0 ? 0 : bytes >= (double)t->size ? t->size : (uint64_t)bytes;
}

/* Where clone's range starts: offset= (or offset=N%), plus clone times
 * offset_increment= (or offset_increment=N%). As fio's get_start_offset:
 * when either is a percentage the sum is rounded up to the next
 * multiple of the smallest block size (offset=99% of 256 MiB with 64k
 * blocks starts at 265814016, not 64k lower). 0, or -1 with err_msg. */
static int range_first(const struct target *t, const struct job_spec *spec,
		       unsigned clone, uint64_t min_bs, uint64_t *first)
{
	uint64_t base, shift, increment;
	bool align = false;

	if (spec->offset_pct > 0) {
		if (!t->exists)
			return err_set("job '%s': offset=%g%% needs an existing "
				       "target, and '%s' does not exist",
				       spec->name, spec->offset_pct, t->path);
		base = percent_raw(t, spec->offset_pct);
		align = true;
	} else {
		base = spec->offset;
	}
	increment = spec->offset_increment;
	if (spec->offset_increment_pct > 0) {
		if (!t->exists)
			return err_set("job '%s': offset_increment=%g%% needs an "
				       "existing target, and '%s' does not exist",
				       spec->name, spec->offset_increment_pct, t->path);
		increment = percent_raw(t, spec->offset_increment_pct);
		align = true;
	}
	if (clone && increment > UINT64_MAX / clone)
		return err_set("job '%s': offset_increment=%llu overflows for "
			       "clone %u", spec->name,
			       (unsigned long long)increment, clone);
	shift = (uint64_t)clone * increment;
	if (base > UINT64_MAX - shift || base + shift > UINT64_MAX - min_bs)
		return err_set("job '%s': offset %llu + %llu overflows",
			       spec->name, (unsigned long long)base,
			       (unsigned long long)shift);
	*first = base + shift;
	if (align && min_bs && *first % min_bs)
		*first += min_bs - *first % min_bs;
	return 0;
}

/* How long the range from first is: up to filesize=, size=, size=N%,
 * fill_device's free space, or the rest of the existing target.
 * 0, or -1 with err_msg. */
static int range_bytes(const struct target *t, const struct job_spec *spec,
		       uint64_t size, double size_pct, uint64_t file_end,
		       uint64_t first, uint64_t min_bs, uint64_t *bytes)
{
	if (file_end > 0) {
		/* filesize=: the file ends there, the range runs up to it */
		if (first >= file_end)
			return err_set("job '%s': offset %llu is at or beyond filesize "
				       "%llu of '%s'", spec->name, (unsigned long long)first,
				       (unsigned long long)file_end, t->path);
		*bytes = file_end - first;
	} else if (size > 0) {
		*bytes = size;
	} else if (size_pct > 0) {
		if (!t->exists)
			return err_set("job '%s': size 0: size=%g%% of '%s', "
				       "which does not exist", spec->name,
				       size_pct, t->path);
		*bytes = percent_of(t, size_pct, min_bs);
	} else if (spec->fill_device && !t->is_block) {
		/* fill_device: up to what the filesystem has free (fio's
		 * get_fs_free_counts), whole blocks */
		uint64_t free_bytes;

		if (fs_free_bytes(t->path, &free_bytes))
			return err_prefix("job '%s': fill_device", spec->name);
		*bytes = (t->exists && t->size > first ? t->size - first : 0) + free_bytes;
		*bytes -= *bytes % min_bs;
	} else if (!t->exists) {
		return err_set("job '%s': size 0: '%s' does not exist, so "
			       "size= must be given", spec->name, t->path);
	} else if (first >= t->size) {
		return err_set("job '%s': size 0: offset %llu is at or beyond "
			       "the end of '%s' (%llu bytes)", spec->name,
			       (unsigned long long)first, t->path,
			       (unsigned long long)t->size);
	} else {
		*bytes = t->size - first;
	}
	return 0;
}

/* The largest read or write of a job (a trim moves no data: a Dataset
 * Management range is not bound by the controller's transfer size). */
static uint64_t rw_max_bs(const struct job_spec *spec)
{
	uint64_t most = 0;

	for (int dir = DIR_READ; dir <= DIR_WRITE; dir++) {
		if (!job_spec_uses_dir(spec, dir))
			continue;
		if (spec->bs[dir] > most)
			most = spec->bs[dir];
		if (spec->pacing.bs_max[dir] > most)
			most = spec->pacing.bs_max[dir];
		for (unsigned i = 0; i < spec->bssplit_nr[dir]; i++)
			if (spec->bssplit[dir][i].bs > most)
				most = spec->bssplit[dir][i].bs;
	}
	return most;
}

int target_file_range(const struct target *t, const struct job_spec *spec,
		      unsigned clone, uint64_t size, double size_pct, uint64_t file_end,
		      uint64_t *start, uint64_t *len)
{
	uint64_t min_bs = job_spec_min_bs(spec);
	uint64_t max_bs = job_spec_max_bs(spec);
	unsigned logical = t->logical_block ? t->logical_block :
		FILE_LOGICAL_BLOCK;
	uint64_t first = 0, bytes = 0;   /* = 0: gcc cannot see err_set return -1 */

	*start = 0;
	*len = 0;
	if (range_first(t, spec, clone, min_bs, &first) ||
	    range_bytes(t, spec, size, size_pct, file_end, first, min_bs, &bytes))
		return -1;
	if (bytes == 0)
		return err_set("job '%s': size 0", spec->name);
	if (first > UINT64_MAX - bytes)
		return err_set("job '%s': offset %llu + size %llu overflows",
			       spec->name, (unsigned long long)first,
			       (unsigned long long)bytes);
	/* Regular files are laid out (extended) before the run; a device
	 * cannot grow. */
	if (t->is_block && first + bytes > t->size)
		return err_set("job '%s': range [%llu, %llu) is beyond the end "
			       "of '%s' (%llu bytes)", spec->name,
			       (unsigned long long)first,
			       (unsigned long long)(first + bytes), t->path,
			       (unsigned long long)t->size);
	/* Every I/O must fit in the range, the largest one too. */
	if (bytes < max_bs)
		return err_set("job '%s': size %llu is smaller than the block "
			       "size %llu", spec->name,
			       (unsigned long long)bytes,
			       (unsigned long long)max_bs);
	if (t->max_io_bytes && rw_max_bs(spec) > t->max_io_bytes)
		return err_set("job '%s': bs=%llu is more than the %u bytes one NVMe command of "
			       "'%s' carries (the controller's MDTS, max_hw_sectors_kb)",
			       spec->name, (unsigned long long)rw_max_bs(spec), t->max_io_bytes,
			       t->path);
	alignment_for_nvme = t->is_nvme_char;
	if ((spec->direct || t->is_nvme_char) &&
	    check_direct_alignment(spec, first, logical) < 0)
		return -1;
	*start = first;
	*len = bytes;
	return 0;
}

int target_open_judged(const char *path, int flags, const struct target_identity *id,
		       bool *refused)
{
	struct stat now;
	/* a file missing now is made by this open (O_EXCL: never one put
	 * there since, nor through a link); created here, it is drivebench's
	 * own. Missing now, not at the probe: an earlier group's unlink=1
	 * may have removed the file this job laid out. */
	bool created = (flags & O_CREAT) && lstat(path, &now) != 0 && errno == ENOENT;
	int fd = open(path, created ? flags | O_EXCL : flags, 0644);

	*refused = false;
	if (fd < 0 && created && errno == EEXIST) {
		created = false;   /* it appeared: judged below like any other */
		fd = open(path, flags, 0644);
	}
	if (fd < 0)
		return -1;   /* errno is open()'s */
	/* else the path must still name what the gate judged before the run */
	if (created ? safety_mark_created(fd) < 0 : recheck_opened(path, id, fd) != 0) {
		close(fd);
		*refused = true;
		return -1;
	}
	return fd;
}

int target_open(const struct target *t, const struct job_spec *spec)
{
	int flags = O_CLOEXEC;
	bool refused;
	int fd;

	/* a file is laid out before it is opened: only a job that writes may
	 * create one here (the null-sized file of a write-only job) */
	flags |= job_spec_writes(spec) ? O_RDWR : O_RDONLY;
	/* fio: a job that writes creates its file, and create_on_open lets
	 * any job's open create it; allow_file_create=0 never does */
	if (!t->is_block && spec->files.allow_create &&
	    (job_spec_writes(spec) || spec->files.create_on_open))
		flags |= O_CREAT;
	/* passthrough commands bypass the page cache whatever direct= says;
	 * the character device refuses O_DIRECT */
	if (spec->direct && !t->is_nvme_char)
		flags |= O_DIRECT;
	if (spec->sync_io)
		flags |= O_SYNC;
	/* a later group opens its target when the group starts */
	fd = target_open_judged(t->path, flags, &t->id, &refused);
	if (fd >= 0 || refused)
		return fd;
	if (errno == EINVAL && spec->direct)
		return err_set("cannot open '%s': %s: the filesystem does not "
			       "support direct=1 (O_DIRECT); use a file on a "
			       "disk filesystem or direct=0", t->path,
			       strerror(EINVAL));
	return err_set("cannot open '%s': %s", t->path, strerror(errno));
}
