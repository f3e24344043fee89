/* target.h - what the runner writes to or reads from: a regular file or a
 * block device, its size and block sizes, and the default scratch file. */
#ifndef DRIVEBENCH_TARGET_H
#define DRIVEBENCH_TARGET_H

#include <signal.h>
#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "job/job_spec.h"

#define SCRATCH_DEFAULT_PATH "./drivebench-scratch.dat"
#define SCRATCH_DEFAULT_SIZE (1ull << 30)
#define SCRATCH_ENV "DRIVEBENCH_SCRATCH"

/* What a probe found at a path, to know the object opened later is it:
 * a device by its number, a regular file by its inode. */
struct target_identity {
	bool device;                /* a block or character device: rdev */
	bool file;                  /* an existing regular file: dev, ino */
	dev_t dev, rdev;
	ino_t ino;
};

struct target {
	char path[JOB_PATH_MAX];
	bool is_block;
	bool is_model;              /* vssd:FILE (target/model_target.h) */
	/* an NVMe namespace's generic character device (/dev/ngXnY): also
	 * is_block (a device of fixed size); only io_uring_cmd drives it */
	bool is_nvme_char;
	uint32_t nvme_nsid;         /* its namespace id (NVME_IOCTL_ID) */
	uint32_t max_io_bytes;      /* its largest command (max_hw_sectors_kb); 0: none */
	unsigned max_segments;      /* segments of one command (queue/max_segments) */
	bool exists;
	uint64_t size;              /* bytes (0 for a file that does not exist) */
	unsigned logical_block;     /* 512 for files unless the fs says more */
	unsigned physical_block;
	struct target_identity id;  /* what was probed (target_open_judged) */
};

/* Looks at path without opening it for I/O: kind, size, block sizes.
 * A missing regular file is not an error (exists = false). A missing
 * path under /dev, a directory, or another kind is. An NVMe namespace's
 * character device is sized by Identify Namespace (NSZE x the LBA size in
 * use, which is its logical and physical block). */
int target_probe(const char *path, struct target *t);

/* Records in id what path names now (nothing when it is missing). */
void target_identity_of(const char *path, struct target_identity *id);

/* Opens path with flags as a target the gate judged (id): a file missing
 * now (flags with O_CREAT) is made with O_EXCL and marked as drivebench's
 * own; anything else must be what id recorded: the same device, the same
 * regular file, or a file drivebench made since (its mark). A path changed
 * in between (a link swapped to a disk while earlier groups ran) is
 * refused. The fd; -1 with open()'s errno and no err_msg when the open
 * failed (*refused false); -1 with err_msg when refused or the mark
 * failed (*refused true). */
int target_open_judged(const char *path, int flags, const struct target_identity *id,
		       bool *refused);

/* Whether path suits the job's engine: an NVMe namespace's character
 * device takes only an engine that sends NVMe commands (nvme_engine:
 * ENGINE_NVME_CHAR), and such an engine takes nothing else. 0, or -1 with
 * err_msg naming path, engine and what path is. */
int target_engine_fits(const char *path, const char *engine, bool nvme_engine);

/* The scratch path: $DRIVEBENCH_SCRATCH or ./drivebench-scratch.dat. */
const char *target_scratch_path(void);

/* Makes sure a regular file is at least size bytes of written data (fio's
 * "laying out IO file"): creates or extends it by writing, so reads never
 * hit unwritten extents. Returns 1 if it wrote, 0 if nothing was needed.
 * Stops between 1 MiB writes once *stop is set (stop may be NULL): -1 with
 * "interrupted", and the file keeps what was written (the next layout
 * extends it from there). */
int target_layout_file(const char *path, uint64_t size, const volatile sig_atomic_t *stop);

/* Opens path to lay it out, write-only: a file it creates is marked as
 * drivebench's own (safety.h). The fd, or -1 with err_msg. */
int target_open_for_layout(const char *path);

/* Whether the filesystem of fd has room to take the file from `from` to
 * `size` bytes: 0, or -1 with err_msg naming path, the bytes needed and
 * free (a layout is refused before it starts rather than filling the
 * filesystem; offset_increment can put a clone's range terabytes in). */
int target_layout_room(int fd, const char *path, uint64_t from, uint64_t size);

/* Resolves a job's byte range on the target: size / size% / offset /
 * offset% / offset_increment for clone. Checks size 0, range beyond a
 * device, and O_DIRECT alignment of bs, offset and blockalign against the
 * logical block size. Errors name the job and option. */
int target_job_range(const struct target *t, const struct job_spec *spec,
		     unsigned clone, uint64_t *start, uint64_t *len);

/* The same for one file of a job's set, with the file's own size (fio's
 * per-file io_size: size / nrfiles ...) or size_pct of it; file_end > 0
 * is fio's filesize: the range runs from the offset to there. */
int target_file_range(const struct target *t, const struct job_spec *spec,
		      unsigned clone, uint64_t size, double size_pct, uint64_t file_end,
		      uint64_t *start, uint64_t *len);

/* Lays out a regular file of a job as fio does (fio's extend_file): for a
 * job that reads, size bytes of written data (target_layout_file); for a
 * job that only writes, the file created and allocated as fallocate=
 * says, no data written (none: left as it is, the writes extend it;
 * native, posix: allocated to size; keep: allocated, size unchanged;
 * truncate: extended to size, sparse). A file drivebench creates is
 * marked as its own. create_on_open=1 lays out nothing (the job's open
 * creates the file); allow_file_create=0 makes a missing file an error.
 * Returns 1 if it wrote or allocated, 0 if nothing was needed, -1 with
 * err_msg. (file_layout.c) */
int target_layout_job_file(const struct job_spec *spec, const char *path, uint64_t size,
			   const volatile sig_atomic_t *stop);

/* Opens for the job: O_RDONLY or O_RDWR, O_DIRECT, O_SYNC as the spec says.
 * Returns the fd or -1 with err_msg. */
int target_open(const struct target *t, const struct job_spec *spec);

#endif
