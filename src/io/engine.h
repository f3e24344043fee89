/* engine.h - the I/O engine interface (after fio's ioengine_ops, smaller).
 * An engine queues prepared I/Os, submits a batch, and reaps completions;
 * it never decides what to do next. The runner owns timing and statistics:
 * only engines that model time (null_latency, fault delays) read the clock,
 * to hand back an I/O no sooner than it is due. */
#ifndef DRIVEBENCH_ENGINE_H
#define DRIVEBENCH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job_spec.h"

/* One I/O in flight: a whole request, or one chunk of a large request. */
struct io {
	void *buf;               /* aligned, at least len bytes */
	uint64_t offset;         /* byte offset in the target */
	uint32_t len;            /* bytes for this submission */
	uint8_t dir;             /* enum io_dir */
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

/* What an engine is, declared in its ops table (fio's FIO_SYNCIO,
 * FIO_DISKLESSIO ...); the runner reads these, never the engine's name. */
enum engine_flag {
	/* submit() performs each I/O and returns when it is done (psync,
	 * cufile): the runner stamps the issue time before the call, so the
	 * device time is clat, and keeps one I/O in flight, as fio does for
	 * its FIO_SYNCIO engines */
	ENGINE_SYNC = 1u << 0,
	/* runs without a target file descriptor (null) */
	ENGINE_NO_FD = 1u << 1,
	/* writes reach the target from io->buf and reads land in io->buf, so
	 * what was written can be read back and checked (verify) */
	ENGINE_KEEPS_DATA = 1u << 2,
	/* takes each I/O's file from io->file, so a job may have several
	 * files (nrfiles, filename=a:b); an engine without it gets one file
	 * per job */
	ENGINE_FILES = 1u << 8,
	/* fio's file and directory operation engines (filecreate, filestat,
	 * ...): each "I/O" is an operation on one of the job's files
	 * (io/fileops.h), run by run/loop_fileops.c instead of the
	 * submit/reap loop */
	ENGINE_FILE_OPS = 1u << 9,
};

/* Each engine's flags, named here so that the fault engine's tables
 * (compile-time constants in fault.c) carry exactly the wrapped engine's. */
#define ENGINE_FLAGS_IO_URING (ENGINE_KEEPS_DATA | ENGINE_FILES)
#define ENGINE_FLAGS_LIBAIO (ENGINE_KEEPS_DATA | ENGINE_FILES)
#define ENGINE_FLAGS_PSYNC (ENGINE_SYNC | ENGINE_KEEPS_DATA | ENGINE_FILES)
#define ENGINE_FLAGS_NULL (ENGINE_NO_FD | ENGINE_FILES)
/* cufile's GPU transfer types move data through GPU buffers, not the
 * runner's io->buf, so verify cannot use it (docs/verify.md) */
#define ENGINE_FLAGS_CUFILE ENGINE_SYNC

struct engine_ops {
	const char *name;
	unsigned flags;                  /* enum engine_flag */
	const struct option_def *options;/* the engine's own job options, or NULL
					  * (options.c lists them as a group) */
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
	void *priv;              /* engine-private state */
};

/* Finds an engine by fio name ("io_uring", "libaio", "psync", "null",
 * "cufile"), or "fault:<one of them>" for the fault engine wrapping it
 * (io/fault.h); NULL with err_msg "unknown ioengine 'x'" otherwise. */
const struct engine_ops *engine_find(const char *name);

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

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_cufile;   /* io/cufile.c */
extern const struct engine_ops engine_filecreate, engine_filestat,
	engine_filedelete, engine_dircreate, engine_dirstat, engine_dirdelete;  /* io/fileops.c */

#endif
