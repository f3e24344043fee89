/* fio_log.h - fio's log files as text, line for line as fio 3.33 writes
 * them (iolog.c flush_samples, flush_hist_samples): the files of a run,
 * each opened once through the output write gate (a log name several
 * clones share with per_job_logs=0 is one file), and a clone's bounded
 * buffer for one of them that is written out whenever it fills, so a log
 * of every I/O never grows in memory. */
#ifndef DRIVEBENCH_FIO_LOG_H
#define DRIVEBENCH_FIO_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's FIO_IO_U_PLAT_NR: the bins of a clat_hist line (29 groups of 64);
 * drivebench's histogram has the same first 1856 buckets. */
#define FIO_LOG_HIST_BINS 1856u

/* A clone's buffer: at least one hist line (1856 numbers) fits. */
#define FIO_LOG_BUF_BYTES (64u << 10)

struct fio_log_file;

/* Every log file of a run. */
struct fio_log_files {
	struct fio_log_file **files;
	unsigned nr, cap;
};

/* The file at path, opened (replaced) through the output gate the first
 * time it is asked for; what names the option for messages. Returns 0, or
 * -1 with err_msg (err_refused() for a device, a kernel file ...). */
int fio_log_files_get(struct fio_log_files *set, const char *what, const char *path,
		      struct fio_log_file **out);
/* Closes every file. Returns 0, or -1 with err_msg naming the first file
 * a write or the close failed on. */
int fio_log_files_close(struct fio_log_files *set);

/* One entry's columns besides time and value. */
struct fio_log_cols {
	bool offset;      /* log_offset=1: the offset column */
	bool prio_hex;    /* log_prio=1: the priority as 0x%04x */
};

/* A clone's buffer for one file. */
struct fio_log_buf {
	struct fio_log_file *file;
	struct fio_log_cols cols;
	char *text;
	size_t used;
};

int fio_log_buf_init(struct fio_log_buf *b, struct fio_log_file *file,
		     struct fio_log_cols cols);
/* "T, VALUE, DIR, BS[, OFFSET], PRIO" (fio's flush_samples). */
void fio_log_entry(struct fio_log_buf *b, uint64_t t_ms, int64_t value, unsigned dir,
		   uint64_t bs, uint64_t offset, unsigned prio);
/* "T, DIR, BS, N0, N1, ..." with FIO_LOG_HIST_BINS >> coarseness sums of
 * 2^coarseness bins each (fio's flush_hist_samples). */
void fio_log_hist_entry(struct fio_log_buf *b, uint64_t t_ms, unsigned dir, uint64_t bs,
			const uint64_t bins[FIO_LOG_HIST_BINS], unsigned coarseness);
/* Writes what the buffer holds (under the file's lock); a failure is kept
 * with the file and reported when it is closed. */
void fio_log_buf_flush(struct fio_log_buf *b);
/* Flushes and frees the buffer. */
void fio_log_buf_free(struct fio_log_buf *b);

/* The text of a log line as fio formats it, for tests: a u64 in decimal. */
char *fio_log_u64(char *p, uint64_t v);

#endif
