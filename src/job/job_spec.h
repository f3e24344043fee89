/* job_spec.h - one job as fio defines it: every option drivebench supports,
 * already parsed into numbers. Producers (command line, fio job files, later
 * suites and application workloads) fill it; the runner only reads it. */
#ifndef DRIVEBENCH_JOB_SPEC_H
#define DRIVEBENCH_JOB_SPEC_H

#define JOB_MODEL_TARGET_PREFIX "vssd:"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/buffering.h"
#include "job/job_output.h"
#include "job/job_measure.h"
#include "job/checks.h"
#include "job/file_options.h"
#include "job/engine_opts.h"

#define JOB_NAME_MAX 128
#define JOB_PATH_MAX 4096
#define BSSPLIT_MAX 64
#define PERCENTILE_MAX 64
#define ZONES_MAX 32

#include "job/io_dir.h"
#include "job/pacing.h"

/* rw= : which directions, and whether offsets are random. */
enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE,
	RW_READWRITE, /* rw / readwrite: sequential mixed */
	RW_RANDRW,
	RW_TRIM, RW_RANDTRIM,           /* discards (job/pacing.h) */
	RW_TRIMWRITE, RW_RANDTRIMWRITE, /* each block trimmed, then written */
};

/* random_generator= : fio's names. tausworthe and tausworthe64 map to our
 * 64-bit PRNG; lfsr maps to a full-period permutation (no repeats, no map). */
enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_TAUSWORTHE64, RANDGEN_LFSR };

enum distribution_kind {
	DIST_RANDOM,     /* uniform */
	DIST_ZIPF,       /* zipf:theta */
	DIST_PARETO,     /* pareto:h */
	DIST_NORMAL,     /* normal:sigma (percent of the range), alias gauss */
	DIST_ZONED,      /* zoned:access%/range%:... */
	DIST_ZONED_ABS,  /* zoned_abs:access%/size:... */
	DIST_SEQUENCE,   /* sequence:B1,B2,...: pacing.sequence in order */
};

struct zone {
	double access_pct;   /* share of I/Os landing in this zone */
	double range_pct;    /* zoned: share of the range */
	uint64_t size;       /* zoned_abs: bytes */
};

struct distribution {
	enum distribution_kind kind;
	double param;        /* theta, h or sigma */
	struct zone zones[ZONES_MAX];
	unsigned nr_zones;
};

/* verify= : how each written block is checked (verify/verify.h). The
 * values are written in every verify header: never renumber them. */
enum verify_kind {
	VERIFY_NONE = 0, VERIFY_CRC32C = 1, VERIFY_MD5 = 2, VERIFY_CRC64 = 3,
	VERIFY_CRC32 = 4, VERIFY_CRC16 = 5, VERIFY_CRC7 = 6, VERIFY_SHA1 = 7,
	VERIFY_SHA256 = 8, VERIFY_SHA512 = 9, VERIFY_SHA3_224 = 10,
	VERIFY_SHA3_256 = 11, VERIFY_SHA3_384 = 12, VERIFY_SHA3_512 = 13,
	VERIFY_XXHASH = 14, VERIFY_META = 15,  /* header only, payload compared */
	VERIFY_PATTERN = 16,                   /* verify_pattern, no header */
	VERIFY_PATTERN_HDR = 17,               /* verify_pattern with a header */
	VERIFY_KINDS
};

/* continue_on_error= : fio's classes of error a job keeps going after */
enum error_class {
	ERROR_CLASS_READ = 1, ERROR_CLASS_WRITE = 2, ERROR_CLASS_VERIFY = 4,
	ERROR_CLASS_IO = ERROR_CLASS_READ | ERROR_CLASS_WRITE,
	ERROR_CLASS_ALL = ERROR_CLASS_IO | ERROR_CLASS_VERIFY,
};

/* Faults the fault engine (ioengine=fault:<engine>, io/fault.c) injects. */
enum fault_kind {
	FAULT_EIO,       /* the I/O fails with -EIO, nothing transferred */
	FAULT_SHORT,     /* a short transfer is reported */
	FAULT_DELAY,     /* the completion is held back by fault.delay_ns */
	FAULT_DROP,      /* a write reports success but is not written */
	FAULT_FLIP,      /* one bit of the data flips (written or read) */
	FAULT_KINDS
};

#define FAULT_OFFSETS_MAX 64

/* One fault kind: injected into rate_pct percent of eligible I/Os, and into
 * every I/O whose byte range covers one of offsets[]. */
struct fault_rule {
	double rate_pct;
	uint64_t offsets[FAULT_OFFSETS_MAX];
	unsigned nr_offsets;
};

struct fault_spec {
	struct fault_rule rule[FAULT_KINDS];
	uint64_t delay_ns;     /* FAULT_DELAY's added latency */
	uint64_t skip_ios;     /* no fault in the first skip_ios I/Os */
	uint64_t seed;         /* of the rate draws; 0 = from the job's seed */
	unsigned dirs;         /* mask of 1 << enum io_dir; 0 = both */
};

struct bssplit_entry {
	uint64_t bs;
	double pct;          /* honoured with its fraction (fio truncates: atoi) */
};

struct engine_ops;

struct job_spec {
	/* identity */
	char name[JOB_NAME_MAX];
	char description[256];
	/* A name that starts with JOB_MODEL_TARGET_PREFIX is one modelled
	 * drive, colons and all (target/model_target.h), not a list. */
	char filename[JOB_PATH_MAX];   /* "" = default scratch target; fio's
					* ':'-separated list (file_options.h) */
	char directory[JOB_PATH_MAX];
	struct job_files files;        /* nrfiles, filesize, fallocate, ... */

	/* where: size is bytes, or size_pct of the target when size_pct > 0 */
	uint64_t size;
	double size_pct;
	uint64_t io_size;              /* bytes to transfer; 0 = size */
	uint64_t offset;
	double offset_pct;             /* offset=NN% of the target when > 0 */
	uint64_t offset_increment;     /* added per clone (numjobs index) */
	double offset_increment_pct;   /* offset_increment=NN% of the target when > 0 */

	/* what */
	enum rw_mode rw;
	unsigned rwmixread;            /* percent of I/Os that read (mixed modes) */
	uint64_t bs[DIR_ALL];          /* bs=R[,W[,T]] */
	struct bssplit_entry bssplit[DIR_COUNT][BSSPLIT_MAX];
	unsigned bssplit_nr[DIR_COUNT];/* 0 = use bs[] */
	uint64_t blockalign[DIR_ALL];  /* 0 = the block size */

	/* how */
	char ioengine[32];             /* io/engine.c's table; default io_uring */
	bool ioengine_given;           /* ioengine= was set (a vssd: target's default is vssd) */
	unsigned iodepth;
	unsigned iodepth_batch_submit; /* fio's default 1; 0 = iodepth */
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max; /* 0 = iodepth_batch_complete_min */
	unsigned numjobs;
	bool thread;                   /* accepted; drivebench always uses threads */
	bool direct;                   /* O_DIRECT */
	bool sync_io;                  /* sync=1: O_SYNC */
	unsigned fsync_every;          /* fsync=N: after every N writes */
	bool end_fsync;
	/* buffer contents, fdatasync, fsync_on_close, invalidate, fadvise_hint */
	struct job_buffering buffering;
	char cpus_allowed[256];        /* "0-3,6"; "" = any */

	/* io_uring */
	bool fixedbufs, registerfiles, sqthread_poll, hipri;

	/* null engine: programmed completion latency, for testing percentiles.
	 * null_latency_min_ns..max_ns spread by a low-discrepancy sequence;
	 * both 0 = complete at once. */
	uint64_t null_latency_min_ns, null_latency_max_ns;

	/* when */
	uint64_t runtime_ns;           /* 0 = until io_size is done */
	bool time_based;
	uint64_t ramp_ns;

	/* random */
	bool randrepeat;               /* default true: same seed every run */
	uint64_t randseed;
	bool randseed_set;
	bool norandommap;
	enum random_generator random_generator;
	struct distribution distribution;

	/* reporting */
	bool group_reporting;
	bool stonewall;                /* wait for earlier jobs; implies new_group */
	bool new_group;
	double percentiles[PERCENTILE_MAX];
	unsigned nr_percentiles;
	uint64_t series_interval_ns;   /* per-interval series, default 1 s */

	/* cufile engine (io/cufile.h): gdsio transfer type and GPU */
	int gds_transfer;              /* enum gds_xfer, default 1 (CPUONLY) */
	unsigned gpu_device;           /* CUDA device index (gdsio -d) */

	/* data verification (verify/): fio's verify, do_verify, verify_backlog */
	enum verify_kind verify;
	bool do_verify;                /* default true: read back after writing */
	/* fill_device (fill_fs): writes until the filesystem or device is
	 * full; ENOSPC ends the job, not as an error; without size= a file's
	 * range is what the filesystem has free (fio's get_fs_free_counts) */
	bool fill_device;
	/* create_serialize: fio lays files out one job at a time (1) or in
	 * parallel (0); drivebench lays out every file before the run, one
	 * at a time, either way: the files are the same */
	bool create_serialize;
	unsigned verify_backlog;       /* verify every N writes; 0 = at the end */
	uint64_t verify_seed;          /* the run's seed written in each header */
	bool verify_seed_set;          /* false: a fresh random seed per run */
	bool verify_only;              /* drivebench verify: read and check only */
	bool verify_fatal;             /* stop at the first failure (fio's) */
	uint64_t verify_interval;      /* verify unit; 0 = the smallest bs */
	unsigned continue_on_error;    /* mask of enum error_class; 0 = none */

	/* verify methods, steady state, sprandom, percentile switches
	 * (job/checks.h) */
	struct job_checks checks;

	/* fault injection: ioengine=fault:<engine> (io/fault.c) */
	struct fault_spec fault;

	/* fio's log files and JSON global options (job/job_output.h) */
	struct job_output output;
	/* how it is measured: sample windows, adaptive batching */
	struct job_measure measure;
	/* pacing, shapes, trims and job control (job/pacing.h) */
	struct job_pacing pacing;
	/* engines' own options, the job's thread, atomic (engine_opts.h) */
	struct engine_opts eng;

	/* drivebench extensions */
	uint64_t chunk_size;           /* requests above this go out as chunks */
	unsigned kb_base;              /* 1024 (fio default) or 1000 */

	/* the options as written, "key=value" per line in the order given
	 * (global ones first), for fio JSON's "job options" */
	char options_text[4096];

	/* where the job came from, for error messages */
	char source[JOB_PATH_MAX];     /* job file path or "command line" */
	unsigned source_line;          /* line of the section header */

	/* runtime state, never stored nor sent to another rank: the engine
	 * ioengine names (with its fault wrapper for fault:<engine>),
	 * resolved once by job_spec_validate; later code asks the job for it
	 * (io/engine.h's job_engine), not the name. NULL until validated. */
	const struct engine_ops *engine;
};

/* Fills spec with fio's defaults (plus drivebench's, see docs/options.md). */
void job_spec_defaults(struct job_spec *spec);

/* True when the job issues reads / changes the target (writes or trims:
 * what the write gate asks) / random offsets. */
bool job_spec_reads(const struct job_spec *spec);
bool job_spec_writes(const struct job_spec *spec);
bool job_spec_random(const struct job_spec *spec);
/* True when the job issues I/Os of direction dir (DIR_WRITE: data writes,
 * DIR_TRIM: trims). */
bool job_spec_uses_dir(const struct job_spec *spec, int dir);
bool job_spec_trims(const struct job_spec *spec);

/* fio's name of an rw mode ("randread"). */
const char *job_spec_rw_name(enum rw_mode rw);

/* The largest block size either direction can use (bs or bssplit). */
uint64_t job_spec_max_bs(const struct job_spec *spec);
uint64_t job_spec_min_bs(const struct job_spec *spec);

/* Checks the values against each other (not against a target): iodepth 0,
 * percentages over 100, bssplit sums, ... On error sets err_msg naming the
 * job and option and returns -1. A valid job keeps its resolved engine
 * (spec->engine). */
int job_spec_validate(struct job_spec *spec);

/* The (first) file clone `clone` of the job opens, named as fio names it:
 * filename alone, directory/filename when both are given (fio joins them
 * whatever filename looks like), or directory/NAME.CLONE.0 with only a
 * directory; job_file_path names the others. Returns 0, or -1 with
 * err_msg when the path does not fit. */
int job_spec_path(const struct job_spec *spec, unsigned clone, char *out, size_t len);

#endif
