/* engine.h - the I/O engine interface (after fio's ioengine_ops, smaller).
 * An engine queues prepared I/Os, submits a batch, and reaps completions;
 * it never decides what to do next. The runner owns timing and statistics:
 * only engines that model time (null_latency, fault delays) read the clock,
 * to hand back an I/O no sooner than it is due. */
#ifndef DRIVEBENCH_ENGINE_H
#define DRIVEBENCH_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job_spec.h"

/* One I/O in flight: a whole request, or one chunk of a large request. */
struct io {
	void *buf;               /* aligned, at least len bytes */
	uint64_t offset;         /* byte offset in the target */
	uint32_t len;            /* bytes for this submission */
	uint8_t dir;             /* enum io_dir */
	uint8_t prio;            /* engine: index of its priority (cmdprio.h) */
	uint16_t buf_index;      /* slot in the engine's registered buffers */
	int32_t result;          /* set by reap: bytes done, or -errno */
	int32_t file;            /* the I/O's file as the engine names it: one
				  * of engine->files[] (fio's io_u->file) */
	uint64_t start_ns;       /* runner: prepared (slat starts) */
	uint64_t issue_ns;       /* runner: submitted (clat starts) */
	uint64_t complete_ns;    /* runner, or an engine that programs latency */
	void *owner;             /* runner-private (request of a chunk) */
};

struct engine;
struct job_result;

/* A file an engine writes beside its target (engine_ops.side_files). */
struct side_file {
	enum {
		SIDE_FILE_TARGET,    /* written like a job's target (safety gate) */
		SIDE_FILE_OUTPUT,    /* an output (the output gate, OUTPUT_FILE) */
	} kind;
	char path[JOB_PATH_MAX];
};

struct option_def;

/* What an engine is, for the runner (engine_ops.flags). */
enum engine_flag {
	/* submit does the I/O before it returns (psync, sync, cpuio ...):
	 * the device time is clat, as in fio's FIO_SYNCIO engines */
	ENGINE_SYNC = 1u << 0,
	/* runs without the job's target open (null, cpuio, exec, page_fault) */
	ENGINE_NO_FD = 1u << 1,
	/* what it writes reaches the target and reads back (verify can check it) */
	ENGINE_KEEPS_DATA = 1u << 2,
	/* moves no data (cpuio, exec, fio's FIO_NOIO): its I/Os are counted
	 * with no bytes, and the job runs for its runtime */
	ENGINE_NO_IO = 1u << 3,
	/* every I/O changes the target whatever its direction (falloc's
	 * reads allocate): the job passes the write gate and opens read-write */
	ENGINE_ALTERS = 1u << 4,
	/* writes atomically with atomic=1 (RWF_ATOMIC) */
	ENGINE_ATOMIC = 1u << 5,
	/* does trims (DIR_TRIM: a discard, or a punched hole in a file);
	 * a job that trims with another engine is refused */
	ENGINE_TRIMS = 1u << 6,
	/* takes each I/O's file from io->file, so a job may have several
	 * files (nrfiles, filename=a:b); an engine without it gets one file
	 * per job */
	ENGINE_FILES = 1u << 8,
	/* fio's file and directory operation engines (filecreate, filestat,
	 * ...): each "I/O" is an operation on one of the job's files
	 * (io/fileops.h), run by run/loop_fileops.c instead of the
	 * submit/reap loop */
	ENGINE_FILE_OPS = 1u << 9,
	/* drives an NVMe namespace's generic character device (/dev/ngXnY)
	 * with passthrough commands: the only engine such a target takes,
	 * and it takes no other (io_uring_cmd) */
	ENGINE_NVME_CHAR = 1u << 10,
};


struct engine_ops {
	const char *name;
	unsigned flags;                   /* enum engine_flag */
	/* The engine's own job options (job/option_table.h), ended by
	 * an entry with a NULL name; NULL = none. Valid only with this
	 * engine: given with another, the job is refused naming both. */
	const struct option_def *options;
	/* Optional: what the engine needs of a job, checked with the job
	 * before anything is laid out (fio refuses the same at init): 0 or
	 * -1 with err_msg. NULL: any job. */
	int (*check)(const struct job_spec *spec);
	/* Sets up for engine->files[0..nr_files) (engine->fd is the first)
	 * with engine->ios[0..nr_ios) (buffers may be registered; a file the
	 * engine registers gets its registered name in engine->files[], and
	 * io->file carries that). Returns 0 or -1 with err_msg. */
	int (*init)(struct engine *e, const struct job_spec *spec);
	/* Queues one I/O, no syscall. Returns 0, or -1 (err_msg) if full. */
	int (*prep)(struct engine *e, struct io *io);
	/* Submits everything queued. Returns the number submitted or -1. */
	int (*submit)(struct engine *e);
	/* Waits for at least min completions, returns up to max in out[] with
	 * io->result set; returns the count or -1. min 0 = do not wait. An
	 * engine whose completions wait on a modelled clock (null_latency,
	 * the fault engine's delays) waits at most a slice (50 ms) and may
	 * return fewer, so the loop sees its deadline and stop flag. */
	int (*reap)(struct engine *e, struct io **out, unsigned min, unsigned max);
	/* Optional: hands back, with result -ECANCELED, up to max I/Os that
	 * only wait on such a clock (no device holds their buffers), for a
	 * loop that stops: they are not done and never counted. Returns how
	 * many. NULL: every I/O completes in real time. */
	int (*cancel)(struct engine *e, struct io **out, unsigned max);
	/* Optional: waits up to timeout_ns for a completion, consuming none
	 * (the next reap returns it). 0 (ready or timed out) or -1 with
	 * err_msg. io_submit_mode=offload's wait between due times
	 * (run/pacing.c); NULL: that wait reaps without a timeout. */
	int (*wait)(struct engine *e, uint64_t timeout_ns);
	void (*cleanup)(struct engine *e);
	/* Optional: the files the engine writes beside the job's target for
	 * clone (e4defrag's donor, exec's redirected output), so the runner
	 * passes them through the write gate (and creates a missing donor as
	 * its own) before the engine opens them. Returns how many it filled
	 * of out[0..max), or -1 with err_msg. */
	int (*side_files)(const struct job_spec *spec, unsigned clone,
			  struct side_file *out, unsigned max);
	/* Optional: moves what the engine measured itself (cmdprio's clat
	 * by priority) into the clone's result, after the loop. 0 or -1. */
	int (*collect)(struct engine *e, struct job_result *r);
};

struct engine {
	const struct engine_ops *ops;
	int fd;                  /* target, opened by the runner; -1 for null */
	/* the job's files as each I/O names them (io->file): descriptors
	 * opened by the runner (-1 for one not open yet), or what init put in
	 * their place; files[0] is fd's */
	int *files;
	unsigned nr_files;
	int own_file;            /* files[] of a caller that gave none: fd */
	unsigned depth;          /* most I/Os in flight */
	struct io *ios;          /* the runner's pool, for buffer registration */
	unsigned nr_ios;
	uint32_t buf_size;       /* bytes of each ios[i].buf (for registration) */
	bool is_block;           /* fd is a block device (how a trim is done) */
	/* an NVMe namespace's character device (ENGINE_NVME_CHAR): its
	 * namespace id and LBA size in bytes; 0 for any other target */
	uint32_t nvme_nsid;
	unsigned lba_size;
	unsigned max_segments;   /* segments (pages) of one command; 0: unknown */
	uint64_t range_start;    /* the job's byte range on the target */
	uint64_t range_len;
	const char *path;        /* the target's path (for messages) */
	/* the run's stop flag (SIGINT/SIGTERM), for an init that takes long
	 * (vssd making a large drive); NULL: none */
	const volatile sig_atomic_t *stop;
	bool measuring;          /* set by the loop when the ramp is over */
	/* set by an engine that ended the job itself (cpuio's
	 * exit_on_io_done): the -ECANCELED it handed back is no error */
	bool ended;
	void *priv;              /* engine-private state */
};

/* Finds an engine by fio name (one of engine_at's), or "fault:<one of
 * them>" for the fault engine wrapping it (io/fault.h); NULL with err_msg
 * "unknown ioengine 'x' (known: ...)" otherwise. */
const struct engine_ops *engine_find(const char *name);

/* The job's engine: the one job_spec_validate resolved (spec->engine);
 * for a job built without validation (a unit test's), or whose ioengine
 * was changed since, found by its name; NULL with err_msg when that
 * names none. */
const struct engine_ops *job_engine(const struct job_spec *spec);

/* The i-th engine of the one table every list of engines reads (lookup,
 * the fault engine's wrappers, usage and error texts); NULL past the last. */
const struct engine_ops *engine_at(unsigned i);

/* "io_uring, libaio, psync, ..." : every engine's name, for messages. */
const char *engine_names(void);

/* The engine a name resolves to for its flags and options: the inner
 * engine of "fault:<engine>"; NULL when unknown (no err_msg). */
const struct engine_ops *engine_base(const char *name);

/* True when ops (or the engine a fault engine wraps) has flag. */
bool engine_has(const struct engine_ops *ops, unsigned flag);

/* For an engine's check: refuses a job that reads ("ioengine=NAME only
 * writes"), for engines whose reads fail in fio. 0 or -1 with err_msg. */
int engine_check_writes_only(const struct job_spec *spec, const char *engine);

/* One synchronous pread/pwrite of io on fd, retried on EINTR: the bytes
 * done, or -errno (psync, and cufile's host paths). */
int32_t engine_posix_io(int fd, const struct io *io);

/* A trim (DIR_TRIM) of io's range done at once, as fio's os_trim does it:
 * BLKDISCARD on a block device; on a regular file a punched hole
 * (fallocate PUNCH_HOLE | KEEP_SIZE, what fio's falloc engine does: fio's
 * other engines fail a trim on a file with ENOTTY), on io->file (a
 * descriptor: engines that register files trim by their own command).
 * e->is_block says which, for the job's first file. Returns io->len or
 * -errno. A trim's result may also be 0 for success (the kernel's
 * discard and fallocate report 0; loop.c counts it done). */
int32_t engine_trim_sync(const struct engine *e, const struct io *io);

/* Engines that run with a file descriptor: all but ENGINE_NO_FD (null). */
int engine_needs_fd(const struct engine_ops *ops);

/* For the engines' init: a caller that gave no files[] has one, fd
 * (engine_files_default, before anything reads files[]); every I/O of
 * the pool starts on files[0] (engine_files_assign, at the end). */
void engine_files_default(struct engine *e);
void engine_files_assign(struct engine *e);

/* The flags of an engine, of the one the fault engine wraps for a
 * fault:<engine>. */
unsigned engine_flags(const struct engine_ops *ops);

/* The jobs of the running phase whose engine moves data, for cpuio's
 * exit_on_io_done: the runner counts a clone in before its start barrier
 * and out when its loop ends. */
void engine_io_jobs_add(int delta);
int engine_io_jobs_running(void);

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_io_uring_cmd; /* io/io_uring_cmd.c */
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_vssd;     /* io/vssd.c */
extern const struct engine_ops engine_cufile;   /* io/cufile.c */
extern const struct engine_ops engine_filecreate, engine_filestat,
	engine_filedelete, engine_dircreate, engine_dirstat, engine_dirdelete;  /* io/fileops.c */
extern const struct engine_ops engine_sync;     /* io/sync.c */
extern const struct engine_ops engine_vsync;    /* io/sync.c */
extern const struct engine_ops engine_posixaio; /* io/posixaio.c */
extern const struct engine_ops engine_pvsync;   /* io/pvsync.c */
extern const struct engine_ops engine_pvsync2;  /* io/pvsync.c */
extern const struct engine_ops engine_cpuio;    /* io/cpuio.c */
extern const struct engine_ops engine_exec;     /* io/exec.c */
extern const struct engine_ops engine_ftruncate; /* io/ftruncate.c */
extern const struct engine_ops engine_falloc;   /* io/falloc.c */
extern const struct engine_ops engine_e4defrag; /* io/e4defrag.c */
extern const struct engine_ops engine_page_fault; /* io/page_fault.c */

#endif
