/* sprandom_job.h - fio 3.41's sprandom job option: a random write of the
 * target's whole physical capacity (logical + spr_op of it) in
 * spr_num_regions consecutive slices of writes, each slice replaying (over
 * again) a share of the blocks the slice before it wrote, so that the
 * drive's erase blocks end with the validity distribution of random-write
 * steady state (Desnoyers' greedy model, WAF ~ 0.5 / op + 0.7). With
 * spr_cs the replays wait for the end of the next slice, past the drive's
 * cache. The model is the one the suite's sprandom plan uses
 * (suite/sprandom.c); docs/preconditioning.md compares the two. */
#ifndef DRIVEBENCH_SPRANDOM_JOB_H
#define DRIVEBENCH_SPRANDOM_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job_spec.h"
#include "job/random.h"

#define SPR_PCT_PRECISION 10000u   /* fio's: invalid shares in 1/10000 */

/* Greedy GC's steady-state write amplification for over-provisioning op,
 * and the validity of the block it collects (1 - 1 / WAF). */
double spr_model_waf(double op);
double spr_gc_validity(double op);

/* What a job's sprandom does, as planned before it runs. */
struct sprandom_report {
	double op;
	unsigned regions;
	uint64_t cache_bytes;        /* spr_cs */
	uint64_t block_bytes;        /* the write block size */
	uint64_t logical_bytes;      /* the job's range */
	uint64_t physical_bytes;     /* logical + ceil(logical x op), whole blocks */
	uint64_t region_bytes;       /* physical / regions */
	uint64_t region_writes;      /* region_bytes / block */
	uint64_t writes;             /* the whole sequence */
	uint64_t replays;            /* of those, blocks written again */
	uint32_t *invalid;           /* per region, in 1/SPR_PCT_PRECISION */
};

/* fio's per-region validity, resampled from the model's curve to equal
 * regions and ordered least valid first: out[n]. -1 when out of memory. */
int spr_validity(unsigned n, double op, double *out);

/* The offset sequence of one job clone. */
struct spr_gen;

/* Plans sprandom for nr_blocks blocks of block_bytes (the job's range),
 * with spec's spr_* options, seeded with seed; *report (owned by the
 * caller, free with sprandom_report_free) says what it will write. -1 with
 * err_msg (spr_cs above a region, too few blocks, out of memory). */
int spr_gen_create(struct spr_gen **g, const struct job_spec *spec, uint64_t nr_blocks,
		   uint64_t block_bytes, uint64_t seed, struct sprandom_report **report);
/* The next block to write. Past the planned writes: fresh passes over the
 * range. */
uint64_t spr_gen_next(struct spr_gen *g);
void spr_gen_free(struct spr_gen *g);

void sprandom_report_free(struct sprandom_report *r);
int sprandom_report_dup(struct sprandom_report **dst, const struct sprandom_report *src);

#endif
