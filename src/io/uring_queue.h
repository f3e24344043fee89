#ifndef DRIVEBENCH_IO_URING_QUEUE_H
#define DRIVEBENCH_IO_URING_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <liburing.h>

#include "io/engine.h"

/* The ring and its counts as the io_uring and io_uring_cmd engines drive
 * it: both submit, reap and wait the same way (one loop, on the hot path,
 * for both). who prefixes the errors ("" or "io_uring_cmd: "). */
struct uring_queue {
	struct io_uring ring;
	const char *who;
	bool sqpoll;           /* the SQ thread consumes entries on its own */
	bool poll_on_reap;     /* IOPOLL without SQPOLL: reap must enter */
	unsigned queued;       /* prepared, not yet submitted */
	unsigned inflight;     /* submitted, not yet reaped */
};

/* Submits every queued entry: their count, or -1 with err_msg. */
int uring_queue_submit(struct uring_queue *q);
/* Reaps between min and max completions into out, each io's result the
 * CQE's res: their count, or -1 with err_msg. */
int uring_queue_reap(struct uring_queue *q, struct io **out, unsigned min, unsigned max);
/* Waits up to timeout_ns for a completion when any is in flight: 0 / -1. */
int uring_queue_wait(struct uring_queue *q, uint64_t timeout_ns);

#endif
