/* sim.h - a closed-loop workload on a modelled drive in virtual time
 * (issue 15): each job keeps depth I/Os outstanding, each completion
 * submits the job's next at its completion time, on the model's own clock; nothing
 * sleeps, so a run costs only the model's CPU and is deterministic (a
 * seeded generator). It is how a drive's fit is checked (docs/vssd-fit.md)
 * and how the model's own rate is measured (bench/vssd-rate.sh). */
#ifndef DRIVEBENCH_VSSD_SIM_H
#define DRIVEBENCH_VSSD_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "vssd/drive.h"
#include "vssd/ftl.h"

enum sim_rw { SIM_READ, SIM_WRITE, SIM_RANDREAD, SIM_RANDWRITE };

struct sim_job {
	enum sim_rw rw;
	uint32_t bs;               /* bytes per I/O */
	uint32_t depth;            /* I/Os each job keeps outstanding */
	/* jobs (0 = 1), each on its own submission queue (drive.h), as fio's
	 * numjobs: they share the range and the stop conditions, a
	 * sequential one's offsets come from one cursor */
	uint32_t jobs;
	uint64_t offset, size;     /* the range; size 0: to the drive's end */
	/* when to stop submitting (the first reached; at least one is set):
	 * I/Os, bytes, or model seconds from the start */
	uint64_t ios, bytes;
	double seconds;
	uint64_t idle_ns;          /* idle time before the first I/O (background GC) */
	uint64_t seed;             /* random offsets; 0: one drawn from the drive clock */
	/* writes through the FTL alone, off the clock (vdrive_write_untimed):
	 * a fast warm-up; the result has counts and WAF, no rates */
	bool untimed;
};

struct sim_result {
	uint64_t ios, bytes;       /* completed */
	uint64_t start_ns, end_ns; /* first submission, last completion */
	double iops, mbs;          /* MB = 10^6 bytes, over end - start */
	double mean_lat_us;
	/* completion latency percentiles as fio computes them (measure/hist.h):
	 * 99, 99.9 and 99.99 */
	double p99_us, p999_us, p9999_us;
	double waf;                /* NAND IUs / host IUs written during the run (0: none) */
	struct ftl_stats ftl;      /* the drive's counters after the run */
};

/* Runs job on d, starting when d's last booked command ends (plus
 * idle_ns), so runs on one drive follow each other as steps of a suite.
 * 0, or -1 with err_msg (a bad job, a range past the drive, no memory). */
int sim_run(struct vdrive *d, const struct sim_job *job, struct sim_result *r);

/* Parses "read", "write", "randread", "randwrite". 0 / -1 with err_msg. */
int sim_rw_parse(const char *text, enum sim_rw *rw);

#endif
