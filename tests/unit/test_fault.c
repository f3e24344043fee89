/* test_fault.c - the fault engine (ioengine=fault:<engine>): lookup and
 * errors, each fault kind around the null engine and around psync on a
 * temp file (the file really was or was not changed), the fault_* and
 * continue_on_error options, and whole runs through the runner: reported
 * errors equal injected EIOs, failed I/Os are never counted as done,
 * continue_on_error=none stops at the first error, delays show in clat. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/fault.h"
#include "run/runner.h"
#include "util/error.h"
#include "job/job_list.h"
#include "job/options.h"
#include "helpers/fixtures.h"
#include "helpers/tmpdir.h"

#define BS 4096u
#define DEPTH 8u

struct pool {
	struct io ios[DEPTH];
	unsigned char *mem;
};

/* What an engine test needs: a buffer pool, a spec to set options on, the
 * engine, and (for psync) a temp file; the teardown frees whatever is open. */
struct fault_fixture {
	struct pool pool;
	struct job_spec *spec;
	struct engine engine;
	bool engine_open;
	int fd;
	char path[TMPDIR_PATH_MAX + 64];
};

static void pool_init(struct pool *p)
{
	void *mem;

	memset(p, 0, sizeof(*p));
	assert_int_equal(posix_memalign(&mem, 4096, (size_t)DEPTH * BS), 0);
	p->mem = mem;
	memset(p->mem, 0, (size_t)DEPTH * BS);
	for (unsigned i = 0; i < DEPTH; i++) {
		p->ios[i].buf = p->mem + (size_t)i * BS;
		p->ios[i].len = BS;
		p->ios[i].buf_index = (uint16_t)i;
	}
}

static int fixture_setup(void **state)
{
	struct fault_fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	pool_init(&f->pool);
	f->spec = new_spec();
	f->fd = -1;
	*state = f;
	return 0;
}

static void close_engine(struct fault_fixture *f)
{
	if (f->engine_open)
		f->engine.ops->cleanup(&f->engine);
	f->engine_open = false;
}

static int fixture_teardown(void **state)
{
	struct fault_fixture *f = *state;

	close_engine(f);
	if (f->fd >= 0) {
		close(f->fd);
		unlink(f->path);
	}
	free(f->pool.mem);
	free(f->spec);
	free(f);
	*state = NULL;
	return 0;
}

/* Initialises engine `name` over the fixture's pool, spec and fd (-1 unless
 * temp_file made one); returns what init returned. */
static int open_engine(struct fault_fixture *f, const char *name)
{
	const struct engine_ops *ops = engine_find(name);
	struct engine *e = &f->engine;
	int rc;

	assert_non_null(ops);
	memset(e, 0, sizeof(*e));
	e->ops = ops;
	e->fd = f->fd;
	e->depth = DEPTH;
	e->ios = f->pool.ios;
	e->nr_ios = DEPTH;
	e->buf_size = BS;
	rc = ops->init(e, f->spec);
	f->engine_open = rc == 0;
	return rc;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Preps n I/Os of direction dir at offsets first, first + BS, ...; each BS
 * long unless lens gives the lengths. */
static void prep_ios(struct fault_fixture *f, unsigned n, int dir, uint64_t first,
		     const uint32_t *lens)
{
	struct io *ios = f->pool.ios;

	for (unsigned i = 0; i < n; i++) {
		ios[i].dir = (uint8_t)dir;
		ios[i].offset = first + (uint64_t)i * BS;
		ios[i].len = lens ? lens[i] : BS;
		ios[i].result = 0;
		ios[i].complete_ns = 0;
		assert_int_equal(f->engine.ops->prep(&f->engine, &ios[i]), 0);
	}
}

/* Issues one I/O per slot at offsets first, first + BS, ... and reaps all. */
static void run_one_batch(struct fault_fixture *f, unsigned n, int dir,
			  uint64_t first)
{
	struct engine *e = &f->engine;
	struct io *out[DEPTH];

	prep_ios(f, n, dir, first, NULL);
	assert_int_equal(e->ops->submit(e), (int)n);
	assert_int_equal(e->ops->reap(e, out, n, DEPTH), (int)n);
	assert_int_equal(e->ops->reap(e, out, 0, DEPTH), 0);
}

static uint64_t count_of(const struct engine *e, enum fault_kind kind)
{
	uint64_t counts[FAULT_KINDS];

	fault_engine_counts(e, counts);
	return counts[kind];
}

/* Makes the fixture's temp file, `blocks` blocks of `fill`; returns its fd. */
static int temp_file(struct fault_fixture *f, size_t blocks, unsigned char fill)
{
	unsigned char block[BS];

	f->fd = tmp_file("drivebench-fault", f->path, sizeof(f->path));
	assert_true(f->fd >= 0);
	memset(block, fill, sizeof(block));
	for (size_t i = 0; i < blocks; i++)
		assert_int_equal(pwrite(f->fd, block, BS, (off_t)(i * BS)), BS);
	return f->fd;
}

static unsigned bits_differ(const unsigned char *a, const unsigned char *b,
			    size_t len, size_t *first_byte)
{
	unsigned bits = 0;

	*first_byte = len;
	for (size_t i = 0; i < len; i++) {
		if (a[i] != b[i] && *first_byte == len)
			*first_byte = i;
		bits += (unsigned)__builtin_popcount((unsigned)(a[i] ^ b[i]));
	}
	return bits;
}

/* ---- lookup ------------------------------------------------------------- */

static void lookup_wraps_known_engines(void **state)
{
	const struct engine_ops *ops;

	(void)state;
	ops = engine_find("fault:null");
	assert_non_null(ops);
	assert_string_equal(ops->name, "fault:null");
	assert_ptr_equal(fault_engine_inner(ops), &engine_null);
	assert_false(engine_needs_fd(ops));
	ops = engine_find("fault:psync");
	assert_non_null(ops);
	assert_ptr_equal(fault_engine_inner(ops), &engine_psync);
	assert_true(engine_needs_fd(ops));
	assert_non_null(engine_find("fault:io_uring"));
	assert_non_null(engine_find("fault:libaio"));
	assert_null(fault_engine_inner(&engine_null));
	assert_ptr_equal(fault_engine_wrap(&engine_psync), ops);
	assert_null(fault_engine_wrap(ops));   /* no fault:fault: */
	assert_non_null(strstr(err_msg(), "cannot be wrapped"));
}

static void lookup_errors_name_the_inner_engine(void **state)
{
	(void)state;
	assert_null(engine_find("fault:bogus"));
	assert_non_null(strstr(err_msg(), "'bogus'"));
	assert_non_null(strstr(err_msg(), "fault:bogus"));
	assert_null(engine_find("fault:"));
	assert_non_null(strstr(err_msg(), "names no engine"));
	assert_null(engine_find("fault:fault:null"));
	assert_non_null(strstr(err_msg(), "'fault:null'"));
	assert_string_equal(fault_kind_name(FAULT_FLIP), "flip");
	assert_string_equal(fault_kind_name(FAULT_KINDS), "unknown");
}

/* issue 26.3: validation resolves the engine once and the job keeps it,
 * the fault wrapper included; a later change of ioengine is resolved by
 * the next validation, and a job never validated is still answered. */
static void validation_keeps_the_resolved_engine(void **state)
{
	struct job_spec s;

	(void)state;
	job_spec_defaults(&s);
	snprintf(s.name, sizeof(s.name), "j");
	snprintf(s.filename, sizeof(s.filename), "/dev/null");
	snprintf(s.ioengine, sizeof(s.ioengine), "fault:psync");
	assert_null(s.engine);
	assert_ptr_equal(job_engine(&s), engine_find("fault:psync"));  /* unvalidated: by name */
	assert_int_equal(job_spec_validate(&s), 0);
	assert_non_null(s.engine);
	assert_ptr_equal(fault_engine_inner(s.engine), &engine_psync);
	assert_ptr_equal(job_engine(&s), s.engine);
	/* changed after validation (a modelled target aims a job at vssd):
	 * the job answers with the engine it now names, not the stale one */
	snprintf(s.ioengine, sizeof(s.ioengine), "null");
	assert_ptr_equal(job_engine(&s), &engine_null);
	assert_int_equal(job_spec_validate(&s), 0);
	assert_ptr_equal(s.engine, &engine_null);
	snprintf(s.ioengine, sizeof(s.ioengine), "fault:bogus");
	assert_int_equal(job_spec_validate(&s), -1);
	assert_non_null(strstr(err_msg(), "'bogus'"));
}

static void counts_of_other_engines_are_zero(void **state)
{
	struct fault_fixture *f = *state;
	uint64_t counts[FAULT_KINDS];

	assert_int_equal(open_engine(f, "null"), 0);
	memset(counts, 0xff, sizeof(counts));
	fault_engine_counts(&f->engine, counts);
	for (int k = 0; k < FAULT_KINDS; k++)
		assert_int_equal(counts[k], 0);
	close_engine(f);
	fault_engine_counts(NULL, counts);
	assert_int_equal(counts[FAULT_EIO], 0);
}

static void inner_init_failure_is_reported(void **state)
{
	struct fault_fixture *f = *state;

	assert_int_equal(open_engine(f, "fault:psync"), -1);
	assert_non_null(strstr(err_msg(), "fault:psync"));
	assert_non_null(strstr(err_msg(), "no file descriptor"));
	assert_null(f->engine.priv);
	/* an engine table that is not a fault table is refused */
	f->engine.ops = &engine_null;
	assert_int_equal(engine_find("fault:null")->init(&f->engine, f->spec), -1);
	assert_non_null(strstr(err_msg(), "not a fault engine"));
}

/* ---- each fault kind around the null engine ----------------------------- */

static void no_faults_pass_through(void **state)
{
	struct fault_fixture *f = *state;

	assert_int_equal(open_engine(f, "fault:null"), 0);
	run_one_batch(f, DEPTH, DIR_READ, 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(f->pool.ios[i].result, BS);
	for (int k = 0; k < FAULT_KINDS; k++)
		assert_int_equal(count_of(&f->engine, (enum fault_kind)k), 0);
	close_engine(f);
	assert_null(f->engine.priv);
	f->engine.ops->cleanup(&f->engine);   /* twice is harmless */
}

static void eio_at_offsets_hits_covering_ios(void **state)
{
	struct fault_fixture *f = *state;

	/* 4097 lies inside the second I/O, 5*4096 starts the sixth, 1g none */
	set_ok(f->spec, "fault_eio_offsets", "4097:20k:1g");
	assert_int_equal(open_engine(f, "fault:null"), 0);
	run_one_batch(f, DEPTH, DIR_WRITE, 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(f->pool.ios[i].result,
				 i == 1 || i == 5 ? -EIO : (int)BS);
	assert_int_equal(count_of(&f->engine, FAULT_EIO), 2);
}

/* Results of 800 I/Os at rate: the count of -EIO equals the injected count,
 * the share is near the rate, and the same seed repeats the sequence. */
static uint64_t eio_pattern(const char *seed, uint64_t *pattern_out)
{
	void *state;
	struct fault_fixture *f;
	uint64_t failed = 0, pattern = 0;

	fixture_setup(&state);
	f = state;
	set_ok(f->spec, "fault_eio_rate", "25");
	set_ok(f->spec, "fault_seed", seed);
	assert_int_equal(open_engine(f, "fault:null"), 0);
	for (unsigned round = 0; round < 100; round++) {
		run_one_batch(f, DEPTH, DIR_READ, 0);
		for (unsigned i = 0; i < DEPTH; i++) {
			int result = f->pool.ios[i].result;

			assert_true(result == -EIO || result == (int)BS);
			if (result == -EIO) {
				failed++;
				if (round < 8)
					pattern |= 1ull << (round * DEPTH + i);
			}
		}
	}
	assert_int_equal(count_of(&f->engine, FAULT_EIO), failed);
	fixture_teardown(&state);
	*pattern_out = pattern;
	return failed;
}

static void eio_rate_is_seeded_and_counted(void **state)
{
	uint64_t a, b, c, pa, pb, pc;

	(void)state;
	a = eio_pattern("7", &pa);
	b = eio_pattern("7", &pb);
	c = eio_pattern("8", &pc);
	assert_int_equal(a, b);
	assert_int_equal(pa, pb);
	assert_true(pa != pc || a != c);
	assert_in_range(a, 140, 260);   /* 25% of 800 = 200 */
	assert_in_range(c, 140, 260);
}

static void skip_and_direction_limit_faults(void **state)
{
	struct fault_fixture *f = *state;

	set_ok(f->spec, "fault_eio_rate", "100");
	set_ok(f->spec, "fault_skip", "3");
	set_ok(f->spec, "fault_dir", "read");
	assert_int_equal(open_engine(f, "fault:null"), 0);
	run_one_batch(f, DEPTH, DIR_READ, 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(f->pool.ios[i].result, i < 3 ? (int)BS : -EIO);
	run_one_batch(f, DEPTH, DIR_WRITE, 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(f->pool.ios[i].result, BS);
	assert_int_equal(count_of(&f->engine, FAULT_EIO), DEPTH - 3);
}

static void short_transfers_report_half(void **state)
{
	static const uint32_t lens[] = { 4096, 1536, 512, 1024, 4000 };
	static const int32_t want[] = { 2048, 512, 512, 512, 1536 };
	struct fault_fixture *f = *state;
	struct engine *e = &f->engine;
	struct io *out[DEPTH];

	set_ok(f->spec, "fault_short_rate", "100");
	assert_int_equal(open_engine(f, "fault:null"), 0);
	prep_ios(f, 5, DIR_READ, 0, lens);
	assert_int_equal(e->ops->submit(e), 5);
	assert_int_equal(e->ops->reap(e, out, 5, DEPTH), 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(f->pool.ios[i].result, want[i]);
	/* a 512-byte I/O cannot be shorter: not injected, not counted */
	assert_int_equal(count_of(e, FAULT_SHORT), 4);
}

static void delay_holds_completion_back(void **state)
{
	struct fault_fixture *f = *state;
	struct engine *e = &f->engine;
	struct io *delayed = &f->pool.ios[2];
	struct io *out[DEPTH];
	uint64_t t0, waited;
	int n;

	set_ok(f->spec, "fault_delay_offsets", "8k");
	set_ok(f->spec, "fault_delay", "20ms");
	assert_int_equal(open_engine(f, "fault:null"), 0);
	prep_ios(f, 4, DIR_READ, 0, NULL);
	t0 = now_ns();
	assert_int_equal(e->ops->submit(e), 4);
	/* min 0 never waits: the three others now, the delayed one later */
	n = e->ops->reap(e, out, 0, DEPTH);
	assert_int_equal(n, 3);
	for (int i = 0; i < n; i++)
		assert_ptr_not_equal(out[i], delayed);
	/* nothing is due yet, and min 0 does not wait for it */
	assert_int_equal(e->ops->reap(e, out, 0, DEPTH), 0);
	n = e->ops->reap(e, out, 1, 1);
	waited = now_ns() - t0;
	assert_int_equal(n, 1);
	assert_ptr_equal(out[0], delayed);
	assert_int_equal(delayed->result, BS);
	assert_true(waited >= 20000000u);
	assert_true(waited < 500000000u);
	assert_int_equal(count_of(e, FAULT_DELAY), 1);
}

static void reap_honours_max_and_min(void **state)
{
	struct fault_fixture *f = *state;
	struct engine *e = &f->engine;
	struct io *out[DEPTH];

	set_ok(f->spec, "fault_eio_offsets", "0:4k");   /* two complete in the engine */
	assert_int_equal(open_engine(f, "fault:null"), 0);
	prep_ios(f, DEPTH, DIR_READ, 0, NULL);
	assert_int_equal(e->ops->submit(e), DEPTH);
	assert_int_equal(e->ops->reap(e, out, 5, 3), 3);   /* min above max */
	assert_int_equal(e->ops->reap(e, out, 1, 3), 3);
	assert_int_equal(e->ops->reap(e, out, 8, 8), 2);   /* only 2 left */
	assert_int_equal(e->ops->reap(e, out, 1, 8), 0);
}

static void delay_adds_to_programmed_latency(void **state)
{
	struct fault_fixture *f = *state;
	struct engine *e = &f->engine;
	struct io *io = &f->pool.ios[0];
	struct io *out[DEPTH];

	set_ok(f->spec, "null_latency", "100us");
	set_ok(f->spec, "fault_delay_rate", "100");
	set_ok(f->spec, "fault_delay", "3ms");
	assert_int_equal(open_engine(f, "fault:null"), 0);
	io->dir = DIR_READ;
	io->issue_ns = 1000;
	assert_int_equal(e->ops->prep(e, io), 0);
	assert_int_equal(e->ops->submit(e), 1);
	assert_int_equal(e->ops->reap(e, out, 1, 1), 1);
	assert_int_equal(io->complete_ns, 1000 + 100000 + 3000000);
	assert_int_equal(count_of(e, FAULT_DELAY), 1);
}

static void prep_refuses_foreign_io(void **state)
{
	struct fault_fixture *f = *state;
	struct io stray = { .buf = NULL, .len = BS };

	assert_int_equal(open_engine(f, "fault:null"), 0);
	assert_int_equal(f->engine.ops->prep(&f->engine, &stray), -1);
	assert_non_null(strstr(err_msg(), "pool"));
}

/* On a synchronous engine the delay is device time: the submit call takes
 * it, and reap then hands the I/O straight back (nothing is held). */
static void delay_on_sync_engine_is_spent_in_submit(void **state)
{
	struct fault_fixture *f = *state;
	struct engine *e = &f->engine;
	struct io *out[DEPTH];
	uint64_t t0, took, calls[FAULT_CALLS];

	temp_file(f, 4, 0);
	set_ok(f->spec, "fault_delay_offsets", "4k");
	set_ok(f->spec, "fault_delay", "20ms");
	assert_int_equal(open_engine(f, "fault:psync"), 0);
	prep_ios(f, 2, DIR_READ, 0, NULL);
	t0 = clock_now_ns();
	assert_int_equal(e->ops->submit(e), 2);
	took = clock_now_ns() - t0;
	assert_true(took >= 20000000ull);
	assert_int_equal(count_of(e, FAULT_DELAY), 1);
	assert_int_equal(e->ops->reap(e, out, 0, DEPTH), 2);   /* min 0: no wait */
	fault_engine_calls(e, calls);
	assert_int_equal(calls[FAULT_CALL_SUBMITS], 1);
	assert_int_equal(calls[FAULT_CALL_SUBMITTED], 2);
	assert_int_equal(calls[FAULT_CALL_REAPS], 1);
	assert_int_equal(calls[FAULT_CALL_REAPED], 2);
	assert_string_equal(fault_call_name(FAULT_CALL_SUBMITTED), "submitted");
}

/* ---- drop and flip against a real file (psync) -------------------------- */

static void drop_leaves_the_file_unchanged(void **state)
{
	struct fault_fixture *f = *state;
	struct pool *p = &f->pool;
	unsigned char block[BS];
	int fd = temp_file(f, 4, 0);

	memset(p->mem, 0xab, (size_t)DEPTH * BS);
	set_ok(f->spec, "fault_drop_offsets", "4k:12k");
	assert_int_equal(open_engine(f, "fault:psync"), 0);
	run_one_batch(f, 4, DIR_WRITE, 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(p->ios[i].result, BS);   /* all report success */
		assert_int_equal(pread(fd, block, BS, (off_t)i * BS), BS);
		assert_int_equal(block[0], i == 1 || i == 3 ? 0 : 0xab);
		assert_int_equal(block[BS - 1], i == 1 || i == 3 ? 0 : 0xab);
	}
	assert_int_equal(count_of(&f->engine, FAULT_DROP), 2);
	/* reads are never dropped */
	run_one_batch(f, 4, DIR_READ, 0);
	assert_int_equal(p->ios[1].result, BS);
	assert_int_equal(count_of(&f->engine, FAULT_DROP), 2);
}

static void flip_write_changes_one_device_bit(void **state)
{
	struct fault_fixture *f = *state;
	struct pool *p = &f->pool;
	unsigned char block[BS], sent[BS];
	size_t at;
	int fd = temp_file(f, 2, 0);

	for (size_t i = 0; i < (size_t)DEPTH * BS; i++)
		p->mem[i] = (unsigned char)(i * 7 + 3);
	memcpy(sent, p->ios[1].buf, BS);
	set_ok(f->spec, "fault_flip_offsets", "4k");
	assert_int_equal(open_engine(f, "fault:psync"), 0);
	run_one_batch(f, 2, DIR_WRITE, 0);
	assert_int_equal(p->ios[1].result, BS);
	/* the caller's buffer is restored; the device got one bit flipped,
	 * past the first 64 bytes */
	assert_memory_equal(p->ios[1].buf, sent, BS);
	assert_int_equal(pread(fd, block, BS, BS), BS);
	assert_int_equal(bits_differ(block, sent, BS, &at), 1);
	assert_true(at >= 64);
	assert_int_equal(pread(fd, block, BS, 0), BS);
	assert_memory_equal(block, p->ios[0].buf, BS);
	assert_int_equal(count_of(&f->engine, FAULT_FLIP), 1);
}

static void flip_read_changes_one_buffer_bit(void **state)
{
	struct fault_fixture *f = *state;
	struct pool *p = &f->pool;
	unsigned char block[BS];
	size_t at;
	int fd = temp_file(f, 2, 0x5a);

	set_ok(f->spec, "fault_flip_rate", "100");
	set_ok(f->spec, "fault_dir", "read");
	assert_int_equal(open_engine(f, "fault:psync"), 0);
	run_one_batch(f, 2, DIR_READ, 0);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(p->ios[i].result, BS);
		assert_int_equal(pread(fd, block, BS, (off_t)i * BS), BS);
		assert_int_equal(bits_differ(block, p->ios[i].buf, BS, &at), 1);
		assert_true(at >= 64);
	}
	assert_int_equal(count_of(&f->engine, FAULT_FLIP), 2);
	/* fault_dir=read: writes go out unchanged */
	memset(p->mem, 0x11, BS);
	run_one_batch(f, 1, DIR_WRITE, 0);
	assert_int_equal(pread(fd, block, BS, 0), BS);
	assert_int_equal(bits_differ(block, p->ios[0].buf, BS, &at), 0);
	assert_int_equal(count_of(&f->engine, FAULT_FLIP), 2);
}

static void eio_never_reaches_the_file(void **state)
{
	struct fault_fixture *f = *state;
	unsigned char block[BS];
	int fd = temp_file(f, 1, 0);

	memset(f->pool.mem, 0xcd, BS);
	set_ok(f->spec, "fault_eio_rate", "100");
	assert_int_equal(open_engine(f, "fault:psync"), 0);
	run_one_batch(f, 1, DIR_WRITE, 0);
	assert_int_equal(f->pool.ios[0].result, -EIO);
	assert_int_equal(pread(fd, block, BS, 0), BS);
	assert_int_equal(block[100], 0);
}

/* ---- options -------------------------------------------------------------- */

static void options_parse_and_reject(void **state)
{
	struct job_spec *spec = new_spec();

	(void)state;
	set_ok(spec, "fault_eio_rate", "0.5");
	assert_true(spec->fault.rule[FAULT_EIO].rate_pct == 0.5);
	set_ok(spec, "fault_flip_rate", "12.5%");
	assert_true(spec->fault.rule[FAULT_FLIP].rate_pct == 12.5);
	set_ok(spec, "fault_short_offsets", "4k:1m:0x10");
	assert_int_equal(spec->fault.rule[FAULT_SHORT].nr_offsets, 3);
	assert_int_equal(spec->fault.rule[FAULT_SHORT].offsets[1], 1u << 20);
	assert_int_equal(spec->fault.rule[FAULT_SHORT].offsets[2], 16);
	set_ok(spec, "fault_delay", "250");   /* bare number: microseconds */
	assert_int_equal(spec->fault.delay_ns, 250000);
	set_ok(spec, "fault_skip", "10");
	assert_int_equal(spec->fault.skip_ios, 10);
	set_ok(spec, "fault_seed", "42");
	assert_int_equal(spec->fault.seed, 42);
	set_ok(spec, "fault_dir", "write");
	assert_int_equal(spec->fault.dirs, 1u << DIR_WRITE);
	set_ok(spec, "fault_dir", "rw");
	assert_int_equal(spec->fault.dirs, 3);

	assert_int_equal(job_option_set(spec, "fault_eio_rate", "101"), -1);
	assert_non_null(strstr(err_msg(), "option 'fault_eio_rate'"));
	assert_int_equal(job_option_set(spec, "fault_eio_rate", "-1"), -1);
	assert_int_equal(job_option_set(spec, "fault_eio_rate", "abc"), -1);
	assert_int_equal(job_option_set(spec, "fault_eio_rate", "%"), -1);
	assert_int_equal(job_option_set(spec, "fault_eio_rate", NULL), -1);
	assert_int_equal(job_option_set(spec, "fault_drop_offsets", "4k::8k"), -1);
	assert_non_null(strstr(err_msg(), "option 'fault_drop_offsets'"));
	assert_int_equal(job_option_set(spec, "fault_drop_offsets", "4x"), -1);
	assert_int_equal(job_option_set(spec, "fault_delay", "0"), -1);
	assert_int_equal(job_option_set(spec, "fault_delay", "soon"), -1);
	assert_int_equal(job_option_set(spec, "fault_skip", "-3"), -1);
	assert_int_equal(job_option_set(spec, "fault_seed", "x"), -1);
	assert_int_equal(job_option_set(spec, "fault_dir", "trim"), -1);
	assert_non_null(strstr(err_msg(), "option 'fault_dir'"));
	free(spec);
}

static void too_many_offsets_are_refused(void **state)
{
	struct job_spec *spec = new_spec();
	char list[FAULT_OFFSETS_MAX * 8 + 16] = "";

	(void)state;
	for (int i = 0; i < FAULT_OFFSETS_MAX; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%dk",
			 i ? ":" : "", i);
	set_ok(spec, "fault_eio_offsets", list);
	assert_int_equal(spec->fault.rule[FAULT_EIO].nr_offsets, FAULT_OFFSETS_MAX);
	strcat(list, ":999k");
	assert_int_equal(job_option_set(spec, "fault_eio_offsets", list), -1);
	assert_non_null(strstr(err_msg(), "more than 64 offsets"));
	/* the earlier list is kept whole */
	assert_int_equal(spec->fault.rule[FAULT_EIO].nr_offsets, FAULT_OFFSETS_MAX);
	free(spec);
}

static void continue_on_error_values(void **state)
{
	static const struct { const char *value; unsigned mask; } cases[] = {
		{ "none", 0 }, { "0", 0 }, { "read", ERROR_CLASS_READ },
		{ "write", ERROR_CLASS_WRITE }, { "io", ERROR_CLASS_IO },
		{ "verify", ERROR_CLASS_VERIFY }, { "all", ERROR_CLASS_ALL },
		{ "1", ERROR_CLASS_ALL },
	};
	struct job_spec *spec = new_spec();

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spec->continue_on_error = 99;
		set_ok(spec, "continue_on_error", cases[i].value);
		assert_int_equal(spec->continue_on_error, cases[i].mask);
	}
	assert_int_equal(job_option_set(spec, "continue_on_error", "sometimes"), -1);
	assert_non_null(strstr(err_msg(), "option 'continue_on_error'"));
	free(spec);
}

static void fault_options_need_the_fault_engine(void **state)
{
	static const char *const options[][2] = {
		{ "fault_eio_rate", "1" }, { "fault_flip_offsets", "4k" },
		{ "fault_delay", "1ms" }, { "fault_skip", "5" },
		{ "fault_seed", "3" }, { "fault_dir", "read" },
	};
	struct job_spec *spec;

	(void)state;
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		spec = new_spec();
		set_ok(spec, "name", "j");
		set_ok(spec, options[i][0], options[i][1]);
		assert_int_equal(job_spec_validate(spec), -1);
		assert_non_null(strstr(err_msg(), options[i][0]));
		assert_non_null(strstr(err_msg(), "needs ioengine=fault:<engine>"));
		set_ok(spec, "ioengine", "fault:null");
		assert_int_equal(job_spec_validate(spec), 0);
		free(spec);
	}
}

/* ---- whole runs ----------------------------------------------------------- */

static volatile sig_atomic_t no_stop;

/* The whole-run tests' state: the run's output, freed after the test. */
static int run_setup(void **state)
{
	*state = calloc(1, sizeof(struct run_output));
	return *state ? 0 : -1;
}

static int run_teardown(void **state)
{
	run_output_free(*state);
	free(*state);
	*state = NULL;
	return 0;
}

/* Runs the one job that args describes into out; returns its result. */
static const struct job_result *run_job(struct run_output *out,
					const char *const *args, int n)
{
	struct job_list jobs;
	struct run_options opt = { .stop = &no_stop };
	enum run_failure why;

	memset(&jobs, 0, sizeof(jobs));
	if (cmdline_jobs(n, (char *const *)args, &jobs))
		fail_msg("cmdline_jobs: %s", err_msg());
	if (run_jobs(&jobs, &opt, out, &why))
		fail_msg("run_jobs: %s", err_msg());
	job_list_free(&jobs);
	assert_true(out->nr > 0);
	return &out->results[0];
}

#define RUN_JOB(state, args) \
	run_job(*(state), (args), (int)(sizeof(args) / sizeof((args)[0])))

static void continue_on_error_counts_every_eio(void **state)
{
	const char *args[] = { "--name=c", "--ioengine=fault:null", "--rw=randrw",
		"--bs=4k", "--iodepth=4", "--size=4m", "--fault_eio_rate=5",
		"--continue_on_error=io" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_true(r->faults_injected[FAULT_EIO] > 10);
	assert_int_equal(r->dir[DIR_READ].errors + r->dir[DIR_WRITE].errors,
			 r->faults_injected[FAULT_EIO]);
	assert_true(r->dir[DIR_READ].errors > 0 && r->dir[DIR_WRITE].errors > 0);
	/* every request was issued; the failed ones are not counted as done */
	assert_int_equal(r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios +
			 r->faults_injected[FAULT_EIO], 1024);
	assert_int_equal(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes,
			 (r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios) * 4096);
	assert_int_equal(r->error, -EIO);
	assert_int_equal(r->dir[DIR_READ].first_error, -EIO);
	assert_int_equal(r->dir[DIR_READ].first_error_offset % 4096, 0);
}

static void errors_are_counted_per_direction(void **state)
{
	const char *args[] = { "--name=w", "--ioengine=fault:null", "--rw=randrw",
		"--bs=4k", "--iodepth=2", "--size=2m", "--fault_eio_rate=10",
		"--fault_dir=write", "--continue_on_error=write" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_int_equal(r->dir[DIR_READ].errors, 0);
	assert_true(r->dir[DIR_WRITE].errors > 0);
	assert_int_equal(r->dir[DIR_WRITE].errors, r->faults_injected[FAULT_EIO]);
	assert_int_equal(r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios +
			 r->dir[DIR_WRITE].errors, 512);
}

static void none_stops_at_the_first_error(void **state)
{
	const char *args[] = { "--name=n", "--ioengine=fault:null", "--rw=read",
		"--bs=4k", "--iodepth=1", "--size=1m", "--fault_eio_offsets=41000" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_int_equal(r->dir[DIR_READ].ios, 10);
	assert_int_equal(r->dir[DIR_READ].errors, 1);
	assert_int_equal(r->dir[DIR_READ].first_error, -EIO);
	assert_int_equal(r->dir[DIR_READ].first_error_offset, 40960);
	assert_int_equal(r->faults_injected[FAULT_EIO], 1);
	assert_int_equal(r->error, -EIO);
}

/* continue_on_error=read does not cover a write error: the job stops. */
static void other_direction_still_stops(void **state)
{
	const char *args[] = { "--name=o", "--ioengine=fault:null", "--rw=write",
		"--bs=4k", "--iodepth=1", "--size=1m", "--fault_eio_offsets=8k",
		"--continue_on_error=read" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_int_equal(r->dir[DIR_WRITE].ios, 2);
	assert_int_equal(r->dir[DIR_WRITE].errors, 1);
}

static void delays_show_in_clat(void **state)
{
	const char *args[] = { "--name=d", "--ioengine=fault:null", "--rw=read",
		"--bs=4k", "--iodepth=4", "--size=1m", "--fault_delay=20ms",
		"--fault_delay_offsets=100k:400k:900k" };
	uint64_t slow = 0;
	const struct job_result *r = RUN_JOB(state, args);

	assert_int_equal(r->dir[DIR_READ].ios, 256);
	assert_int_equal(r->faults_injected[FAULT_DELAY], 3);
	assert_true(r->dir[DIR_READ].clat.max >= 20000000);
	for (unsigned i = hist_index(20000000); i < HIST_BUCKETS; i++)
		slow += r->dir[DIR_READ].clat.hist.bucket[i];
	assert_int_equal(slow, 3);
}

static void short_transfers_complete_the_request(void **state)
{
	const char *args[] = { "--name=s", "--ioengine=fault:null", "--rw=write",
		"--bs=4k", "--iodepth=2", "--size=64k", "--fault_short_rate=100" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_int_equal(r->dir[DIR_WRITE].ios, 16);
	assert_int_equal(r->dir[DIR_WRITE].bytes, 65536);
	assert_int_equal(r->dir[DIR_WRITE].errors, 0);
	/* 4096 -> 2048 done, 2048 -> 1024, 1024 -> 512, the last 512 whole */
	assert_int_equal(r->faults_injected[FAULT_SHORT], 16 * 3);
	assert_int_equal(r->error, 0);
}

static void ramp_faults_are_not_reported(void **state)
{
	const char *args[] = { "--name=r", "--ioengine=fault:null", "--rw=randread",
		"--bs=4k", "--iodepth=4", "--size=64m", "--time_based", "--runtime=150ms",
		"--ramp_time=100ms", "--fault_eio_rate=1", "--continue_on_error=all" };
	const struct job_result *r = RUN_JOB(state, args);

	assert_true(r->faults_injected[FAULT_EIO] > 0);
	/* an EIO injected just before the ramp ended may complete after it */
	assert_in_range(r->dir[DIR_READ].errors, r->faults_injected[FAULT_EIO],
			r->faults_injected[FAULT_EIO] + 4);
}

/* An engine test: a fresh pool and spec before, everything closed after. */
#define WITH_FIXTURE(test) \
	cmocka_unit_test_setup_teardown(test, fixture_setup, fixture_teardown)
/* A whole-run test: its run output is freed after. */
#define WITH_RUN(test) cmocka_unit_test_setup_teardown(test, run_setup, run_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_wraps_known_engines),
		cmocka_unit_test(lookup_errors_name_the_inner_engine),
		cmocka_unit_test(validation_keeps_the_resolved_engine),
		WITH_FIXTURE(counts_of_other_engines_are_zero),
		WITH_FIXTURE(inner_init_failure_is_reported),
		WITH_FIXTURE(no_faults_pass_through),
		WITH_FIXTURE(eio_at_offsets_hits_covering_ios),
		cmocka_unit_test(eio_rate_is_seeded_and_counted),
		WITH_FIXTURE(skip_and_direction_limit_faults),
		WITH_FIXTURE(short_transfers_report_half),
		WITH_FIXTURE(delay_holds_completion_back),
		WITH_FIXTURE(reap_honours_max_and_min),
		WITH_FIXTURE(delay_adds_to_programmed_latency),
		WITH_FIXTURE(prep_refuses_foreign_io),
		WITH_FIXTURE(delay_on_sync_engine_is_spent_in_submit),
		WITH_FIXTURE(drop_leaves_the_file_unchanged),
		WITH_FIXTURE(flip_write_changes_one_device_bit),
		WITH_FIXTURE(flip_read_changes_one_buffer_bit),
		WITH_FIXTURE(eio_never_reaches_the_file),
		cmocka_unit_test(options_parse_and_reject),
		cmocka_unit_test(too_many_offsets_are_refused),
		cmocka_unit_test(continue_on_error_values),
		cmocka_unit_test(fault_options_need_the_fault_engine),
		WITH_RUN(continue_on_error_counts_every_eio),
		WITH_RUN(errors_are_counted_per_direction),
		WITH_RUN(none_stops_at_the_first_error),
		WITH_RUN(other_direction_still_stops),
		WITH_RUN(delays_show_in_clat),
		WITH_RUN(short_transfers_complete_the_request),
		WITH_RUN(ramp_faults_are_not_reported),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
