/* test_engines.c - the I/O engines (io_uring, libaio, psync, sync, vsync,
 * pvsync, pvsync2, posixaio, null) against
 * real files: batched writes read back by another engine, short reads at
 * EOF, bad descriptors, io_uring's registered buffers/files, SQPOLL and
 * polled I/O, queue limits, non-blocking reaps and the null engine's
 * programmed latencies. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

#include "io/engine.h"
#include "io/null_latency.h"
#include "util/clock.h"
#include "util/error.h"
#include "helpers/tmpdir.h"
#include "helpers/testfile.h"

#define BS 4096u
#define DEPTH 8u
#define POOL (2 * DEPTH)

/* The runner's side of the contract: a pool of ios with aligned buffers. */
struct pool {
	struct io ios[POOL];
	unsigned char *mem;
	uint32_t buf_size;
};

static void pool_init(struct pool *p, uint32_t buf_size)
{
	unsigned i;
	void *mem;

	memset(p, 0, sizeof(*p));
	assert_int_equal(posix_memalign(&mem, 4096, (size_t)POOL * buf_size), 0);
	p->mem = mem;
	memset(p->mem, 0, (size_t)POOL * buf_size);
	p->buf_size = buf_size;
	for (i = 0; i < POOL; i++) {
		p->ios[i].buf = p->mem + (size_t)i * buf_size;
		p->ios[i].len = buf_size;
	}
}

static void pool_free(struct pool *p)
{
	free(p->mem);
	p->mem = NULL;
}

static struct job_spec *new_spec(void)
{
	struct job_spec *spec = calloc(1, sizeof(*spec));

	assert_non_null(spec);
	return spec;
}

static int engine_start(struct engine *e, const char *name, int fd,
			struct pool *p, const struct job_spec *spec)
{
	const struct engine_ops *ops = engine_find(name);

	assert_non_null(ops);
	memset(e, 0, sizeof(*e));
	e->ops = ops;
	e->fd = fd;
	e->depth = DEPTH;
	e->ios = p->ios;
	e->nr_ios = POOL;
	e->buf_size = p->buf_size;
	return ops->init(e, spec);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every completion is one of the submitted ios, each exactly once. */
static void assert_completions(struct io **out, unsigned n,
			       struct io **submitted, unsigned nr_submitted)
{
	unsigned i, j, hits;

	assert_true(n <= nr_submitted);
	for (i = 0; i < n; i++) {
		hits = 0;
		for (j = 0; j < nr_submitted; j++)
			hits += out[i] == submitted[j];
		assert_int_equal(hits, 1);
		for (j = i + 1; j < n; j++)
			assert_ptr_not_equal(out[i], out[j]);
	}
}

/* Preps ios[0..n) in one batch, submits, reaps them all with one blocking
 * reap asking for more than were submitted, then checks nothing is left. */
static void run_batch(struct engine *e, struct io **ios, unsigned n)
{
	struct io *out[POOL];
	unsigned i;

	for (i = 0; i < n; i++)
		assert_int_equal(e->ops->prep(e, ios[i]), 0);
	assert_int_equal(e->ops->submit(e), (int)n);
	assert_int_equal(e->ops->reap(e, out, n, POOL), (int)n);
	assert_completions(out, n, ios, n);
	assert_int_equal(e->ops->reap(e, out, 0, POOL), 0);
}

/* A temp file in /tmp, unlinked at once; O_DIRECT on request. Returns -1
 * (after printing why) when the file system refuses O_DIRECT. */
static int temp_file(bool direct)
{
	int fd = tmp_unlinked_fd();
	void *probe;
	ssize_t ret;

	assert_true(fd >= 0);
	if (!direct)
		return fd;
	if (fcntl(fd, F_SETFL, O_DIRECT) < 0) {
		print_message("O_DIRECT refused by /tmp (%s): skipping the "
			      "direct case\n", strerror(errno));
		close(fd);
		return -1;
	}
	assert_int_equal(posix_memalign(&probe, 4096, BS), 0);
	memset(probe, 0, BS);
	ret = pwrite(fd, probe, BS, 0);
	free(probe);
	if (ret < 0 && errno == EINVAL) {
		print_message("O_DIRECT write refused by /tmp (%s): skipping "
			      "the direct case\n", strerror(EINVAL));
		close(fd);
		return -1;
	}
	assert_int_equal(ret, (ssize_t)BS);
	return fd;
}

/* A descriptor number that names nothing and will not be handed out
 * while the test runs (new descriptors take the lowest free number; a
 * closed low one could become the engine's own ring fd). */
static int unused_fd(void)
{
	int fd = getdtablesize() - 1;

	assert_true(fd > 100);
	assert_int_equal(fcntl(fd, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	return fd;
}

static unsigned char pattern_byte(unsigned slot, size_t i)
{
	return (unsigned char)(slot * 31u + i * 7u + 1u);
}

/* ---- engine lookup ---------------------------------------------------- */

static void test_find_known_engines(void **state)
{
	(void)state;
	assert_ptr_equal(engine_find("io_uring"), &engine_io_uring);
	assert_ptr_equal(engine_find("libaio"), &engine_libaio);
	assert_ptr_equal(engine_find("psync"), &engine_psync);
	assert_ptr_equal(engine_find("null"), &engine_null);
	assert_string_equal(engine_io_uring.name, "io_uring");
	assert_int_equal(engine_needs_fd(&engine_io_uring), 1);
	assert_int_equal(engine_needs_fd(&engine_libaio), 1);
	assert_int_equal(engine_needs_fd(&engine_psync), 1);
	assert_int_equal(engine_needs_fd(&engine_null), 0);
}

/* Each engine declares what it is in its table; a fault engine is
 * exactly what it wraps (the runner treats fault:psync as psync). */
static void test_engine_flags(void **state)
{
	static const char *const names[] = { "io_uring", "libaio", "psync", "null", "cufile" };

	(void)state;
	assert_int_equal(engine_psync.flags,
			 ENGINE_SYNC | ENGINE_KEEPS_DATA | ENGINE_FILES | ENGINE_TRIMS);
	assert_int_equal(engine_cufile.flags, ENGINE_SYNC);   /* one file per job */
	assert_int_equal(engine_io_uring.flags,
			 ENGINE_KEEPS_DATA | ENGINE_ATOMIC | ENGINE_FILES | ENGINE_TRIMS);
	assert_int_equal(engine_libaio.flags,
			 ENGINE_KEEPS_DATA | ENGINE_ATOMIC | ENGINE_FILES | ENGINE_TRIMS);
	assert_int_equal(engine_null.flags, ENGINE_NO_FD | ENGINE_FILES | ENGINE_TRIMS);
	/* the sync family keeps one file per job and does not trim */
	assert_int_equal(engine_sync.flags & (ENGINE_FILES | ENGINE_TRIMS), 0);
	assert_int_equal(engine_needs_fd(&engine_cufile), 1);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char wrapped[32];
		const struct engine_ops *inner = engine_find(names[i]), *fault;

		snprintf(wrapped, sizeof(wrapped), "fault:%s", names[i]);
		fault = engine_find(wrapped);
		assert_non_null(inner);
		assert_non_null(fault);
		assert_int_equal(fault->flags, inner->flags);
		assert_int_equal(engine_needs_fd(fault), engine_needs_fd(inner));
	}
}

static void test_find_unknown_engine(void **state)
{
	char want[1024];

	(void)state;
	err_clear();
	assert_null(engine_find("bogus"));
	snprintf(want, sizeof(want), "unknown ioengine 'bogus' (known: %s)", engine_names());
	assert_string_equal(err_msg(), want);
	assert_null(engine_find("IO_URING"));
	assert_null(engine_find(""));
	assert_null(engine_find(NULL));
	snprintf(want, sizeof(want), "unknown ioengine '' (known: %s)", engine_names());
	assert_string_equal(err_msg(), want);
}

/* The one table: every name lists, resolves to its own entry, wraps in
 * the fault engine, and docs/engines.md names it (make check runs from
 * the top of the tree). */
static void test_engine_table_is_the_list(void **state)
{
	char *text = file_read_all("docs/engines.md", NULL);
	const struct engine_ops *ops;
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; (ops = engine_at(i)); i++, n++) {
		char quoted[64], fault_name[64];

		assert_ptr_equal(engine_find(ops->name), ops);
		assert_non_null(strstr(engine_names(), ops->name));
		snprintf(fault_name, sizeof(fault_name), "fault:%s", ops->name);
		assert_non_null(engine_find(fault_name));
		assert_ptr_equal(engine_base(fault_name), ops);
		snprintf(quoted, sizeof(quoted), "`%s`", ops->name);
		if (!strstr(text, quoted))
			fail_msg("docs/engines.md does not name engine %s", quoted);
	}
	assert_true(n >= 14);
	assert_ptr_equal(engine_find("sync"), &engine_sync);
	assert_ptr_equal(engine_find("cpuio"), &engine_cpuio);
	free(text);
}

/* ---- write a pattern with one engine, read it back with another ------- */

struct roundtrip_case {
	const char *writer, *reader;
	bool direct;
	bool fixedbufs, registerfiles, sqpoll, hipri; /* io_uring only */
};

/* Polled I/O needs a block device with poll queues (nvme poll_queues=N);
 * elsewhere the kernel fails it with EOPNOTSUPP. */
static void skip_no_polling(void)
{
	print_message("polled I/O not supported by the device behind /tmp "
		      "(%s): skipping hipri\n", strerror(EOPNOTSUPP));
	skip();
}

static void test_roundtrip(void **state)
{
	const struct roundtrip_case *c = *state;
	/* out of order, with gaps, so offsets really matter */
	static const unsigned slots[DEPTH] = { 5, 0, 7, 2, 6, 1, 4, 3 };
	struct io *batch[DEPTH];
	struct pool wpool, rpool;
	struct engine writer, reader;
	struct job_spec *spec = new_spec();
	unsigned i;
	size_t j;
	int fd = temp_file(c->direct);

	if (fd < 0) {
		free(spec);
		skip();
	}
	spec->direct = c->direct;
	spec->fixedbufs = c->fixedbufs;
	spec->registerfiles = c->registerfiles;
	spec->sqthread_poll = c->sqpoll;
	spec->hipri = c->hipri;

	pool_init(&wpool, BS);
	for (i = 0; i < DEPTH; i++) {
		struct io *io = &wpool.ios[i];

		io->dir = DIR_WRITE;
		io->offset = (uint64_t)slots[i] * 2 * BS;
		for (j = 0; j < BS; j++)
			((unsigned char *)io->buf)[j] = pattern_byte(slots[i], j);
		batch[i] = io;
	}
	assert_int_equal(engine_start(&writer, c->writer, fd, &wpool, spec), 0);
	if (c->fixedbufs)
		for (i = 0; i < POOL; i++) /* init numbers the registered slots */
			assert_int_equal(wpool.ios[i].buf_index, i);
	run_batch(&writer, batch, DEPTH);
	if (c->hipri && wpool.ios[0].result == -EOPNOTSUPP) {
		writer.ops->cleanup(&writer);
		pool_free(&wpool);
		free(spec);
		close(fd);
		skip_no_polling();
	}
	for (i = 0; i < DEPTH; i++)
		assert_int_equal(wpool.ios[i].result, (int32_t)BS);
	writer.ops->cleanup(&writer);
	assert_null(writer.priv);

	pool_init(&rpool, BS);
	for (i = 0; i < DEPTH; i++) {
		/* use the upper half of the pool: other registered slots */
		struct io *io = &rpool.ios[DEPTH + i];

		io->dir = DIR_READ;
		io->offset = (uint64_t)slots[i] * 2 * BS;
		io->result = -12345;
		batch[i] = io;
	}
	assert_int_equal(engine_start(&reader, c->reader, fd, &rpool, spec), 0);
	run_batch(&reader, batch, DEPTH);
	if (c->hipri && batch[0]->result == -EOPNOTSUPP) {
		reader.ops->cleanup(&reader);
		pool_free(&wpool);
		pool_free(&rpool);
		free(spec);
		close(fd);
		skip_no_polling();
	}
	for (i = 0; i < DEPTH; i++) {
		const unsigned char *buf = batch[i]->buf;

		assert_int_equal(batch[i]->result, (int32_t)BS);
		for (j = 0; j < BS; j++)
			if (buf[j] != pattern_byte(slots[i], j))
				fail_msg("%s -> %s: slot %u byte %zu differs",
					 c->writer, c->reader, slots[i], j);
	}
	/* the gaps between the slots were never written: still zero */
	{
		unsigned char gap[BS];

		if (!c->direct) {
			assert_int_equal(pread(fd, gap, BS, BS), (ssize_t)BS);
			for (j = 0; j < BS; j++)
				assert_int_equal(gap[j], 0);
		}
	}
	reader.ops->cleanup(&reader);
	pool_free(&wpool);
	pool_free(&rpool);
	free(spec);
	close(fd);
}

/* ---- reads past EOF are short, not errors ------------------------------ */

static void test_read_past_eof(void **state)
{
	const char *name = *state;
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *batch[3];
	unsigned char block[4 * BS];
	int fd = temp_file(false);

	memset(block, 0xab, sizeof(block));
	assert_int_equal(pwrite(fd, block, sizeof(block), 0),
			 (ssize_t)sizeof(block));
	pool_init(&p, 2 * BS);
	p.ios[0].offset = 4 * BS;    /* exactly at EOF */
	p.ios[1].offset = 100 * BS;  /* far past EOF */
	p.ios[2].offset = 3 * BS;    /* straddles EOF: half comes back */
	for (unsigned i = 0; i < 3; i++) {
		p.ios[i].dir = DIR_READ;
		p.ios[i].result = -12345;
		batch[i] = &p.ios[i];
	}
	assert_int_equal(engine_start(&e, name, fd, &p, spec), 0);
	run_batch(&e, batch, 3);
	assert_int_equal(p.ios[0].result, 0);
	assert_int_equal(p.ios[1].result, 0);
	assert_int_equal(p.ios[2].result, (int32_t)BS);
	assert_int_equal(((unsigned char *)p.ios[2].buf)[BS - 1], 0xab);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
	close(fd);
}

/* ---- bad descriptors ---------------------------------------------------- */

static void test_closed_fd(void **state)
{
	const char *name = *state;
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *out[POOL];
	int fd = unused_fd();

	pool_init(&p, BS);
	p.ios[0].dir = DIR_READ;
	p.ios[0].result = 0;
	err_clear();
	if (engine_start(&e, name, fd, &p, spec) < 0) {
		assert_true(strlen(err_msg()) > 0);
	} else {
		assert_int_equal(e.ops->prep(&e, &p.ios[0]), 0);
		assert_int_equal(e.ops->submit(&e), 1);
		assert_int_equal(e.ops->reap(&e, out, 1, POOL), 1);
		assert_ptr_equal(out[0], &p.ios[0]);
		assert_int_equal(p.ios[0].result, -EBADF);
		e.ops->cleanup(&e);
	}
	pool_free(&p);
	free(spec);
}

static void test_no_fd_is_init_error(void **state)
{
	const char *name = *state;
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();

	pool_init(&p, BS);
	err_clear();
	assert_int_equal(engine_start(&e, name, -1, &p, spec), -1);
	assert_non_null(strstr(err_msg(), "no file descriptor"));
	assert_null(e.priv);
	pool_free(&p);
	free(spec);
}

static void test_zero_depth_is_init_error(void **state)
{
	const char *name = *state;
	const struct engine_ops *ops = engine_find(name);
	struct job_spec *spec = new_spec();
	struct engine e = { .ops = ops, .fd = 0, .depth = 0 };

	err_clear();
	assert_int_equal(ops->init(&e, spec), -1);
	assert_non_null(strstr(err_msg(), "iodepth must be at least 1"));
	free(spec);
}

/* ---- queue limits and non-blocking reaps ------------------------------- */

static void test_queue_full(void **state)
{
	const char *name = *state;
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *batch[DEPTH];
	struct io *out[POOL];
	unsigned i;
	int fd = temp_file(false);

	pool_init(&p, BS);
	assert_int_equal(engine_start(&e, name, fd, &p, spec), 0);
	for (i = 0; i < DEPTH; i++) {
		p.ios[i].dir = DIR_WRITE;
		p.ios[i].offset = (uint64_t)i * BS;
		batch[i] = &p.ios[i];
		assert_int_equal(e.ops->prep(&e, batch[i]), 0);
	}
	err_clear();
	assert_int_equal(e.ops->prep(&e, &p.ios[DEPTH]), -1);
	assert_non_null(strstr(err_msg(), "queue full"));
	assert_int_equal(e.ops->submit(&e), (int)DEPTH);
	/* asking for more than are in flight must not hang */
	assert_int_equal(e.ops->reap(&e, out, POOL, POOL), (int)DEPTH);
	assert_completions(out, DEPTH, batch, DEPTH);
	/* room again after the reap */
	assert_int_equal(e.ops->prep(&e, &p.ios[DEPTH]), 0);
	assert_int_equal(e.ops->submit(&e), 1);
	assert_int_equal(e.ops->reap(&e, out, 1, POOL), 1);
	assert_ptr_equal(out[0], &p.ios[DEPTH]);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
	close(fd);
}

/* reap(min=0) returns at once, and polling with it collects every
 * completion, never more than were submitted, never one twice. */
static void test_reap_without_waiting(void **state)
{
	const char *name = *state;
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *batch[DEPTH];
	struct io *out[POOL], *seen[POOL];
	unsigned i, total = 0;
	uint64_t start, deadline;
	int fd = temp_file(false);

	pool_init(&p, BS);
	assert_int_equal(engine_start(&e, name, fd, &p, spec), 0);
	start = now_ns();
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	assert_true(now_ns() - start < 100000000u);
	for (i = 0; i < DEPTH; i++) {
		p.ios[i].dir = DIR_WRITE;
		p.ios[i].offset = (uint64_t)i * BS;
		batch[i] = &p.ios[i];
		assert_int_equal(e.ops->prep(&e, batch[i]), 0);
	}
	assert_int_equal(e.ops->submit(&e), (int)DEPTH);
	deadline = now_ns() + 5000000000u;
	while (total < DEPTH) {
		int n = e.ops->reap(&e, out, 0, POOL);

		assert_true(n >= 0);
		assert_true(total + (unsigned)n <= DEPTH);
		memcpy(seen + total, out, (size_t)n * sizeof(*out));
		total += (unsigned)n;
		assert_true(now_ns() < deadline);
	}
	assert_completions(seen, total, batch, DEPTH);
	for (i = 0; i < DEPTH; i++)
		assert_int_equal(p.ios[i].result, (int32_t)BS);
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
	close(fd);
}

/* An io_uring read from an empty pipe stays in flight: reap(min=0) must
 * come back empty at once, and a blocking reap gets it once data comes. */
static void test_uring_reap_pending(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *out[POOL];
	char data[64];
	uint64_t start;
	int pipe_fds[2];

	(void)state;
	assert_int_equal(pipe(pipe_fds), 0);
	pool_init(&p, BS);
	p.ios[0].dir = DIR_READ;
	p.ios[0].offset = (uint64_t)-1; /* current position: a stream */
	assert_int_equal(engine_start(&e, "io_uring", pipe_fds[0], &p, spec), 0);
	assert_int_equal(e.ops->prep(&e, &p.ios[0]), 0);
	assert_int_equal(e.ops->submit(&e), 1);
	start = now_ns();
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	assert_true(now_ns() - start < 100000000u);
	memset(data, 'x', sizeof(data));
	assert_int_equal(write(pipe_fds[1], data, sizeof(data)),
			 (ssize_t)sizeof(data));
	assert_int_equal(e.ops->reap(&e, out, 1, POOL), 1);
	assert_ptr_equal(out[0], &p.ios[0]);
	assert_int_equal(p.ios[0].result, (int32_t)sizeof(data));
	assert_memory_equal(p.ios[0].buf, data, sizeof(data));
	e.ops->cleanup(&e);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	pool_free(&p);
	free(spec);
}

/* ---- io_uring option errors --------------------------------------------- */

static void test_uring_hipri_needs_direct(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	int fd = temp_file(false);

	(void)state;
	spec->hipri = true;
	pool_init(&p, BS);
	err_clear();
	assert_int_equal(engine_start(&e, "io_uring", fd, &p, spec), -1);
	assert_string_equal(err_msg(), "io_uring: hipri needs direct=1 "
			    "(polled completions work only with O_DIRECT)");
	assert_null(e.priv);
	pool_free(&p);
	free(spec);
	close(fd);
}

static void test_uring_fixedbufs_needs_buffers(void **state)
{
	struct job_spec *spec = new_spec();
	struct engine e = { .ops = &engine_io_uring, .depth = DEPTH };
	int fd = temp_file(false);

	(void)state;
	e.fd = fd;
	spec->fixedbufs = true;
	err_clear();
	assert_int_equal(e.ops->init(&e, spec), -1);
	assert_non_null(strstr(err_msg(), "fixedbufs needs the I/O buffers"));
	assert_null(e.priv);
	free(spec);
	close(fd);
}

static void test_uring_registerfiles_bad_fd(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	int fd = unused_fd();

	(void)state;
	spec->registerfiles = true;
	pool_init(&p, BS);
	err_clear();
	assert_int_equal(engine_start(&e, "io_uring", fd, &p, spec), -1);
	assert_string_equal(err_msg(),
			    "io_uring_register_files: Bad file descriptor");
	assert_null(e.priv);
	pool_free(&p);
	free(spec);
}

static void test_uring_depth_limit(void **state)
{
	struct job_spec *spec = new_spec();
	struct engine e = { .ops = &engine_io_uring, .fd = 0, .depth = 65536 };

	(void)state;
	err_clear();
	assert_int_equal(e.ops->init(&e, spec), -1);
	assert_non_null(strstr(err_msg(), "above the ring limit"));
	free(spec);
}

struct submit_from_thread {
	struct engine *e;
	int ret;
	char msg[256];
};

static void *submit_other_thread(void *arg)
{
	struct submit_from_thread *s = arg;

	s->ret = s->e->ops->submit(s->e);
	snprintf(s->msg, sizeof(s->msg), "%s", err_msg());
	return NULL;
}

/* The ring is single-issuer: init must run on the thread that submits. */
static void test_uring_submit_from_other_thread(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct submit_from_thread s = { .e = &e };
	pthread_t thread;
	int fd = temp_file(false);

	(void)state;
	pool_init(&p, BS);
	p.ios[0].dir = DIR_WRITE;
	assert_int_equal(engine_start(&e, "io_uring", fd, &p, spec), 0);
	assert_int_equal(e.ops->prep(&e, &p.ios[0]), 0);
	assert_int_equal(pthread_create(&thread, NULL, submit_other_thread, &s), 0);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(s.ret, -1);
	assert_non_null(strstr(s.msg, "set up by another thread"));
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
	close(fd);
}

/* ---- libaio ------------------------------------------------------------- */

static void test_libaio_setup_over_limit(void **state)
{
	struct job_spec *spec = new_spec();
	struct engine e = { .ops = &engine_libaio, .depth = 1u << 19 };
	unsigned long max_nr = 0;
	FILE *f = fopen("/proc/sys/fs/aio-max-nr", "r");
	int fd = temp_file(false);

	(void)state;
	e.fd = fd;
	if (!f || fscanf(f, "%lu", &max_nr) != 1 || max_nr >= e.depth) {
		if (f)
			fclose(f);
		free(spec);
		close(fd);
		print_message("fs.aio-max-nr allows %lu: cannot provoke "
			      "io_setup failure\n", max_nr);
		skip();
	}
	fclose(f);
	err_clear();
	assert_int_equal(e.ops->init(&e, spec), -1);
	assert_non_null(strstr(err_msg(), "io_setup: "));
	assert_null(e.priv);
	free(spec);
	close(fd);
}

/* ---- null engine -------------------------------------------------------- */

static void test_null_latency_values(void **state)
{
	(void)state;
	/* frac(n * 0.618...) for n = 1, 2, 3: .618, .236, .854 */
	assert_int_equal(null_latency_for(1, 0, 1000), 618);
	assert_int_equal(null_latency_for(2, 0, 1000), 236);
	assert_int_equal(null_latency_for(3, 0, 1000), 854);
	assert_int_equal(null_latency_for(1, 5000, 6000), 5618);
	assert_int_equal(null_latency_for(7, 100, 100), 100);
	assert_int_equal(null_latency_for(7, 200, 100), 200);
	for (uint64_t seq = 1; seq < 100000; seq++) {
		uint64_t v = null_latency_for(seq, 1000, 2000);

		assert_true(v >= 1000 && v < 2000);
	}
	assert_true(null_latency_for(123, 0, UINT64_MAX) < UINT64_MAX);
}

static void test_null_engine(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *batch[DEPTH];
	struct io *out[POOL];
	unsigned i;

	(void)state;
	pool_init(&p, BS);
	assert_int_equal(engine_start(&e, "null", -1, &p, spec), 0);
	for (i = 0; i < DEPTH; i++) {
		p.ios[i].len = 512 * (i + 1);
		p.ios[i].issue_ns = 1000 + i;
		p.ios[i].result = -1;
		batch[i] = &p.ios[i];
		assert_int_equal(e.ops->prep(&e, batch[i]), 0);
	}
	err_clear();
	assert_int_equal(e.ops->prep(&e, &p.ios[DEPTH]), -1);
	assert_non_null(strstr(err_msg(), "queue full"));
	/* nothing completes before it is submitted */
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	assert_int_equal(e.ops->submit(&e), (int)DEPTH);
	assert_int_equal(e.ops->submit(&e), 0);
	assert_int_equal(e.ops->reap(&e, out, 0, 3), 3);
	assert_int_equal(e.ops->reap(&e, out + 3, 0, POOL), (int)DEPTH - 3);
	assert_completions(out, DEPTH, batch, DEPTH);
	for (i = 0; i < DEPTH; i++) {
		assert_ptr_equal(out[i], batch[i]); /* in order */
		assert_int_equal(p.ios[i].result, (int32_t)(512 * (i + 1)));
		assert_int_equal(p.ios[i].complete_ns, 0);
	}
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
}

static void test_null_programmed_latency(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *out[POOL];
	uint64_t seq = 0;
	unsigned round, i, got;

	(void)state;
	spec->null_latency_min_ns = 10000;
	spec->null_latency_max_ns = 5000000;
	pool_init(&p, BS);
	assert_int_equal(engine_start(&e, "null", -1, &p, spec), 0);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < DEPTH; i++) {
			p.ios[i].issue_ns = 1000000u * round + 100u * i;
			p.ios[i].complete_ns = 0;
			assert_int_equal(e.ops->prep(&e, &p.ios[i]), 0);
		}
		assert_int_equal(e.ops->submit(&e), (int)DEPTH);
		/* reap in uneven pieces: the sequence runs on regardless */
		for (got = 0; got < DEPTH;) {
			int n = e.ops->reap(&e, out, 1, 3);

			assert_true(n >= 1 && n <= 3);
			for (i = 0; i < (unsigned)n; i++) {
				struct io *io = out[i];

				seq++;
				assert_int_equal(io->complete_ns,
					io->issue_ns + null_latency_for(seq,
						10000, 5000000));
				assert_true(io->complete_ns - io->issue_ns >= 10000);
				assert_true(io->complete_ns - io->issue_ns < 5000000);
				assert_int_equal(io->result, (int32_t)BS);
			}
			got += (unsigned)n;
		}
	}
	assert_int_equal(seq, 3 * DEPTH);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
}

/* A modelled latency is real time: nothing comes back before it is due,
 * one reap waits a slice at most (so a loop sees its deadline and stop
 * flag), due I/Os leave in any order, and cancel hands back the rest
 * undone. */
static void test_null_latency_is_waited_for(void **state)
{
	struct pool p;
	struct engine e;
	struct job_spec *spec = new_spec();
	struct io *out[POOL];
	uint64_t t0, took;
	int n;

	(void)state;
	spec->null_latency_min_ns = 10ull * 1000000000ull;   /* longer than the test */
	spec->null_latency_max_ns = spec->null_latency_min_ns;
	pool_init(&p, BS);
	assert_int_equal(engine_start(&e, "null", -1, &p, spec), 0);
	t0 = clock_now_ns();
	for (unsigned i = 0; i < 4; i++) {
		p.ios[i].issue_ns = t0;
		assert_int_equal(e.ops->prep(&e, &p.ios[i]), 0);
	}
	/* one I/O issued long ago is due at once, in the middle of the queue */
	p.ios[2].issue_ns = t0 - spec->null_latency_min_ns;
	assert_int_equal(e.ops->submit(&e), 4);
	n = e.ops->reap(&e, out, 1, POOL);
	assert_int_equal(n, 1);
	assert_ptr_equal(out[0], &p.ios[2]);
	assert_int_equal(out[0]->result, (int32_t)BS);
	t0 = clock_now_ns();
	n = e.ops->reap(&e, out, 1, POOL);
	took = clock_now_ns() - t0;
	assert_int_equal(n, 0);                       /* not due for 10 s */
	assert_true(took >= 40000000ull && took < 500000000ull);
	assert_non_null(e.ops->cancel);
	n = e.ops->cancel(&e, out, POOL);
	assert_int_equal(n, 3);
	for (int i = 0; i < n; i++)
		assert_int_equal(out[i]->result, -ECANCELED);
	assert_ptr_equal(out[0], &p.ios[0]);
	assert_ptr_equal(out[2], &p.ios[3]);
	assert_int_equal(e.ops->cancel(&e, out, POOL), 0);
	assert_int_equal(e.ops->reap(&e, out, 0, POOL), 0);
	e.ops->cleanup(&e);
	pool_free(&p);
	free(spec);
}

static const struct roundtrip_case roundtrips[] = {
	{ .writer = "io_uring", .reader = "libaio" },
	{ .writer = "libaio", .reader = "psync" },
	{ .writer = "psync", .reader = "io_uring" },
	{ .writer = "io_uring", .reader = "libaio", .direct = true },
	{ .writer = "libaio", .reader = "psync", .direct = true },
	{ .writer = "psync", .reader = "io_uring", .direct = true },
	{ .writer = "io_uring", .reader = "io_uring", .fixedbufs = true },
	{ .writer = "io_uring", .reader = "io_uring", .fixedbufs = true,
	  .direct = true },
	{ .writer = "io_uring", .reader = "psync", .registerfiles = true },
	{ .writer = "io_uring", .reader = "io_uring", .fixedbufs = true,
	  .registerfiles = true, .direct = true },
	{ .writer = "io_uring", .reader = "io_uring", .sqpoll = true },
	{ .writer = "io_uring", .reader = "io_uring", .hipri = true,
	  .direct = true },
	{ .writer = "sync", .reader = "psync" },
	{ .writer = "psync", .reader = "sync" },
	{ .writer = "pvsync", .reader = "pvsync2" },
	{ .writer = "pvsync2", .reader = "sync", .direct = true },
	{ .writer = "vsync", .reader = "posixaio" },
	{ .writer = "posixaio", .reader = "vsync", .direct = true },
};

#define ROUNDTRIP(name, i) \
	{ name, test_roundtrip, NULL, NULL, (void *)&roundtrips[i] }
#define ON_ENGINE(test, engine) \
	{ #test "/" engine, test, NULL, NULL, engine }
#define PER_ENGINE(test) \
	ON_ENGINE(test, "io_uring"), ON_ENGINE(test, "libaio"), \
	ON_ENGINE(test, "psync"), ON_ENGINE(test, "sync"), \
	ON_ENGINE(test, "pvsync"), ON_ENGINE(test, "pvsync2"), \
	ON_ENGINE(test, "vsync"), ON_ENGINE(test, "posixaio")

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_known_engines),
		cmocka_unit_test(test_engine_flags),
		cmocka_unit_test(test_find_unknown_engine),
		cmocka_unit_test(test_engine_table_is_the_list),
		ROUNDTRIP("roundtrip_io_uring_to_libaio", 0),
		ROUNDTRIP("roundtrip_libaio_to_psync", 1),
		ROUNDTRIP("roundtrip_psync_to_io_uring", 2),
		ROUNDTRIP("roundtrip_io_uring_to_libaio_direct", 3),
		ROUNDTRIP("roundtrip_libaio_to_psync_direct", 4),
		ROUNDTRIP("roundtrip_psync_to_io_uring_direct", 5),
		ROUNDTRIP("roundtrip_io_uring_fixedbufs", 6),
		ROUNDTRIP("roundtrip_io_uring_fixedbufs_direct", 7),
		ROUNDTRIP("roundtrip_io_uring_registerfiles", 8),
		ROUNDTRIP("roundtrip_io_uring_fixedbufs_registerfiles_direct", 9),
		ROUNDTRIP("roundtrip_io_uring_sqpoll", 10),
		ROUNDTRIP("roundtrip_io_uring_hipri_direct", 11),
		ROUNDTRIP("roundtrip_sync_to_psync", 12),
		ROUNDTRIP("roundtrip_psync_to_sync", 13),
		ROUNDTRIP("roundtrip_pvsync_to_pvsync2", 14),
		ROUNDTRIP("roundtrip_pvsync2_to_sync_direct", 15),
		ROUNDTRIP("roundtrip_vsync_to_posixaio", 16),
		ROUNDTRIP("roundtrip_posixaio_to_vsync_direct", 17),
		PER_ENGINE(test_read_past_eof),
		PER_ENGINE(test_closed_fd),
		PER_ENGINE(test_no_fd_is_init_error),
		PER_ENGINE(test_zero_depth_is_init_error),
		ON_ENGINE(test_zero_depth_is_init_error, "null"),
		PER_ENGINE(test_queue_full),
		PER_ENGINE(test_reap_without_waiting),
		cmocka_unit_test(test_uring_reap_pending),
		cmocka_unit_test(test_uring_hipri_needs_direct),
		cmocka_unit_test(test_uring_fixedbufs_needs_buffers),
		cmocka_unit_test(test_uring_registerfiles_bad_fd),
		cmocka_unit_test(test_uring_depth_limit),
		cmocka_unit_test(test_uring_submit_from_other_thread),
		cmocka_unit_test(test_libaio_setup_over_limit),
		cmocka_unit_test(test_null_latency_values),
		cmocka_unit_test(test_null_latency_is_waited_for),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_null_programmed_latency),
	};

	/* a wedged reap fails the run instead of hanging it */
	alarm(120);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
