/* checkpoint.h - DLIO-style checkpoint writes as job lists for the one
 * runner: the jobs of one checkpoint (one per rank and file, all in one
 * phase, reported as one merged result), its files laid out as sparse
 * files drivebench owns, how many checkpoints fit, and result naming
 * ("pass2-ckpt003"). The sizes come from workload/dlio.h. */
#ifndef DRIVEBENCH_CHECKPOINT_H
#define DRIVEBENCH_CHECKPOINT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/runner.h"
#include "device/fs_setup.h"
#include "workload/dlio.h"
#include "job/job_list.h"

#define CHECKPOINT_DEFAULT_BS (1024 * 1024)

struct checkpoint_write {
	const char *dir;        /* the checkpoints live in dir/ckpt-NNN/ */
	/* Region mode (workload/checkpoint_regions.h): non-NULL, the raw
	 * target the files are regions of, checkpoint 1 from base; dir unused. */
	const char *device;
	uint64_t base;
	/* Filesystem mode: the filesystem made for the checkpoints on the
	 * device (target/fs_setup.h); dir is its mount point, written as the
	 * files mode writes any directory. NULL otherwise. */
	const struct fs_setup *fs;
	uint64_t bs;            /* request size; 0 = CHECKPOINT_DEFAULT_BS */
	bool fsync;             /* end_fsync=1 on every file (the default) */
	bool read;              /* read the files back instead of writing */
};

/* The sizing of a suite step or other caller with two ways to say it: a
 * built-in model's DLIO defaults (model non-empty), or an explicit total
 * over ranks. Then dlio_plan; -1 with err_msg on a bad name or size. */
int checkpoint_plan_for(const char *model, uint64_t total_bytes, unsigned ranks,
			struct dlio_plan *plan);

/* dir/ckpt-NNN (index from 1). -1 with err_msg when it does not fit. */
int checkpoint_dir_path(const char *dir, unsigned index, char *out, size_t len);

/* Checkpoints that fit in free_bytes * fill, each total_bytes large. */
unsigned checkpoint_count_for_space(uint64_t free_bytes, double fill,
				    uint64_t total_bytes);

/* Free bytes of the filesystem holding dir (statvfs, for unprivileged
 * users: f_bavail). */
int checkpoint_free_bytes(const char *dir, uint64_t *free_bytes);

/* Creates dir/ckpt-NNN and makes every planned file in it what torch.save's
 * open(path, "wb") makes it: empty, so that the measured writes append to
 * it and the filesystem allocates its blocks as they come (the jobs'
 * fallocate=none leaves it so). A missing file is created and marked as
 * created by drivebench; an existing one (an earlier pass's, a resumed
 * checkpoint's) is truncated to 0, so the filesystem frees its blocks and
 * the writes allocate new ones, as after torch.save's O_TRUNC, but only
 * when it is drivebench's, judged on the descriptor opened (its mark, or
 * ids / *consent naming it) and by the safety gate: a file drivebench did
 * not create, a symbolic link or anything but a regular file is refused
 * (err_refused(), the gate's message) and left untouched. Paths of files
 * created here that could not be marked (no user xattrs) are added to
 * *consent (malloc'd strings; the caller keeps them for the whole run,
 * every pass, and frees them with checkpoint_consent_free) so this run
 * may write them again. ids are the --destroy-data names. */
struct checkpoint_consent {
	char **paths;
	unsigned nr, cap;
};
int checkpoint_prepare(const struct dlio_plan *plan, const char *dir, unsigned index,
		       const char *const *ids, unsigned nr_ids,
		       struct checkpoint_consent *consent);
void checkpoint_consent_free(struct checkpoint_consent *c);

/* The files of checkpoint index written again whole, unmeasured, with
 * the layout's data (target_layout_file; files already full size are
 * left): a resume on a new filesystem (checkpoint_fs) puts back the
 * checkpoints an earlier pass 1 wrote, so later passes write over files
 * as they would have. Stops between 1 MiB writes once *stop is set. */
int checkpoint_restore(const struct dlio_plan *plan, const char *dir, unsigned index,
		       const volatile sig_atomic_t *stop);

/* The jobs of one checkpoint: one per (rank, file) writing (or reading)
 * the whole file sequentially with bs-sized requests (psync, direct=0 as
 * torch.save writes, end_fsync=1 unless !fsync; for files fallocate=none,
 * so the writes extend the empty file); a file whose size is not a
 * multiple of bs gets a second job for the tail, so exactly the planned
 * bytes move: a file's tail is its first bytes (the bs requests then
 * append after it), a region's its last. In region mode a file is its region of w->device (the
 * job's offset), and end_fsync is the device's fsync. All jobs share one phase and group_reporting. Appends to
 * out (which the caller frees). */
int checkpoint_jobs(const struct dlio_plan *plan, const struct checkpoint_write *w,
		    unsigned index, struct job_list *out);

/* One checkpoint, ready to run: on every pass that writes files (not a
 * read-back, not region mode) lays out its files (checkpoint_prepare:
 * created empty in pass 1, truncated in later passes and on a resume),
 * builds its jobs, and its run options: opt with the
 * --destroy-data consent extended by this checkpoint's files in *consent,
 * the run's files created but not markable (held by the caller for the
 * whole run). The caller runs one->jobs with one->opt through
 * record_run, merged into one result named one->name
 * (checkpoint_result_name(pass, index)): bytes of every job, runtime of
 * the longest = from the start barrier to the last file's fsync. The
 * truncation is before the start barrier, outside the measured time, as
 * the files' open is. Free with checkpoint_one_free, also after a
 * failure. */
struct checkpoint_one {
	struct job_list jobs;
	/* [jobs.nr]: the DLIO rank whose file each job writes (under MPI the
	 * job runs on MPI rank shard % ranks: record_place.job_shards) */
	unsigned *shards;
	struct run_options opt;
	char name[JOB_NAME_MAX];
	const char **ids;
};
int checkpoint_one_prepare(const struct dlio_plan *plan, const struct checkpoint_write *w,
			   unsigned pass, unsigned index, const struct run_options *opt,
			   struct checkpoint_consent *consent, struct checkpoint_one *one,
			   enum run_failure *why);
void checkpoint_one_free(struct checkpoint_one *one);

/* "pass2-ckpt003"; pass 0 names the read-back "read-ckpt003". */
void checkpoint_result_name(unsigned pass, unsigned index, char *out, size_t len);

#endif
