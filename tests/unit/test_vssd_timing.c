/* test_vssd_timing.c - the virtual SSD's clock (src/vssd/timing.c): a QD1
 * read takes exactly the modelled path; reads on different dies overlap
 * and on one die queue; closed-loop IOPS scales with outstanding I/O up to
 * the dies' parallelism and then latency grows as Little's law says; the
 * link caps sequential reads; the write buffer acknowledges at once until
 * it is full and then at the drains; a host read suspends a program or
 * erase and the die's queue resumes later by the read's time, a GC read
 * does not; a die's planes read on their own but program and erase as
 * one; tPROG spreads as program_jitter says around its mean; reads
 * retry as often as read_retry_rate says; bad parameters are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/error.h"
#include "vssd/timeline.h"
#include "vssd/timing.h"

#define US 1000ull

/* 8 channels x 4 dies, TLC-like: tR 50 us, tPROG 600 us (SLC 20/150),
 * 16 KiB pages, 1.2 GB/s channels, a 7 GB/s link, 2 us per command and
 * 3M commands/s. */
static struct timing_params params(void)
{
	return (struct timing_params){
		.channels = 8, .dies_per_channel = 4, .page_bytes = 16384,
		.read_ns = { 50 * US, 20 * US }, .program_ns = { 600 * US, 150 * US },
		.erase_ns = 3000 * US, .channel_bytes_per_ns = 1.2,
		.link_bytes_per_ns = 7.0, .command_ns = 2 * US, .commands_per_ns = 0.003,
		.write_buffer_bytes = 1u << 20,
	};
}

static uint64_t xfer(uint64_t bytes, double rate)
{
	return (uint64_t)ceil((double)bytes / rate);
}

/* a 4 KiB read of one page on die: command, tR, page over the channel,
 * 4 KiB over the link */
static uint64_t read_4k(struct timing *t, uint32_t die, uint64_t submit)
{
	uint64_t start = timing_command_start(t, 0, submit);
	uint64_t done = timing_nand_op(t, NAND_READ, NAND_NATIVE, die, 0, 4096, start);

	return timing_read_out(t, 4096, done);
}

static void test_qd1_read_is_the_path(void **state)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t expect = 2 * US + 50 * US + xfer(4096, 1.2) + xfer(4096, 7.0);

	(void)state;
	assert_non_null(t);
	assert_int_equal(read_4k(t, 0, 0), expect);
	/* the next, issued when the first is done, takes the same again */
	assert_int_equal(read_4k(t, 0, expect) - expect, expect);
	timing_destroy(t);
}

static void test_dies_overlap_one_die_queues(void **state)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t first, last = 0;

	(void)state;
	/* one read on each of the 8 channels' first die, all at time 0: they
	 * overlap, only the command rate and the link serialise them */
	first = read_4k(t, 0, 0);
	for (uint32_t c = 1; c < 8; c++)
		last = read_4k(t, c * 4, 0);
	assert_true(last - first < 8 * (334 + xfer(4096, 7.0)));
	timing_destroy(t);

	/* four reads on one die queue behind each other's tR */
	t = timing_create(&p);
	for (int i = 0; i < 4; i++)
		last = read_4k(t, 5, 0);
	assert_true(last >= 4 * 50 * US);
	timing_destroy(t);
}

/* Closed loop: qd I/Os outstanding, each resubmitted when it completes,
 * to uniformly random dies. Returns IOPS; *lat the mean latency (ns). */
static double closed_loop(unsigned qd, double *lat)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t due[512], submitted[512], rng = 88172645463325252ull;
	uint64_t now = 0, sum = 0, n = 0, warm = 2000, ios = 20000;

	assert_non_null(t);
	for (unsigned i = 0; i < qd; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		submitted[i] = 0;
		due[i] = read_4k(t, (uint32_t)(rng % 32), 0);
	}
	uint64_t t0 = 0;
	while (n < warm + ios) {
		unsigned k = 0;

		for (unsigned i = 1; i < qd; i++)
			if (due[i] < due[k])
				k = i;
		now = due[k];
		if (n == warm)
			t0 = now;
		if (n >= warm)
			sum += now - submitted[k];
		n++;
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		submitted[k] = now;
		due[k] = read_4k(t, (uint32_t)(rng % 32), now);
	}
	timing_destroy(t);
	*lat = (double)sum / (double)ios;
	return (double)ios / ((double)(now - t0) / 1e9);
}

static void test_iops_scale_then_littles_law(void **state)
{
	double lat1, lat4, lat256, iops1 = closed_loop(1, &lat1);
	double iops4 = closed_loop(4, &lat4), iops256 = closed_loop(256, &lat256);
	/* 32 dies x 1/tR bound the random reads (the channels' 4 KiB moves,
	 * 3M commands/s and the link's 1.7M 4 KiB/s are all faster) */
	double die_bound = 32.0 / (50e-6);

	(void)state;
	print_message("closed loop: QD1 %.0f IOPS %.1f us, QD4 %.0f IOPS, QD256 %.0f IOPS "
		      "%.1f us (dies bound %.0f)\n", iops1, lat1 / 1e3, iops4, iops256,
		      lat256 / 1e3, die_bound);
	/* QD1: one I/O at a time, 1 / its latency */
	assert_true(fabs(iops1 - 1e9 / lat1) / iops1 < 0.01);
	/* few outstanding on 32 dies: nearly linear (random dies collide a little) */
	assert_true(iops4 > 3.3 * iops1 && iops4 < 4.0 * iops1);
	/* far past the dies: saturated near the die bound, never above */
	assert_true(iops256 <= die_bound * 1.001);
	assert_true(iops256 > 0.9 * die_bound);
	/* and latency is what Little's law says: outstanding / throughput */
	assert_true(fabs(lat256 - 256 / iops256 * 1e9) / lat256 < 0.02);
	assert_true(lat256 > 5 * lat1);
}

static void test_link_caps_sequential_reads(void **state)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t done = 0;

	(void)state;
	/* 1 MiB reads spread over every die, all queued at once: the link
	 * (7 GB/s) is slower than 32 dies' reads, so it sets the rate */
	for (int i = 0; i < 256; i++) {
		uint64_t start = timing_command_start(t, 0, 0), nand = 0;

		for (int pg = 0; pg < 64; pg++) {
			uint64_t d = timing_nand_op(t, NAND_READ, NAND_NATIVE,
						    (uint32_t)((i * 64 + pg) % 32), 0, 0, start);
			nand = d > nand ? d : nand;
		}
		done = timing_read_out(t, 1 << 20, nand);
	}
	double gbs = 256.0 * (1 << 20) / (double)done;   /* bytes per ns = GB/s */
	assert_true(gbs <= 7.0 * 1.0001);
	assert_true(gbs > 0.9 * 7.0 * 0.9);
	timing_destroy(t);
}

/* A write acknowledged whose command started at start and whose data
 * was in at in. */
static uint64_t ack_of(struct timing *t, uint64_t start, uint64_t in, bool partial)
{
	return timing_write_ack(t, &(struct write_arrival){ 4096, start, in, partial });
}

static void test_write_buffer(void **state)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t in, ack = 0;

	(void)state;
	p.write_buffer_bytes = 64 * 1024;
	timing_destroy(t);
	t = timing_create(&p);
	/* 16 writes of 4 KiB fill it: each acknowledged when its data is in */
	for (int i = 0; i < 16; i++) {
		in = timing_write_in(t, 4096, timing_command_start(t, 0, 0));
		ack = ack_of(t, 0, in, false);
		assert_int_equal(ack, in);
	}
	/* their programs drain them at 1 ms: the next write waits for that */
	timing_write_drained(t, 64 * 1024, 1000 * US);
	in = timing_write_in(t, 4096, timing_command_start(t, 0, 0));
	assert_true(in < 1000 * US);
	assert_int_equal(ack_of(t, 0, in, false), 1000 * US);
	/* after the drain, room again: acknowledged on arrival */
	in = timing_write_in(t, 4096, timing_command_start(t, 0, 2000 * US));
	assert_int_equal(ack_of(t, 2000 * US, in, false), in);
	timing_destroy(t);
}

static void test_program_holds_channel_then_die(void **state)
{
	struct timing_params p = params();
	struct timing *t = timing_create(&p);
	uint64_t x = xfer(16384, 1.2);
	struct timing_stats st;

	(void)state;
	assert_int_equal(timing_nand_op(t, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0), x + 600 * US);
	/* SLC is faster; a second program on the die waits for the first */
	assert_int_equal(timing_nand_op(t, NAND_PROGRAM, NAND_SLC, 3, 0, 0, 0),
			 x + 600 * US + 150 * US);
	/* a read behind a program on the same die waits for it (interference) */
	assert_true(timing_nand_op(t, NAND_READ, NAND_NATIVE, 3, 0, 4096, 0) >= x + 750 * US + 50 * US);
	assert_int_equal(timing_nand_op(t, NAND_ERASE, NAND_NATIVE, 7, 0, 0, 0), 3000 * US);
	timing_get_stats(t, &st);
	assert_int_equal(st.nand_ops[NAND_PROGRAM], 2);
	assert_int_equal(st.nand_ops[NAND_READ], 1);
	assert_int_equal(st.nand_ops[NAND_ERASE], 1);
	timing_destroy(t);
}

/* Program/erase suspend: a host read on a die busy with a program starts
 * suspend_ns after it is ready, and whatever was booked on the die ends
 * later by suspend_ns + tR; host reads queue among themselves; a GC read
 * (timing_nand_op) and every read with suspend_ns = 0 queue as before. */
static void test_host_read_suspends_program(void **state)
{
	struct timing_params p = params();
	struct timing *t;
	uint64_t x = xfer(16384, 1.2), x4k = xfer(4096, 1.2), prog_end = x + 600 * US;
	struct timing_stats st;

	(void)state;
	p.suspend_ns = 5 * US;
	t = timing_create(&p);
	assert_non_null(t);
	assert_int_equal(timing_nand_op(t, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0), prog_end);
	/* at 100 us: suspend, tR, then the 4 KiB out over the channel */
	assert_int_equal(timing_host_read(t, NAND_NATIVE, 3, 0, 4096, 100 * US),
			 100 * US + 5 * US + 50 * US + x4k);
	/* a second one at 100 us waits for the first read only */
	assert_int_equal(timing_host_read(t, NAND_NATIVE, 3, 0, 4096, 100 * US),
			 155 * US + 55 * US + x4k);
	/* the program resumed: it, and a GC read behind it, end 2 x 55 us later */
	assert_int_equal(timing_nand_op(t, NAND_READ, NAND_NATIVE, 3, 0, 4096, 0),
			 prog_end + 110 * US + 50 * US + x4k);
	/* an erase is suspended too */
	assert_int_equal(timing_nand_op(t, NAND_ERASE, NAND_NATIVE, 7, 0, 0, 0), 3000 * US);
	assert_int_equal(timing_host_read(t, NAND_NATIVE, 7, 0, 4096, 1000 * US),
			 1055 * US + x4k);
	/* an idle die: an ordinary read, no suspend */
	assert_int_equal(timing_host_read(t, NAND_NATIVE, 9, 0, 4096, 0), 50 * US + x4k);
	timing_get_stats(t, &st);
	assert_int_equal(st.suspends, 3);
	assert_int_equal(st.nand_ops[NAND_READ], 5);
	timing_destroy(t);

	/* suspend_ns = 0: the host read queues behind the program */
	p.suspend_ns = 0;
	t = timing_create(&p);
	timing_nand_op(t, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0);
	assert_int_equal(timing_host_read(t, NAND_NATIVE, 3, 0, 4096, 100 * US),
			 prog_end + 50 * US + x4k);
	timing_get_stats(t, &st);
	assert_int_equal(st.suspends, 0);
	timing_destroy(t);
}

/* erase_slices (issue 29.6): an erase runs in slices between the die's
 * next programs, so no program waits a whole erase (3 ms here); the die
 * spends the same time, and with slices off the first program after the
 * erase waits for all of it. */
static void test_erase_slices(void **state)
{
	struct timing_params p = params();
	const uint64_t xfer_page = xfer(16384, 1.2);
	uint64_t whole[4], sliced[4];

	(void)state;
	struct timing *t = timing_create(&p);
	p.erase_slices = 4;
	struct timing *s = timing_create(&p);

	assert_non_null(t);
	assert_non_null(s);
	assert_int_equal(timing_nand_op(t, NAND_ERASE, NAND_NATIVE, 3, 0, 0, 0), 3000 * US);
	assert_int_equal(timing_nand_op(s, NAND_ERASE, NAND_NATIVE, 3, 0, 0, 0), 0);
	for (int i = 0; i < 4; i++) {
		whole[i] = timing_nand_op(t, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0);
		sliced[i] = timing_nand_op(s, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0);
	}
	/* whole: the first program after the erase; sliced: 750 us before each */
	assert_int_equal(whole[0], 3000 * US + 600 * US);
	assert_int_equal(sliced[0], xfer_page + 750 * US + 600 * US);
	for (int i = 1; i < 4; i++) {
		assert_int_equal(whole[i] - whole[i - 1], 600 * US);
		assert_int_equal(sliced[i] - sliced[i - 1], 750 * US + 600 * US);
	}
	/* the same die time: the last programs end together (the sliced die
	 * took its first page over the channel while idle) */
	assert_int_equal(sliced[3], whole[3] + xfer_page);
	/* owed slices are paid once: the fifth program is a program */
	assert_int_equal(timing_nand_op(s, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0) - sliced[3], 600 * US);
	timing_destroy(s);
	timing_destroy(t);
}

/* planes (issue 29.6): reads of blocks on different planes of one die
 * overlap, reads on one plane queue, and a program holds every plane;
 * one plane is the die as before. */
static void test_planes_read_on_their_own(void **state)
{
	struct timing_params p = params();
	uint64_t x4k = xfer(4096, 1.2), x = xfer(16384, 1.2);
	struct timing *one, *four;

	(void)state;
	p.suspend_ns = 0;
	one = timing_create(&p);
	p.planes = 4;
	four = timing_create(&p);
	assert_non_null(one);
	assert_non_null(four);
	/* blocks 0 and 1 are on planes 0 and 1: both reads take tR at once,
	 * then share the channel */
	assert_int_equal(timing_nand_op(four, NAND_READ, NAND_NATIVE, 3, 0, 4096, 0), 50 * US + x4k);
	assert_int_equal(timing_nand_op(four, NAND_READ, NAND_NATIVE, 3, 1, 4096, 0),
			 50 * US + 2 * x4k);
	/* block 4 is on plane 0 again: it waits for block 0's read */
	assert_int_equal(timing_nand_op(four, NAND_READ, NAND_NATIVE, 3, 4, 4096, 0),
			 100 * US + x4k);
	/* one plane: the second read waits for the first */
	assert_int_equal(timing_nand_op(one, NAND_READ, NAND_NATIVE, 3, 0, 4096, 0), 50 * US + x4k);
	assert_int_equal(timing_nand_op(one, NAND_READ, NAND_NATIVE, 3, 1, 4096, 0),
			 100 * US + x4k);
	/* a program waits for every plane's reads, and a read on any plane
	 * waits for the program */
	assert_int_equal(timing_nand_op(four, NAND_PROGRAM, NAND_NATIVE, 3, 0, 0, 0),
			 100 * US + 600 * US);
	assert_int_equal(timing_nand_op(four, NAND_READ, NAND_NATIVE, 3, 3, 4096, 0),
			 700 * US + 50 * US + x4k);
	/* a host read with suspend on a busy plane of another die */
	timing_destroy(four);
	p.suspend_ns = 5 * US;
	four = timing_create(&p);
	assert_int_equal(timing_nand_op(four, NAND_PROGRAM, NAND_NATIVE, 5, 0, 0, 0), x + 600 * US);
	assert_int_equal(timing_host_read(four, NAND_NATIVE, 5, 2, 4096, 100 * US),
			 100 * US + 55 * US + x4k);
	/* the program resumed 55 us later; a second plane's host read at the
	 * same time does not wait for the first (they are on two planes) */
	assert_int_equal(timing_host_read(four, NAND_NATIVE, 5, 3, 4096, 100 * US),
			 100 * US + 55 * US + 2 * x4k);
	assert_int_equal(timing_nand_op(four, NAND_READ, NAND_NATIVE, 5, 1, 4096, 0),
			 x + 600 * US + 110 * US + 50 * US + x4k);
	timing_destroy(four);
	timing_destroy(one);
}

/* program_jitter: each tPROG lies within +-jitter of program_ns, they
 * differ, their mean stays program_ns (within 1% over 10000), and two
 * clocks made alike give the same sequence; 0 is the plain tPROG. */
static void test_program_jitter(void **state)
{
	struct timing_params p = params();
	struct timing *a, *b;
	uint64_t prev_a = 0, prev_b = 0, lo = UINT64_MAX, hi = 0;
	double sum = 0;
	const int n = 10000;

	(void)state;
	p.program_jitter = 0.1;
	a = timing_create(&p);
	b = timing_create(&p);
	assert_non_null(a);
	assert_non_null(b);
	for (int i = 0; i < n; i++) {
		/* one die: each program starts when the last ends */
		uint64_t end_a = timing_nand_op(a, NAND_PROGRAM, NAND_NATIVE, 0, 0, 0, 0);
		uint64_t end_b = timing_nand_op(b, NAND_PROGRAM, NAND_NATIVE, 0, 0, 0, 0);
		uint64_t took = end_a - (i ? prev_a : xfer(16384, 1.2));

		assert_int_equal(end_a, end_b);
		lo = took < lo ? took : lo;
		hi = took > hi ? took : hi;
		sum += (double)took;
		prev_a = end_a;
		prev_b = end_b;
	}
	(void)prev_b;
	assert_true(lo >= 540 * US && hi <= 660 * US);
	assert_true(hi - lo > 100 * US);   /* it spreads over the range */
	assert_true(fabs(sum / n - 600.0 * US) < 6.0 * US);
	timing_destroy(a);
	timing_destroy(b);
}

/* read_retry_rate: about that share of 4 KiB reads (on idle planes)
 * takes read_retry_ns more, a 32 KiB read about 8 times as often; the
 * retries are counted and a second clock made alike retries the same
 * reads; 0 never retries. */
static void test_read_retry(void **state)
{
	struct timing_params p = params();
	struct timing *a, *b;
	struct timing_stats st;
	const int n = 200000;
	int slow4k = 0, slow32k = 0;

	(void)state;
	p.read_retry_rate = 0.002;
	p.read_retry_ns = 900 * US;
	p.page_bytes = 32768;
	a = timing_create(&p);
	b = timing_create(&p);
	assert_non_null(a);
	assert_non_null(b);
	for (int i = 0; i < n; i++) {
		/* each read on a plane idle by then: 10 ms apart */
		uint64_t at = (uint64_t)i * 10000 * US;
		uint64_t done = timing_nand_op(a, NAND_READ, NAND_NATIVE, 0, 0, 4096, at);

		assert_int_equal(timing_nand_op(b, NAND_READ, NAND_NATIVE, 0, 0, 4096, at), done);
		slow4k += done - at > 500 * US;
		if (done - at > 500 * US)
			assert_int_equal(timing_take_retry(a), 900 * US);
		else
			assert_int_equal(timing_take_retry(a), 0);
	}
	for (int i = 0; i < n / 8; i++) {
		uint64_t at = (uint64_t)(n + i) * 10000 * US;

		slow32k += timing_nand_op(a, NAND_READ, NAND_NATIVE, 1, 0, 32768, at) - at > 500 * US;
	}
	print_message("retries: 4K %d of %d, 32K %d of %d\n", slow4k, n, slow32k, n / 8);
	assert_true(slow4k > n * 0.002 * 0.8 && slow4k < n * 0.002 * 1.2);
	assert_true(slow32k > n / 8 * 0.016 * 0.8 && slow32k < n / 8 * 0.016 * 1.2);
	timing_get_stats(a, &st);
	assert_int_equal(st.read_retries, (uint64_t)(slow4k + slow32k));
	timing_destroy(a);
	timing_destroy(b);
	p.read_retry_rate = 0;
	a = timing_create(&p);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(timing_nand_op(a, NAND_READ, NAND_NATIVE, 0, 0, 4096,
						(uint64_t)i * 1000 * US),
				 (uint64_t)i * 1000 * US + 50 * US + xfer(4096, 1.2));
	timing_destroy(a);
}

static void test_bad_parameters(void **state)
{
	struct timing_params p;

	(void)state;
	p = params();
	p.channels = 0;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "channels"));
	p = params();
	p.dies_per_channel = 70000;
	assert_null(timing_create(&p));
	p = params();
	p.write_buffer_bytes = 4096;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "write buffer"));
	p = params();
	p.link_bytes_per_ns = 0;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "rates"));
	p = params();
	p.commands_per_ns = 0;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "command rates"));
	p = params();
	p.program_ns[NAND_SLC] = 0;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "program times"));
	p = params();
	p.erase_ns = 0;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "erase"));
	p = params();
	p.planes = 17;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "17 planes"));
	p = params();
	p.program_jitter = 1;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "program_jitter"));
	p.program_jitter = NAN;
	assert_null(timing_create(&p));
	p = params();
	p.read_retry_rate = 1;
	assert_null(timing_create(&p));
	assert_non_null(strstr(err_msg(), "read_retry_rate"));
}

/* A channel fills gaps: a die that is ready early is not queued behind a
 * transfer booked for later. */
static void test_timeline_fills_gaps(void **state)
{
	struct timeline tl = { 0 };

	(void)state;
	assert_int_equal(timeline_book(&tl, 100, 10), 100);   /* [100,110) */
	assert_int_equal(timeline_book(&tl, 0, 10), 0);       /* before it */
	assert_int_equal(timeline_book(&tl, 95, 10), 110);    /* overlaps: after */
	assert_int_equal(timeline_book(&tl, 10, 10), 10);     /* touches [0,10): merged */
	assert_int_equal(timeline_book(&tl, 15, 80), 20);     /* fills 20..100 exactly */
	assert_int_equal(tl.nr, 1);                           /* all one interval now */
	assert_int_equal(tl.iv[tl.head].end, 120);
	assert_int_equal(tl.busy_ns, 120);
	timeline_prune(&tl, 120);
	assert_int_equal(tl.nr, 0);
	/* pending work stays bounded by what is booked ahead of now */
	for (uint64_t i = 0; i < 100000; i++) {
		timeline_prune(&tl, i * 10);
		timeline_book(&tl, i * 10 + 5, 3);
	}
	assert_true(tl.nr <= 2);
	timeline_free(&tl);
}

/* write_ack_us: the buffer takes writes one at a time, so 8 writes that
 * arrive together are acknowledged write_ack_ns apart (issue 29); 0 (the
 * default) acknowledges them all on arrival. */
static void test_write_ack_intake(void **state)
{
	struct timing_params p = params();
	uint64_t ack[8];

	(void)state;
	for (int on = 0; on < 2; on++) {
		p.write_ack_ns = on ? 6500 : 0;
		struct timing *t = timing_create(&p);

		assert_non_null(t);
		for (int i = 0; i < 8; i++)
			ack[i] = ack_of(t, 1000 * US, 1000 * US, i % 2);
		for (int i = 0; i < 8; i++)
			assert_int_equal(ack[i], 1000 * US + (on ? (uint64_t)(i + 1) * 6500 : 0));
		timing_destroy(t);
	}
}

/* write_ack_queued_ns (issue 29.7): each partial write the drive holds
 * when a partial write reaches the intake adds to that write's time
 * there; once they are acknowledged a write takes write_ack_ns alone
 * again. Whole-unit writes neither pay it nor count. */
static void test_write_ack_grows_with_writes_held(void **state)
{
	struct timing_params p = params();
	struct timing *t;
	uint64_t at = 1000 * US, expect = at;

	(void)state;
	p.write_ack_ns = 5 * US;
	p.write_ack_queued_ns = 100;
	assert_non_null(t = timing_create(&p));
	/* eight partial writes in at once: the k-th meets k held; a whole
	 * unit's write between them takes 5 us only, and is not counted */
	for (uint64_t k = 0; k < 8; k++) {
		expect += 5 * US + 100 * k;
		assert_int_equal(ack_of(t, at, at, true), expect);
		expect += 5 * US;
		assert_int_equal(ack_of(t, at, at, false), expect);
	}
	/* after the last is acknowledged, none is held */
	assert_int_equal(ack_of(t, expect + 1, expect + 1, true), expect + 1 + 5 * US);
	/* two in at once again: the second meets one held */
	assert_int_equal(ack_of(t, expect + 100 * US, expect + 100 * US, true), expect + 105 * US);
	assert_int_equal(ack_of(t, expect + 100 * US, expect + 100 * US, true),
			 expect + 110 * US + 100);
	timing_destroy(t);
}

/* The intake works on a write from its command's start, beside the data's
 * transfer: a write is acknowledged at the later of the intake's end and
 * its data's arrival (issue 29: the P5336's 16K and 64K writes at QD1,
 * 28 and 25 us, cost the same). */
static void test_write_ack_beside_transfer(void **state)
{
	struct timing_params p = params();
	struct timing *t;

	(void)state;
	p.write_ack_ns = 20 * US;
	assert_non_null(t = timing_create(&p));
	/* data in 3 us after the start: the intake's 20 us decide */
	assert_int_equal(ack_of(t, 1000 * US, 1003 * US, false), 1020 * US);
	/* data in 30 us after the start: its arrival decides */
	assert_int_equal(ack_of(t, 2000 * US, 2030 * US, false), 2030 * US);
	/* two starting together: the second's intake follows the first's */
	assert_int_equal(ack_of(t, 3000 * US, 3001 * US, false), 3020 * US);
	assert_int_equal(ack_of(t, 3000 * US, 3001 * US, false), 3040 * US);
	timing_destroy(t);
}

/* queue_write_mbs (issue 29.10): each submission queue moves its writes'
 * data in at most queue_write_bytes_per_ns, so 8 x 128K writes that
 * arrive together on one queue are in bytes / rate apart, while on 8
 * queues only the shared link spaces them; a lone write's queue transfer
 * overlaps its crossing of the link, so it pays only what the queue is
 * slower than the link. Off (0), a write is in when the link is done. */
static void test_queue_write_rate(void **state)
{
	struct timing_params p = params();
	const uint64_t bytes = 128 << 10, link = xfer(bytes, 14.0), lane = xfer(bytes, 7.0);
	uint64_t one[8], many[8], in;

	(void)state;
	p.link_bytes_per_ns = 14.0;
	struct timing *off = timing_create(&p);
	p.queue_write_bytes_per_ns = 7.0;
	struct timing *t = timing_create(&p);

	assert_non_null(off);
	assert_non_null(t);
	in = timing_write_in(off, bytes, 0);
	assert_int_equal(timing_queue_write(off, 0, bytes, in), in);
	/* alone: the link (9.4 us) and the queue (18.7 us) begin together */
	in = timing_write_in(t, bytes, 0);
	assert_int_equal(in, link);
	assert_int_equal(timing_queue_write(t, 0, bytes, in), lane);
	for (int i = 0; i < 8; i++)   /* one queue: its rate */
		one[i] = timing_queue_write(t, 1, bytes, timing_write_in(t, bytes, 1000 * US));
	for (int i = 1; i < 8; i++)
		assert_in_range(one[i] - one[i - 1], lane - 1, lane + 1);
	for (int i = 0; i < 8; i++)   /* eight queues: the link's */
		many[i] = timing_queue_write(t, 2 + (uint32_t)i, bytes,
					     timing_write_in(t, bytes, 2000 * US));
	for (int i = 1; i < 8; i++)
		assert_in_range(many[i] - many[i - 1], link - 1, link + 1);
	assert_true(many[7] - 2000 * US < one[7] - 1000 * US);
	timing_destroy(t);
	timing_destroy(off);
}

/* write_intake_mbs (issue 29.10): the buffer takes every write's data one
 * after another at its intake rate, whatever their queues, so 8 x 128K
 * writes on 8 queues are in bytes / rate apart (the drive's ceiling); a
 * queue slower than the intake still bounds its own writes. */
static void test_write_intake_rate(void **state)
{
	struct timing_params p = params();
	const uint64_t bytes = 128 << 10, intake = xfer(bytes, 7.0), lane = xfer(bytes, 5.0);
	uint64_t in[8], one[3];

	(void)state;
	p.link_bytes_per_ns = 14.0;
	p.write_intake_bytes_per_ns = 7.0;
	struct timing *t = timing_create(&p);

	assert_non_null(t);
	/* alone: the intake (18.7 us) begun with the link (9.4 us) */
	assert_int_equal(timing_queue_write(t, 0, bytes, timing_write_in(t, bytes, 0)), intake);
	for (uint32_t i = 0; i < 8; i++)
		in[i] = timing_queue_write(t, i, bytes, timing_write_in(t, bytes, 1000 * US));
	for (int i = 1; i < 8; i++)
		assert_in_range(in[i] - in[i - 1], intake - 1, intake + 1);
	timing_destroy(t);
	/* with a 5 B/ns queue in front, one queue's writes are its rate apart */
	p.queue_write_bytes_per_ns = 5.0;
	assert_non_null(t = timing_create(&p));
	for (int i = 0; i < 3; i++)
		one[i] = timing_queue_write(t, 0, bytes, timing_write_in(t, bytes, 0));
	for (int i = 1; i < 3; i++)
		assert_in_range(one[i] - one[i - 1], lane - 1, lane + 1);
	timing_destroy(t);
}

/* queue_us (issue 29.4): a submission queue takes one command every
 * queue_ns, so 4 commands that arrive together on one queue start
 * queue_ns apart, while on 4 queues they start together; a lone command
 * pays no more than command_ns (the rate, not the latency); with
 * queue_ns 0 one queue takes them all at once. */
/* within the shared intake's 1 ns per command of expect */
static void assert_start(uint64_t got, uint64_t expect)
{
	assert_in_range(got, expect, expect + 16);
}

static void test_queue_takes_one_at_a_time(void **state)
{
	struct timing_params p = params();

	(void)state;
	p.commands_per_ns = 1000;   /* the shared intake: 1 ns a command */
	for (int on = 0; on < 2; on++) {
		p.queue_ns = on ? 8 * US : 0;
		struct timing *t = timing_create(&p);

		assert_non_null(t);
		assert_start(timing_command_start(t, 7, 0), 2 * US);   /* alone */
		for (uint32_t i = 0; i < 4; i++)   /* one queue, at 100 us */
			assert_start(timing_command_start(t, 0, 100 * US),
					 100 * US + (on ? i * 8 * US : 0) + 2 * US);
		for (uint32_t q = 1; q <= 4; q++)   /* four queues, at 200 us */
			assert_start(timing_command_start(t, q, 200 * US), 202 * US);
		/* queue 0 is idle again by 300 us: no wait */
		assert_start(timing_command_start(t, 0, 300 * US), 302 * US);
		/* queues past TIMING_QUEUES share: q and q + TIMING_QUEUES are one */
		assert_start(timing_command_start(t, 9, 400 * US), 402 * US);
		assert_start(timing_command_start(t, 9 + TIMING_QUEUES, 400 * US),
				 402 * US + (on ? 8 * US : 0));
		timing_destroy(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_ack_intake),
		cmocka_unit_test(test_write_ack_grows_with_writes_held),
		cmocka_unit_test(test_write_ack_beside_transfer),
		cmocka_unit_test(test_queue_write_rate),
		cmocka_unit_test(test_write_intake_rate),
		cmocka_unit_test(test_erase_slices),
		cmocka_unit_test(test_queue_takes_one_at_a_time),
		cmocka_unit_test(test_qd1_read_is_the_path),
		cmocka_unit_test(test_dies_overlap_one_die_queues),
		cmocka_unit_test(test_iops_scale_then_littles_law),
		cmocka_unit_test(test_link_caps_sequential_reads),
		cmocka_unit_test(test_write_buffer),
		cmocka_unit_test(test_program_holds_channel_then_die),
		cmocka_unit_test(test_host_read_suspends_program),
		cmocka_unit_test(test_planes_read_on_their_own),
		cmocka_unit_test(test_program_jitter),
		cmocka_unit_test(test_read_retry),
		cmocka_unit_test(test_bad_parameters),
		cmocka_unit_test(test_timeline_fills_gaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
