/* uring_queue.c - submitting, reaping and waiting on an io_uring ring, for
 * the io_uring and io_uring_cmd engines (uring_queue.h). */
#include "io/uring_queue.h"

#include <errno.h>
#include <string.h>

#include "util/error.h"

#define REAP_BATCH 64

static int queue_error(const struct uring_queue *q, const char *what, int neg_errno)
{
	return err_set("%s%s: %s", q->who, what, strerror(-neg_errno));
}

int uring_queue_submit(struct uring_queue *q)
{
	unsigned total = q->queued, done = 0;

	while (done < total) {
		int ret = io_uring_submit(&q->ring);

		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			q->queued -= done;
			q->inflight += done;
			if (ret == -EEXIST)
				return err_set("%sio_uring_submit: %s (the ring was set up by "
					       "another thread)", q->who, strerror(-ret));
			return queue_error(q, "io_uring_submit", ret);
		}
		/* the SQ thread consumes the entries on its own time */
		if (q->sqpoll)
			break;
		if (ret == 0) {
			q->queued -= done;
			q->inflight += done;
			return err_set("%sio_uring_submit: kernel took none of %u queued I/Os",
				       q->who, total - done);
		}
		done += (unsigned)ret;
	}
	q->queued = 0;
	q->inflight += total;
	return (int)total;
}

int uring_queue_reap(struct uring_queue *q, struct io **out, unsigned min, unsigned max)
{
	struct io_uring_cqe *cqes[REAP_BATCH];
	bool polled = false;
	unsigned got = 0;

	if (max > q->inflight)
		max = q->inflight;
	if (min > max)
		min = max;
	while (got < max) {
		unsigned want = max - got < REAP_BATCH ? max - got : REAP_BATCH;
		unsigned n;
		int ret;

		/* also flushes task work / CQ overflow when the ring looks
		 * empty, so reap(min=0) sees completions without waiting */
		n = io_uring_peek_batch_cqe(&q->ring, cqes, want);
		for (unsigned i = 0; i < n; i++) {
			struct io *io = io_uring_cqe_get_data(cqes[i]);

			io->result = cqes[i]->res;
			out[got++] = io;
		}
		io_uring_cq_advance(&q->ring, n);
		if (n == want)
			continue;
		if (got >= min) {
			if (!q->poll_on_reap || polled)
				break;
			/* polled rings complete only when someone polls */
			polled = true;
			ret = io_uring_get_events(&q->ring);
		} else {
			struct io_uring_cqe *cqe;

			ret = io_uring_wait_cqe_nr(&q->ring, &cqe, min - got);
		}
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -ETIME) {
			q->inflight -= got;
			return queue_error(q, "io_uring_wait_cqe", ret);
		}
	}
	q->inflight -= got;
	return (int)got;
}

int uring_queue_wait(struct uring_queue *q, uint64_t timeout_ns)
{
	struct __kernel_timespec ts = { (long long)(timeout_ns / 1000000000ull),
					(long long)(timeout_ns % 1000000000ull) };
	struct io_uring_cqe *cqe;
	int ret;

	if (!q->inflight)
		return 0;
	ret = io_uring_wait_cqe_timeout(&q->ring, &cqe, &ts);
	if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
		return queue_error(q, "io_uring_wait_cqe_timeout", ret);
	return 0;
}
