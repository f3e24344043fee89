/* job_output.h - what a job asks of fio's outputs: the log files
 * (write_bw_log, write_lat_log, write_iops_log, write_hist_log and the
 * log_* options that shape them) and which of its options came from the
 * global section, for fio JSON's "global options", and disk_util. One sub-struct of
 * struct job_spec (spec->output); the options are in job_output.c's table. */
#ifndef DRIVEBENCH_JOB_OUTPUT_H
#define DRIVEBENCH_JOB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_LOG_NAME_MAX 1024
#define LOG_MSEC_LIMIT 86400000u        /* log_avg_msec, log_hist_msec: a day */
#define LOG_HIST_COARSENESS_MAX 6u      /* fio's range: 1856 >> 6 = 29 bins */

/* fio's log kinds, in the order fio names their files. */
enum job_log_kind {
	JOB_LOG_BW,      /* NAME_bw.N.log */
	JOB_LOG_LAT,     /* NAME_lat / NAME_slat / NAME_clat.N.log */
	JOB_LOG_IOPS,    /* NAME_iops.N.log */
	JOB_LOG_HIST,    /* NAME_clat_hist.N.log */
	JOB_LOG_KINDS
};

struct job_output {
	/* write_<kind>_log[=NAME]: on, and the file name's prefix ("" = the
	 * job's name, as fio) */
	bool log[JOB_LOG_KINDS];
	char log_name[JOB_LOG_KINDS][JOB_LOG_NAME_MAX];
	unsigned log_avg_msec;         /* 0 = one entry per I/O */
	unsigned log_hist_msec;        /* 0 = no histogram entries */
	unsigned log_hist_coarseness;  /* bins merged 2^N to one */
	bool log_max_value;            /* the window's max, not its mean */
	bool log_offset;               /* a column with each I/O's offset */
	bool log_prio;                 /* the priority column in full (0x....) */
	bool per_job_logs;             /* default 1: ".N" in the file name */
	bool disk_util;                /* default 1: fio's disk_util in the JSON */
	/* bytes of spec->options_text that came from the global section (or
	 * the options before the first --name): fio JSON's "global options";
	 * the rest are the job's own "job options" */
	size_t global_text_len;
};

struct job_spec;

/* fio's defaults (per_job_logs=1, everything else off). */
void job_output_defaults(struct job_output *o);

/* A job just copied from the global state: what its options text holds
 * so far is global (and so are its engine options, engine_opts.h). */
void job_output_mark_global(struct job_spec *spec);

/* True when the job writes any log file. */
bool job_output_logs(const struct job_output *o);

#endif
