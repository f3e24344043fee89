/* gds.h - the gdsio-style sweep behind `drivebench gds`: the sweep's points
 * (direction x block size x threads), the one job spec each point runs
 * through the runner (ioengine=cufile), and gdsio's per-point output line
 * (report/analysis/record_kind.c recognises a stored GDS point). */
#ifndef DRIVEBENCH_GDS_H
#define DRIVEBENCH_GDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/stats.h"
#include "job/job_spec.h"

#define GDS_MAX_RW 4
#define GDS_MAX_BS 16
#define GDS_MAX_THREADS 32
#define GDS_DEFAULT_RUNTIME_NS (10ull * 1000000000ull)

struct gds_sweep {
	enum rw_mode rw[GDS_MAX_RW];
	unsigned nr_rw;
	uint64_t bs[GDS_MAX_BS];
	unsigned nr_bs;
	unsigned threads[GDS_MAX_THREADS];
	unsigned nr_threads;
	int xfer;                      /* enum gds_xfer */
	unsigned gpu;                  /* -d */
	uint64_t runtime_ns;           /* -T */
	uint64_t file_size;            /* -s: bytes per file; 0 = the file's size */
	char filename[JOB_PATH_MAX];   /* -f / TARGET: one file shared by the threads */
	char directory[JOB_PATH_MAX];  /* -D: a file per thread */
};

/* What the store keeps about the GPU path of every point (options_json). */
struct gds_path {
	const char *mode;              /* "gds", "compat" or "host" */
	const char *gpu_model;         /* "" when unknown */
	const char *no_gpu;            /* why no GPU path was available, or "" */
};

/* The review sweep: read and write x {16K,128K,1M} x threads
 * {1,4,8,16,32,64,128}, CPU_ONLY, 10 s per point. */
void gds_sweep_defaults(struct gds_sweep *s);

/* Comma lists: "read,write" (also randread, randwrite), "16k,128k,1m"
 * (binary units), "1,4,8". Replace the sweep's list; -1 with err_msg. */
int gds_parse_rw_list(const char *text, struct gds_sweep *s);
int gds_parse_bs_list(const char *text, struct gds_sweep *s);
int gds_parse_threads_list(const char *text, struct gds_sweep *s);
/* gdsio -I: 0 read, 1 write, 2 randread, 3 randwrite. */
int gds_parse_io_type(const char *text, struct gds_sweep *s);

/* The region each thread works in: with a directory, its own file of
 * file_size bytes; with one shared file, file_size / threads rounded down
 * to the block size (gdsio splits one file among its threads). -1 with
 * err_msg when a thread would get less than one block. */
int gds_thread_region(const struct gds_sweep *s, uint64_t bs, unsigned threads,
		      uint64_t *region);
/* The data set of a point: the bytes of every file the threads use. */
uint64_t gds_dataset_bytes(const struct gds_sweep *s, unsigned threads);

/* The job of one point: numjobs = threads, iodepth 1, ioengine=cufile,
 * direct, time_based for runtime_ns, group_reporting; options_text holds
 * the options and the GPU path for the store. file_size must be known. */
int gds_point_job(const struct gds_sweep *s, enum rw_mode rw, uint64_t bs,
		  unsigned threads, const struct gds_path *path, struct job_spec *out);

/* gdsio's IoType: READ, WRITE, RANDREAD, RANDWRITE. */
const char *gds_io_type(enum rw_mode rw);

/* One line of gdsio's output. */
struct gds_line {
	const char *io_type;
	const char *xfer;              /* gds_xfer_label() */
	unsigned threads;
	uint64_t transferred_kib, dataset_kib, io_kib;
	double gib_per_s, avg_latency_us, total_time_s;
	uint64_t ops;
};

/* The figures of a measured point (group_reporting result): KiB moved,
 * GiB/s (2^30) over the measured time, mean total latency, ops. */
void gds_line_from_result(const struct job_result *r, enum rw_mode rw, const char *xfer,
			  unsigned threads, uint64_t dataset_bytes, struct gds_line *line);
/* "IoType: READ XferType: GPUD Threads: 8 DataSetSize: 818796544/4096000(KiB)
 * IOSize: 1024(KiB) Throughput: 6.622534 GiB/sec, Avg_Latency: 589.440000
 * usecs ops: 102380 total_time 15.097011 secs" (one line, no newline).
 * -1 with err_msg when buf is too small. */
int gds_format_line(const struct gds_line *line, char *buf, size_t len);


#endif
