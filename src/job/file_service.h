/* file_service.h - which of a job's files the next I/O goes to, as fio's
 * file_service_type decides it: round robin, sequential (one file until
 * it is done), uniform random, or zipf / pareto / normal over the files
 * (fio draws over nrfiles x 1024 ranks, the first file the hottest unless
 * a centre is given or, for zipf and pareto, a random rotation). This
 * proposes candidates; run/files.c skips those that are done or cannot be
 * opened. */
#ifndef DRIVEBENCH_FILE_SERVICE_H
#define DRIVEBENCH_FILE_SERVICE_H

#include <stdint.h>

#include "job/file_options.h"
#include "job/offsets.h"
#include "job/random.h"

#define FILE_SERVICE_SHIFT 10   /* fio's FIO_FSERVICE_SHIFT */

struct file_picker {
	enum file_service kind;
	unsigned n;
	unsigned next;              /* round robin / sequential: next candidate */
	struct rng rng;
	struct offset_gen *ranks;   /* zipf, pareto */
	uint64_t rotate;            /* added to a rank, modulo the ranks */
	uint64_t gauss_dev;         /* normal: fio's deviation in ranks */
};

/* Sets p up for n files (n >= 1) as f says. Returns 0, or -1 with err_msg
 * (out of memory, bad parameters). */
int file_picker_init(struct file_picker *p, const struct job_files *f, unsigned n,
		     uint64_t seed);
/* The next candidate, in [0, n). */
unsigned file_picker_next(struct file_picker *p);
void file_picker_free(struct file_picker *p);

#endif
