/* test_vssd_engine.c - the vssd engine (src/io/vssd.c) on the runner's
 * side of the contract: a command reaches the modelled drive at the
 * runner's submit stamp (issue_ns), so however late the stamp comes after
 * the submit call, completion - issue (clat) is the model's latency and
 * never negative; in a batch, in a queue filled one submit at a time, and
 * for I/Os cancelled before any reap (the drive still takes them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/engine.h"
#include "io/vssd.h"
#include "util/clock.h"
#include "util/error.h"
#include "vssd/drive.h"
#include "vssd/model.h"

/* 8 dies, command_us 5, a 256 KiB write buffer: a 4K write on an idle
 * drive is acknowledged about 5.5 us after it arrives. */
#define MODEL "tests/data/models/test-pts.ini"
#define DEPTH 8u
#define BS 4096u
#define LATE_NS 2000000ull   /* a submit stamped 2 ms late: far over 5.5 us */

struct rig {
	struct engine e;
	struct job_spec spec;
	struct io ios[DEPTH];
};

/* A fresh drive per scale in this process: each test names its own. */
static void rig_start(struct rig *r, const char *scale)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->spec.eng.vssd.model, sizeof(r->spec.eng.vssd.model), "%s", MODEL);
	snprintf(r->spec.eng.vssd.scale, sizeof(r->spec.eng.vssd.scale), "%s", scale);
	r->e.ops = engine_find("vssd");
	assert_non_null(r->e.ops);
	r->e.fd = -1;
	r->e.depth = DEPTH;
	r->e.ios = r->ios;
	r->e.nr_ios = DEPTH;
	r->e.buf_size = BS;
	r->e.range_len = 16u << 20;
	if (r->e.ops->check(&r->spec) || r->e.ops->init(&r->e, &r->spec))
		fail_msg("%s", err_msg());
}

/* The same model as a bare drive, to recompute the engine's times. */
static struct vdrive *reference(const char *scale)
{
	struct vssd_model m;
	struct vdrive *d;

	if (vssd_model_load(MODEL, scale, &m))
		fail_msg("%s", err_msg());
	assert_non_null(d = vdrive_create(&m));
	return d;
}

static void prep(struct rig *r, unsigned i, uint8_t dir)
{
	struct io *io = &r->ios[i];

	io->dir = dir;
	io->offset = (uint64_t)i * 64 * BS;
	io->len = BS;
	io->start_ns = clock_now_ns();
	io->complete_ns = 0;
	assert_int_equal(r->e.ops->prep(&r->e, io), 0);
}

static void sleep_ns(uint64_t ns)
{
	clock_sleep_until_ns(clock_now_ns() + ns);
}

/* Reaps n completions (waiting), each one of ios[]. */
static void reap_all(struct rig *r, unsigned n)
{
	struct io *out[DEPTH];
	unsigned got = 0;

	while (got < n) {
		int k = r->e.ops->reap(&r->e, out, 1, DEPTH);

		assert_true(k >= 0);
		for (int i = 0; i < k; i++) {
			assert_true(out[i] >= r->ios && out[i] < r->ios + DEPTH);
			assert_int_equal(out[i]->result, (int32_t)out[i]->len);
		}
		got += (unsigned)k;
	}
	assert_int_equal(got, n);
}

/* The slow submit of the report: the runner stamps an I/O issued after
 * the submit call returns (an async engine, fio's issue_time), and
 * anything that call costs (the drive's lock, GC booked inline, the thread
 * descheduled) comes before the stamp. Booked at the call's own clock,
 * the 4K write completed 5.5 us after the call began, 2 ms before the
 * stamp: clat -1.99 ms, stored as 2^64 - 1994479. */
static void test_late_stamp_is_the_arrival(void **state)
{
	struct vdrive *ref = reference("64m");
	struct rig r;
	uint64_t done;

	(void)state;
	rig_start(&r, "64m");
	prep(&r, 0, DIR_WRITE);
	assert_int_equal(r.e.ops->submit(&r.e), 1);
	sleep_ns(LATE_NS);
	r.ios[0].issue_ns = clock_now_ns();
	reap_all(&r, 1);
	assert_true(r.ios[0].complete_ns >= r.ios[0].issue_ns);
	/* exactly the model's latency for a command arriving at the stamp */
	assert_int_equal(vdrive_io(ref, 0, VDRIVE_WRITE, 0, BS, r.ios[0].issue_ns, &done), 0);
	assert_int_equal(r.ios[0].complete_ns - r.ios[0].issue_ns, done - r.ios[0].issue_ns);
	assert_true(done - r.ios[0].issue_ns >= 5000);   /* command_us */
	assert_true(done - r.ios[0].issue_ns < 100000);
	r.e.ops->cleanup(&r.e);
	vdrive_destroy(ref);
}

/* A batch of reads and writes in one submit, stamped late together; then
 * a queue filled one submit (and one stamp) at a time, each stamp late,
 * as the loop fills iodepth slots: the next submit books the last. */
static void test_batch_and_fill_never_complete_before_issue(void **state)
{
	struct vdrive *ref = reference("96m");
	struct rig r;
	uint64_t issued, done;

	(void)state;
	rig_start(&r, "96m");
	for (unsigned i = 0; i < DEPTH; i++)
		prep(&r, i, i % 2 ? DIR_READ : DIR_WRITE);
	assert_int_equal(r.e.ops->submit(&r.e), (int)DEPTH);
	sleep_ns(LATE_NS);
	issued = clock_now_ns();
	for (unsigned i = 0; i < DEPTH; i++)
		r.ios[i].issue_ns = issued;
	reap_all(&r, DEPTH);
	for (unsigned i = 0; i < DEPTH; i++) {
		assert_true(r.ios[i].complete_ns >= issued + 5000);
		assert_int_equal(vdrive_io(ref, 0, r.ios[i].dir == DIR_READ ? VDRIVE_READ : VDRIVE_WRITE,
					   r.ios[i].offset, BS, issued, &done), 0);
		assert_int_equal(r.ios[i].complete_ns, done);   /* booked in submission order */
	}
	for (unsigned i = 0; i < DEPTH; i++) {
		prep(&r, i, DIR_WRITE);
		assert_int_equal(r.e.ops->submit(&r.e), 1);
		sleep_ns(LATE_NS / 4);
		r.ios[i].issue_ns = clock_now_ns();
	}
	reap_all(&r, DEPTH);
	for (unsigned i = 0; i < DEPTH; i++) {
		assert_true(r.ios[i].complete_ns >= r.ios[i].issue_ns + 5000);
		assert_true(r.ios[i].complete_ns - r.ios[i].issue_ns < 1000000);
	}
	r.e.ops->cleanup(&r.e);
	vdrive_destroy(ref);
}

/* A stopping loop cancels what it has not reaped: I/Os submitted but not
 * yet booked come back cancelled too, and the drive has taken them (its
 * host bytes written count them, as before, when submit booked them). */
static void test_cancel_hands_back_unbooked_ios(void **state)
{
	struct vssd_counters c;
	struct io *out[DEPTH];
	struct rig r;
	int n;

	(void)state;
	rig_start(&r, "80m");
	for (unsigned i = 0; i < 3; i++)
		prep(&r, i, DIR_WRITE);
	assert_int_equal(r.e.ops->submit(&r.e), 3);
	for (unsigned i = 0; i < 3; i++)
		r.ios[i].issue_ns = clock_now_ns();
	n = r.e.ops->cancel(&r.e, out, DEPTH);
	assert_int_equal(n, 3);
	for (int i = 0; i < n; i++)
		assert_int_equal(out[i]->result, -ECANCELED);
	assert_int_equal(r.e.ops->cancel(&r.e, out, DEPTH), 0);
	if (vssd_drive_counters(MODEL, "80m", &c))
		fail_msg("%s", err_msg());
	assert_true(c.opened);
	assert_int_equal(c.host_written_bytes, 3 * BS);
	/* the queue is free again */
	for (unsigned i = 0; i < DEPTH; i++)
		prep(&r, i, DIR_READ);
	assert_int_equal(r.e.ops->submit(&r.e), (int)DEPTH);
	r.e.ops->cleanup(&r.e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_stamp_is_the_arrival),
		cmocka_unit_test(test_batch_and_fill_never_complete_before_issue),
		cmocka_unit_test(test_cancel_hands_back_unbooked_ios),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
