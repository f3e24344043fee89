/* test_engine_kinds.c - the engines that are not plain reads and writes,
 * through their ops as the runner drives them: ftruncate sets the file's
 * size, falloc allocates (reads without growing it), page_fault copies
 * through its mapping, cpuio stamps a burst and thinks outside it, exec
 * runs its program and stops it with SIGTERM then SIGKILL; and a job
 * thread's settings (nice, I/O priority, CPUs, memory policy). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/engine.h"
#include "run/job_env.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/options.h"
#include "helpers/tmpdir.h"

#define BS 4096u
#define POOL 4u

struct rig {
	struct io ios[POOL];
	void *mem;
	struct engine e;
	struct job_spec spec;
};

static void rig_init(struct rig *r, const char *engine, int fd, uint64_t range_len)
{
	memset(r, 0, sizeof(*r));
	job_spec_defaults(&r->spec);
	assert_int_equal(posix_memalign(&r->mem, 4096, POOL * BS), 0);
	memset(r->mem, 0, POOL * BS);
	for (unsigned i = 0; i < POOL; i++) {
		r->ios[i].buf = (char *)r->mem + i * BS;
		r->ios[i].len = BS;
	}
	r->e.ops = engine_find(engine);
	assert_non_null(r->e.ops);
	r->e.fd = fd;
	r->e.depth = POOL;
	r->e.ios = r->ios;
	r->e.nr_ios = POOL;
	r->e.buf_size = BS;
	r->e.range_len = range_len;
	r->e.path = "test";
}

static void rig_free(struct rig *r)
{
	if (r->e.priv)
		r->e.ops->cleanup(&r->e);
	free(r->mem);
}

/* One I/O through prep, submit and reap (waiting for it). */
static int32_t one_io(struct rig *r, struct io *io, int dir, uint64_t offset)
{
	struct io *out[POOL];
	int n = 0;

	io->dir = (uint8_t)dir;
	io->offset = offset;
	assert_int_equal(r->e.ops->prep(&r->e, io), 0);
	assert_int_equal(r->e.ops->submit(&r->e), 1);
	io->issue_ns = clock_now_ns();
	for (int tries = 0; n == 0 && tries < 1000; tries++)
		n = r->e.ops->reap(&r->e, out, 1, POOL);
	assert_int_equal(n, 1);
	assert_ptr_equal(out[0], io);
	return io->result;
}

static void test_ftruncate(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	int fd = tmp_file("drivebench_kinds", path, sizeof(path));
	struct rig r;
	struct stat st;

	(void)state;
	rig_init(&r, "ftruncate", fd, 1 << 20);
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	assert_int_equal(one_io(&r, &r.ios[0], DIR_WRITE, 12288), BS);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 12288);
	assert_int_equal(one_io(&r, &r.ios[1], DIR_WRITE, 4096), BS);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 4096);
	assert_int_equal(one_io(&r, &r.ios[2], DIR_READ, 0), -EINVAL);
	rig_free(&r);
	close(fd);
	unlink(path);
}

static void test_falloc(void **state)
{
	char path[TMPDIR_PATH_MAX + 64];
	int fd = tmp_file("drivebench_kinds", path, sizeof(path));
	struct rig r;
	struct stat st;

	(void)state;
	rig_init(&r, "falloc", fd, 1 << 20);
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	/* a read allocates without growing the file */
	assert_int_equal(one_io(&r, &r.ios[0], DIR_READ, 65536), BS);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_true(st.st_blocks >= BS / 512);
	/* a write allocates and extends */
	assert_int_equal(one_io(&r, &r.ios[1], DIR_WRITE, 8192), BS);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 8192 + BS);
	assert_true(st.st_blocks >= 2 * BS / 512);
	rig_free(&r);
	close(fd);
	unlink(path);

	rig_init(&r, "falloc", -1, 1 << 20);
	err_clear();
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), -1);
	assert_string_equal(err_msg(), "falloc: no file descriptor");
	rig_free(&r);
}

static void test_page_fault(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "page_fault", -1, 64 * BS);
	assert_false(engine_needs_fd(r.e.ops));
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	memset(r.ios[0].buf, 0x5a, BS);
	assert_int_equal(one_io(&r, &r.ios[0], DIR_WRITE, 3 * BS), BS);
	assert_int_equal(one_io(&r, &r.ios[1], DIR_READ, 3 * BS), BS);
	assert_memory_equal(r.ios[0].buf, r.ios[1].buf, BS);
	assert_int_equal(one_io(&r, &r.ios[2], DIR_READ, 2 * BS), BS);
	assert_int_equal(((unsigned char *)r.ios[2].buf)[0], 0);   /* untouched: zero */
	assert_int_equal(one_io(&r, &r.ios[3], DIR_READ, 64 * BS), -EINVAL);
	rig_free(&r);

	rig_init(&r, "page_fault", -1, 64 * BS);
	r.e.range_start = BS;
	err_clear();
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), -1);
	assert_non_null(strstr(err_msg(), "the mapping starts at offset 0"));
	rig_free(&r);
}

/* A burst is the I/O's latency; the think after it is not. */
static void test_cpuio_burst_and_think(void **state)
{
	struct rig r;
	struct io *out[POOL];
	uint64_t t0, burst;
	int n;

	(void)state;
	rig_init(&r, "cpuio", -1, 1 << 20);
	r.spec.eng.cpuio.load = 50;
	r.spec.eng.cpuio.chunk_us = 20000;
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	assert_int_equal(one_io(&r, &r.ios[0], DIR_READ, 0), BS);
	burst = r.ios[0].complete_ns - r.ios[0].issue_ns;
	assert_true(burst >= 20000000ull);
	assert_int_equal(r.ios[0].start_ns, r.ios[0].issue_ns);    /* no slat */
	/* the next burst starts only after a think as long as the burst */
	t0 = clock_now_ns();
	assert_int_equal(one_io(&r, &r.ios[1], DIR_READ, 0), BS);
	assert_true(r.ios[1].issue_ns - r.ios[0].complete_ns >= burst - 1000000);
	assert_true(clock_now_ns() - t0 >= 20000000ull);
	/* an I/O still in its think is cancelled, not completed */
	assert_int_equal(r.e.ops->prep(&r.e, &r.ios[2]), 0);
	assert_int_equal(r.e.ops->submit(&r.e), 1);
	n = r.e.ops->cancel(&r.e, out, POOL);
	assert_int_equal(n, 1);
	assert_int_equal(out[0]->result, -ECANCELED);
	assert_int_equal(r.e.ops->reap(&r.e, out, 0, POOL), 0);
	rig_free(&r);
}

/* exit_on_io_done: with no data-moving job running, cpuio ends its job. */
static void test_cpuio_exit_on_io_done(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "cpuio", -1, 1 << 20);
	r.spec.eng.cpuio.load = 100;
	r.spec.eng.cpuio.chunk_us = 1000;
	r.spec.eng.cpuio.exit_on_io_done = true;
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	engine_io_jobs_add(1);
	assert_int_equal(one_io(&r, &r.ios[0], DIR_READ, 0), BS);
	assert_false(r.e.ended);
	engine_io_jobs_add(-1);
	assert_int_equal(one_io(&r, &r.ios[1], DIR_READ, 0), -ECANCELED);
	assert_true(r.e.ended);
	rig_free(&r);
}

static void test_exec_runs_and_stops(void **state)
{
	const char *dir = tmp_dir();
	char marker[TMPDIR_PATH_MAX + 64], script[TMPDIR_PATH_MAX + 64];
	char text[256] = { 0 };
	struct rig r;
	FILE *f;
	uint64_t t0;

	(void)state;
	snprintf(marker, sizeof(marker), "%s/ran", dir);
	snprintf(script, sizeof(script), "%s/prog.sh", dir);
	f = fopen(script, "w");
	assert_non_null(f);
	/* ignores SIGTERM, so only SIGKILL (after grace_time) ends it */
	fprintf(f, "#!/bin/sh\ntrap '' TERM\necho \"$2 $3\" > \"$1\"\nexec sleep 30\n");
	fclose(f);
	assert_int_equal(chmod(script, 0755), 0);

	rig_init(&r, "exec", -1, 1 << 20);
	snprintf(r.spec.name, sizeof(r.spec.name), "myjob");
	snprintf(r.spec.eng.exec.program, sizeof(r.spec.eng.exec.program), "%s", script);
	snprintf(r.spec.eng.exec.arguments, sizeof(r.spec.eng.exec.arguments),
		 "%s %%n %%r", marker);
	r.spec.eng.exec.std_redirect = false;
	r.spec.eng.exec.grace_s = 0;
	r.spec.runtime_ns = 7000000000ull;
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), 0);
	assert_int_equal(one_io(&r, &r.ios[0], DIR_READ, 0), BS);   /* starts it */
	t0 = clock_now_ns();
	assert_int_equal(one_io(&r, &r.ios[1], DIR_READ, 0), BS);   /* a 50 ms poll */
	assert_true(clock_now_ns() - r.ios[1].issue_ns >= 49000000ull);
	for (int i = 0; i < 200 && access(marker, F_OK); i++)
		usleep(10000);
	f = fopen(marker, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "myjob 7\n");
	t0 = clock_now_ns();
	r.e.ops->cleanup(&r.e);              /* SIGTERM ignored: SIGKILL */
	assert_true(clock_now_ns() - t0 < 5000000000ull);
	r.e.priv = NULL;
	rig_free(&r);

	rig_init(&r, "exec", -1, 1 << 20);
	snprintf(r.spec.eng.exec.program, sizeof(r.spec.eng.exec.program),
		 "no-such-program-here");
	err_clear();
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), -1);
	assert_string_equal(err_msg(), "exec: program 'no-such-program-here' is not on $PATH");
	snprintf(r.spec.eng.exec.program, sizeof(r.spec.eng.exec.program), "%s/none", dir);
	assert_int_equal(r.e.ops->init(&r.e, &r.spec), -1);
	assert_non_null(strstr(err_msg(), "No such file or directory"));
	rig_free(&r);
	unlink(marker);
	unlink(script);
}

/* The settings land on the calling thread. */
static void test_job_env(void **state)
{
	struct worker w;
	struct job_spec spec;
	cpu_set_t before, now;
	long ioprio;
	int mode = -1;

	(void)state;
	memset(&w, 0, sizeof(w));
	job_spec_defaults(&spec);
	w.spec = &spec;
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_int_equal(job_option_set(&spec, "nice", "3"), 0);
	assert_int_equal(job_option_set(&spec, "prioclass", "3"), 0);
	assert_int_equal(job_option_set(&spec, "numa_cpu_nodes", "0"), 0);
	assert_int_equal(job_option_set(&spec, "numa_mem_policy", "bind:0"), 0);
	assert_int_equal(job_option_set(&spec, "cpus_allowed_policy", "split"), 0);
	w.clone = 0;
	assert_int_equal(job_env_apply(&w), 0);
	assert_int_equal(getpriority(PRIO_PROCESS, 0), 3);
	ioprio = syscall(SYS_ioprio_get, 1, 0);
	assert_int_equal(ioprio, 3l << 13);
	assert_int_equal(syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL), 0);
	assert_int_equal(mode, 2);   /* MPOL_BIND */
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_int_equal(CPU_COUNT(&now), 1);   /* split: one CPU of node 0 */
	/* back to what the test process had */
	assert_int_equal(syscall(SYS_set_mempolicy, 0, NULL, 0UL), 0);
	assert_int_equal(sched_setaffinity(0, sizeof(before), &before), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftruncate),
		cmocka_unit_test(test_falloc),
		cmocka_unit_test(test_page_fault),
		cmocka_unit_test(test_cpuio_burst_and_think),
		cmocka_unit_test(test_cpuio_exit_on_io_done),
		cmocka_unit_test(test_exec_runs_and_stops),
		cmocka_unit_test(test_job_env),   /* last: it renices the process' thread */
	};

	alarm(120);
	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
