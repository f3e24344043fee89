/* pacing.h - the options that shape when and where a job's I/Os go
 * rather than what they are: start delay, loops, rate limits, think time,
 * the latency-target search of the queue depth, flows, number_ios, the
 * submit mode, bsrange, rw offset modifiers and rw_sequencer, the sequence
 * distribution, strided zones, and job control (exitall, wait_for). fio's
 * names and defaults; the table is pacing_options.c's, docs/options.md
 * lists every option. job_spec.h includes this after the directions. */
#ifndef DRIVEBENCH_PACING_H
#define DRIVEBENCH_PACING_H

#include <stdbool.h>
#include <stdint.h>

#include "job/io_dir.h"

struct job_spec;

enum rate_process { RATE_LINEAR, RATE_POISSON };
/* thinktime_blocks counts completed (fio's default) or issued I/Os */
enum think_blocks { THINK_COMPLETE, THINK_ISSUE };
/* io_submit_mode: inline (fio's default) or offload */
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
/* what an offset modifier does between new offsets (rw=randread:N) */
enum rw_sequencer { RW_SEQ_SEQUENTIAL, RW_SEQ_IDENTICAL };
/* zonemode: not given (zonesize alone then means strided, as in fio),
 * none, strided */
enum zone_mode { ZONE_MODE_DEFAULT, ZONE_MODE_NONE, ZONE_MODE_STRIDED, ZONE_MODE_ZBD };
/* which jobs exitall ends: the finished job's group, every job running
 * (stonewall), or every job */
enum exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };

#define SEQUENCE_MAX 64        /* fio's FIO_SEQ_MAX */
#define FLOW_WEIGHT_MAX 1000u  /* fio's FLOW_MAX_WEIGHT */
#define LOOPS_LIMIT 1000000000u

struct job_pacing {
	/* when: startdelay=T or T1-T2 (one value drawn per job) */
	uint64_t startdelay_ns, startdelay_max_ns;
	unsigned loops;                 /* passes over the region, default 1 */
	uint64_t number_ios;            /* stop after this many I/Os per loop */

	/* rate limits per direction (read, write, trim): bytes/s and IOPS,
	 * and the minimums a job must keep (checked every rate_cycle) */
	uint64_t rate[DIR_ALL], rate_min[DIR_ALL];
	uint64_t rate_iops[DIR_ALL], rate_iops_min[DIR_ALL];
	enum rate_process rate_process;
	uint64_t rate_cycle_ns;         /* fio's ratecycle, default 1 s */
	bool rate_ignore_thinktime;

	/* think time: after thinktime_blocks I/Os (or thinktime_iotime of
	 * I/O) the queue drains, then spin thinktime_spin and sleep the rest */
	uint64_t thinktime_ns, thinktime_spin_ns, thinktime_iotime_ns;
	uint64_t thinktime_blocks;      /* default 1 */
	bool thinktime_blocks_set;
	enum think_blocks thinktime_blocks_type;

	/* latency_target: the queue depth is searched between 1 and iodepth
	 * so that latency_percentile of the I/Os in each latency_window
	 * complete within latency_target (latency_run: keep searching) */
	uint64_t latency_target_ns, latency_window_ns;
	double latency_percentile;      /* default 100 */
	bool latency_run;

	/* flows: jobs with the same flow_id run in the ratio of their flow
	 * weights; a job ahead of its share sleeps flow_sleep */
	unsigned flow, flow_id;
	uint64_t flow_sleep_ns;

	enum submit_mode submit_mode;
	unsigned iodepth_low;           /* 0 = iodepth */

	/* shapes: bsrange=MIN-MAX per direction (0 = none), rw=...:N */
	uint64_t bs_min[DIR_ALL], bs_max[DIR_ALL];
	int64_t seq_add;                /* rw=read:N: bytes added per I/O */
	uint64_t rand_seq_nr;           /* rw=randread:N: a new offset every N */
	enum rw_sequencer rw_sequencer;
	/* random_distribution=sequence:B1,B2,...: block indices in order */
	uint32_t sequence[SEQUENCE_MAX];
	unsigned nr_sequence;
	bool sequence_stride;           /* random_sequence_stride */
	/* zonemode=strided: zonesize bytes in each zone of zonerange, then
	 * skip zoneskip */
	enum zone_mode zonemode;
	uint64_t zonesize, zonerange, zoneskip;
	/* zonemode=zbd (run/zbd.h): open-zone limit (0 = the device's),
	 * reset threshold (default 1) and frequency (0 = never reset) */
	unsigned max_open_zones;
	double zone_reset_threshold, zone_reset_frequency;

	/* job control */
	bool exitall, exitall_on_error;
	enum exit_what exit_what;
	char wait_for[128];             /* a job name; "" = none */
};

/* fio's defaults: loops 1, thinktime_blocks 1, rate_cycle 1 s,
 * latency_percentile 100, rand_seq_nr 1. */
void pacing_defaults(struct job_pacing *p);

/* The cross-checks of these options (job_spec_validate calls it). */
int pacing_spec_check(const struct job_spec *spec);

/* True when the job uses an option that needs the paced loop (run/pacing.c):
 * anything that can delay, stop or reshape the issue of an I/O. */
bool pacing_active(const struct job_spec *spec);

/* True when zonemode=strided is in effect (or zonesize without zonemode). */
bool pacing_zone_strided(const struct job_spec *spec);
/* True for zonemode=zbd. */
bool pacing_zone_zbd(const struct job_spec *spec);

/* True when offsets or directions are chosen outside the plain path:
 * rw=...:N, rw_sequencer=identical, zonemode=strided, trimwrite. */
bool pacing_shaped(const struct job_spec *spec);

#endif
