/* checks.h - the options of a job that check and report beyond its I/O:
 * how verify units are laid out (verify_pattern, verify_offset,
 * verify_dump, verify_write_sequence, verify_header_seed), fio's steady
 * state (steadystate, ss_dur, ss_ramp, ss_interval), sprandom
 * preconditioning (sprandom, spr_op, spr_num_regions, spr_cs) and the
 * reporting switches (clat/lat/slat_percentiles, unified_rw_reporting,
 * significant_figures). One member of struct job_spec; the option table
 * is check_options.c's, the defaults fio's. */
#ifndef DRIVEBENCH_CHECKS_H
#define DRIVEBENCH_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#define VERIFY_PATTERN_MAX 512     /* fio's MAX_PATTERN_SIZE */
#define VERIFY_PATTERN_FMT_MAX 8   /* %o fields in one pattern, as fio */

/* steadystate= : what is tracked */
enum ss_metric { SS_IOPS, SS_BW, SS_LAT };

/* unified_rw_reporting= */
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };

struct job_checks {
	/* verify_pattern: the bytes (the 8 of each %o zeroed) and where each
	 * %o (the unit's offset, little-endian) goes; pattern_len 0 = none */
	unsigned char pattern[VERIFY_PATTERN_MAX];
	unsigned pattern_len;
	unsigned pattern_fmt[VERIFY_PATTERN_FMT_MAX];
	unsigned nr_pattern_fmt;
	bool verify_set;               /* verify= given: verify_pattern keeps it */
	uint64_t verify_offset;        /* header swapped to this unit offset */
	bool verify_dump;              /* failed units to .received/.expected */
	bool verify_write_sequence;    /* lost-write check (fio's numberio) */
	bool verify_header_seed;       /* another run's seed is a failure */

	/* steady state: ss_dur_ns 0 = off */
	enum ss_metric ss_metric;
	bool ss_slope;                 /* the window's slope, else deviation */
	bool ss_pct;                   /* limit in % of the window's mean */
	double ss_limit;               /* lat without %: nanoseconds */
	uint64_t ss_dur_ns, ss_ramp_ns, ss_interval_ns;

	/* sprandom (fio 3.41) */
	bool sprandom;
	double spr_op;
	unsigned spr_num_regions;
	uint64_t spr_cs;

	/* reporting */
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	enum unified_rw unified_rw;
	unsigned sig_figs;
};

/* fio's defaults. */
void job_checks_defaults(struct job_checks *c);

#endif
