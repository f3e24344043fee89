/* buffering.h - a job's options for what its writes carry and how data
 * meets the page cache and the media, as fio names them: buffer contents
 * (zero_buffers, refill_buffers, scramble_buffers, buffer_pattern,
 * buffer_compress_*, dedupe_*), syncs beside fsync/end_fsync (fdatasync,
 * fsync_on_close) and the page cache (invalidate, fadvise_hint). The
 * runner turns them into buffer contents (run/buffers.c), syncs
 * (run/sync.c) and cache calls (target/cache.c). */
#ifndef DRIVEBENCH_BUFFERING_H
#define DRIVEBENCH_BUFFERING_H

#include <stdbool.h>
#include <stdint.h>

#define BUFFER_PATTERN_MAX 512   /* fio's MAX_PATTERN_SIZE */

/* fadvise_hint= : fio's values */
enum fadvise_hint {
	FADVISE_NONE,        /* 0 */
	FADVISE_TYPE,        /* 1 (default): random or sequential, by rw */
	FADVISE_RANDOM,
	FADVISE_SEQUENTIAL,
	FADVISE_NOREUSE,
};

/* dedupe_mode= */
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };

struct job_buffering {
	/* buffer contents; *_set: the option was given (fio's
	 * fio_option_is_set, which decides some of the defaults) */
	bool zero_buffers, zero_set;
	bool refill_buffers, refill_set;
	bool scramble_buffers, scramble_set;   /* default 1 */
	/* buffer_compress_percentage or dedupe_percentage was given, even
	 * as 0: fio's TD_F_COMPRESS, which turns scrambling off */
	bool compress_given;
	/* dedupe_percentage given: fio then refills unless told otherwise */
	bool dedupe_refill;
	unsigned compress_pct;                 /* 0..100 */
	uint64_t compress_chunk;               /* default 512; 0 = the block */
	unsigned dedupe_pct;                   /* 0..100 */
	enum dedupe_mode dedupe_mode;
	unsigned dedupe_ws_pct;                /* default 5 */
	bool dedupe_global;
	unsigned char pattern[BUFFER_PATTERN_MAX];
	unsigned pattern_len;                  /* 0 = no buffer_pattern */

	/* syncs (fsync=N and end_fsync are job_spec's fsync_every/end_fsync) */
	unsigned fdatasync_every;              /* fdatasync=N */
	bool fsync_on_close;

	/* page cache */
	bool invalidate;                       /* default 1 */
	enum fadvise_hint fadvise;
};

struct job_spec;

/* fio's defaults of these options. */
void buffering_defaults(struct job_buffering *b);

/* The checks between these options and the others (dedupe working set
 * needs a size, its share plus dedupe_percentage at most 100); -1 with
 * err_msg naming the option. */
int buffering_check(const struct job_spec *spec);

#endif
