/* engine_opts.h - the job options of the engines that have their own
 * (cpuio, exec, e4defrag, pvsync2, and the I/O priorities of libaio and
 * io_uring), and the options about the thread that runs a job: its CPUs,
 * NUMA nodes and memory policy, nice and I/O priority, the measurements
 * gtod_reduce and disable_* turn off, atomic writes. One sub-struct of
 * struct job_spec (spec->eng); the engines' option tables live in their
 * files (io/), these general ones in engine_opts.c. */
#ifndef DRIVEBENCH_ENGINE_OPTS_H
#define DRIVEBENCH_ENGINE_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#define CMDPRIO_SPLIT_MAX 64
#define ENGINE_OPTIONS_SET_MAX 32
#define NUMA_NODES_MAX 1024
#define NUMA_MASK_WORDS (NUMA_NODES_MAX / 64)

enum cpuio_mode { CPUIO_NOOP, CPUIO_QSORT };

/* cpuio: burn cpuload percent of a CPU in chunks of cpuchunks us */
struct cpuio_opts {
	unsigned load;              /* cpuload, 1..100 (0 = not given) */
	unsigned chunk_us;          /* cpuchunks, default 50000 */
	enum cpuio_mode mode;       /* cpumode=noop|qsort */
	bool exit_on_io_done;       /* end when the phase's I/O jobs end */
};

/* exec: run program with arguments for the job's runtime (the strings are
 * short in practice; every job_spec copy carries them) */
struct exec_opts {
	char program[1024];
	char arguments[1024];       /* split on spaces; %r runtime (s), %n name */
	unsigned grace_s;           /* SIGTERM .. SIGKILL, default 1 */
	bool std_redirect;          /* NAME.stdout / NAME.stderr, default 1 */
};

/* e4defrag: EXT4_IOC_MOVE_EXT from a donor file */
struct e4defrag_opts {
	char donorname[1024];
	unsigned inplace;           /* 0: donor allocated once; 1: per I/O */
};

/* vssd: the modelled drive (io/vssd.c, docs/vssd.md) */
struct vssd_opts {
	char model[1024];           /* vssd_model=FILE: a spec file with [model] */
	char scale[64];             /* vssd_scale=1/1000 (default), 0.001 or 8g */
	char state[1024];           /* vssd_state=FILE: the FTL saved/loaded there */
};

/* pvsync2's preadv2/pwritev2 flags (hipri itself is the core option) */
struct pvsync2_opts {
	unsigned hipri_percentage;  /* RWF_HIPRI on this share, default 100 */
	bool nowait;                /* RWF_NOWAIT */
	unsigned uncached;          /* RWF_DONTCACHE for buffered I/O */
};

/* io_uring_cmd: the passthrough command's shape (io/io_uring_cmd.c) */
struct uring_cmd_opts {
	char cmd_type[8];           /* cmd_type=nvme (fio's default, the only one) */
	int nonvectored;            /* -1 not given (1: NVME_URING_CMD_IO), 0, 1 */
	bool readfua, writefua;     /* FUA bit of Read / Write */
};

/* One cmdprio_bssplit entry: I/Os of size bs get prio on perc percent. */
struct cmdprio_split {
	uint64_t bs;
	unsigned perc;
	int prio_class, prio_level, prio_hint;  /* -1: cmdprio_class / cmdprio */
};

/* libaio and io_uring: per-command I/O priorities, as fio's cmdprio */
struct cmdprio_opts {
	unsigned percentage[2];     /* by enum io_dir */
	unsigned prio_class[2];     /* 1..3; 0 = not given (fio's default 1) */
	unsigned level[2];          /* 0..7 */
	unsigned hint[2];
	struct cmdprio_split split[2][CMDPRIO_SPLIT_MAX];
	unsigned nr_split[2];
	bool bssplit_set;
};

enum numa_policy {
	NUMA_MEM_NONE,              /* numa_mem_policy not given */
	NUMA_MEM_DEFAULT, NUMA_MEM_PREFER, NUMA_MEM_BIND, NUMA_MEM_INTERLEAVE,
	NUMA_MEM_LOCAL,
};

enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };

struct engine_opts {
	struct cpuio_opts cpuio;
	struct exec_opts exec;
	struct e4defrag_opts e4defrag;
	struct vssd_opts vssd;
	struct pvsync2_opts pvsync2;
	struct cmdprio_opts cmdprio;
	struct uring_cmd_opts uring_cmd;

	/* the thread: CPUs, NUMA, nice, I/O priority */
	enum cpus_policy cpus_allowed_policy;
	uint64_t numa_cpu_nodes[NUMA_MASK_WORDS];   /* bit per node; 0 = any */
	bool numa_cpu_nodes_set;
	enum numa_policy numa_mem_policy;
	uint64_t numa_mem_nodes[NUMA_MASK_WORDS];
	int nice;                   /* -20..19 */
	bool nice_set;
	unsigned prio, prioclass;   /* the job's I/O priority (ioprio_set) */
	bool prio_set, prioclass_set;

	/* measurements turned off (fio's gtod_reduce and disable_*) */
	bool disable_lat, disable_clat, disable_slat, disable_bw;

	bool atomic;                /* RWF_ATOMIC writes (implies direct) */
	bool allow_mounted_write;   /* accepted; the write gate still decides */

	/* the engine options given, by name, checked against ioengine; the
	 * first nr_global_engine_options came from [global], where an option
	 * of another engine does not apply to a job (fio's e4defrag2 example
	 * gives donorname= in [global] to libaio jobs too) */
	const char *engine_option[ENGINE_OPTIONS_SET_MAX];
	unsigned nr_engine_options, nr_global_engine_options;
};

struct job_spec;
struct option_def;

/* fio's defaults of the fields above (called by job_spec_defaults). */
void engine_opts_defaults(struct engine_opts *o);

/* Remembers that the engine option def was given (for the check). */
int engine_opts_note(struct job_spec *spec, const struct option_def *def);

/* Checks the options of this file that need no engine: atomic=1 is
 * direct. 0 or -1 with err_msg. (What ties them to the job's ioengine,
 * every engine option belonging to it, cpuio's cpuload, is the engine
 * catalog's check, io/engine_check.c.) */
int engine_opts_check(const struct job_spec *spec);

/* ioprio_set's value: class << 13 | hint << 3 | level. */
static inline unsigned ioprio_value(unsigned prio_class, unsigned level, unsigned hint)
{
	return prio_class << 13 | hint << 3 | level;
}

#endif
