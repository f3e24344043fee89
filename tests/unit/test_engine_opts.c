/* test_engine_opts.c - the options of docs/engines.md as pure logic: an
 * engine option is valid only with its engine (also through fault:), what
 * each engine needs of the job, threads, gtod_reduce and disable_*, nice,
 * prio, NUMA node lists and memory policies, cpumask, atomic, the engines
 * that alter their target, and cmdprio: parsing, its errors, and the share
 * of I/Os each priority gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/cmdprio.h"
#include "io/engine.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/fixtures.h"

static void test_engine_option_needs_its_engine(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "cpuload", "50");          /* before ioengine, as in [global] */
	set_ok(s, "ioengine", "psync");
	set_ok(s, "runtime", "1");
	validate_fails_with(s, "job 'job': option 'cpuload' is an option of ioengine=cpuio, "
		     "not of ioengine=psync");
	set_ok(s, "ioengine", "cpuio");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "ioengine", "fault:cpuio");   /* the wrapped engine's options */
	assert_int_equal(job_spec_validate(s), 0);

	job_spec_defaults(s);
	set_ok(s, "cmdprio_percentage", "20");
	set_ok(s, "ioengine", "psync");
	validate_fails_with(s, "option 'cmdprio_percentage' is an option of ioengine=io_uring "
		     "or libaio, not of ioengine=psync");
	set_ok(s, "ioengine", "libaio");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "ioengine", "io_uring");
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
}

static void test_engine_needs(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "ioengine", "cpuio");
	set_ok(s, "runtime", "1");
	validate_fails_with(s, "ioengine=cpuio needs cpuload=");
	set_ok(s, "cpuload", "10");
	set_ok(s, "runtime", "0");
	validate_fails_with(s, "ioengine=cpuio moves no data, so only runtime= ends it");

	job_spec_defaults(s);
	set_ok(s, "ioengine", "exec");
	set_ok(s, "runtime", "1");
	validate_fails_with(s, "ioengine=exec needs program=");
	set_ok(s, "program", "/bin/true");
	assert_int_equal(job_spec_validate(s), 0);

	job_spec_defaults(s);
	set_ok(s, "ioengine", "e4defrag");
	set_ok(s, "rw", "write");
	validate_fails_with(s, "ioengine=e4defrag needs donorname=");
	set_ok(s, "donorname", "d.def");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "rw", "randrw");
	validate_fails_with(s, "ioengine=e4defrag only writes");

	job_spec_defaults(s);
	set_ok(s, "ioengine", "ftruncate");
	validate_fails_with(s, "ioengine=ftruncate only writes (rw=write or randwrite)");
	set_ok(s, "rw", "randwrite");
	assert_int_equal(job_spec_validate(s), 0);

	job_spec_defaults(s);
	set_ok(s, "ioengine", "page_fault");
	set_ok(s, "offset", "4k");
	validate_fails_with(s, "ioengine=page_fault maps the job's size from its start");

	/* verify needs an engine whose writes read back */
	job_spec_defaults(s);
	set_ok(s, "rw", "write");
	set_ok(s, "verify", "crc32c");
	set_ok(s, "ioengine", "ftruncate");
	validate_fails_with(s, "option 'verify': the ftruncate engine keeps no data to verify");
	set_ok(s, "ioengine", "fault:falloc");
	validate_fails_with(s, "option 'verify': the fault:falloc engine keeps no data to verify");
	set_ok(s, "ioengine", "sync");
	assert_int_equal(job_spec_validate(s), 0);
	free(s);
}

/* falloc's reads allocate: such a job writes its target. */
static void test_engine_that_alters(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "rw", "read");
	assert_false(job_spec_writes(s));
	set_ok(s, "ioengine", "falloc");
	assert_true(job_spec_writes(s));
	set_ok(s, "ioengine", "fault:falloc");
	assert_true(job_spec_writes(s));
	set_ok(s, "ioengine", "ftruncate");
	assert_false(job_spec_writes(s));
	free(s);
}

static void test_threads_and_measurements(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "threads", "1");
	assert_true(s->thread);
	set_ok(s, "threads", "0");
	set_fails_with(s, "threads", "4", "use numjobs=4");
	set_fails_with(s, "threads", "x", "bad number 'x'");

	set_ok(s, "gtod_reduce", "0");
	assert_false(s->eng.disable_lat || s->eng.disable_clat || s->eng.disable_slat);
	set_ok(s, "gtod_reduce", NULL);
	assert_true(s->eng.disable_lat && s->eng.disable_clat && s->eng.disable_slat &&
		    s->eng.disable_bw);
	set_ok(s, "disable_lat", "0");
	set_ok(s, "gtod_reduce", "0");         /* leaves the others as they are */
	assert_false(s->eng.disable_lat);
	assert_true(s->eng.disable_clat);
	set_ok(s, "disable_bw", "0");           /* fio's alias */
	assert_false(s->eng.disable_bw);
	set_fails_with(s, "gtod_reduce", "maybe", "bad boolean 'maybe'");
	free(s);
}

static void test_nice_and_prio(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	assert_int_equal(cmdprio_job_ioprio(s), 0);
	set_ok(s, "nice", "-5");
	assert_int_equal(s->eng.nice, -5);
	assert_true(s->eng.nice_set);
	set_ok(s, "nice", "19");
	assert_int_equal(s->eng.nice, 19);
	set_fails_with(s, "nice", "-", "bad number '-'");
	set_ok(s, "prio", "7");
	/* no class: best effort, as fio's ioprio_value */
	assert_int_equal(cmdprio_job_ioprio(s), 2u << 13 | 7);
	set_ok(s, "prioclass", "3");
	assert_int_equal(cmdprio_job_ioprio(s), 3u << 13 | 7);
	free(s);
}

static void test_numa_options(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "numa_cpu_nodes", "0");
	assert_true(s->eng.numa_cpu_nodes_set);
	assert_int_equal(s->eng.numa_cpu_nodes[0], 1);
	set_ok(s, "numa_cpu_nodes", "all");
	assert_true(s->eng.numa_cpu_nodes[0] & 1);
	set_fails_with(s, "numa_cpu_nodes", "1023", "NUMA node 1023 is not on this machine");
	set_fails_with(s, "numa_cpu_nodes", "0-", "bad node list '0-'");
	set_fails_with(s, "numa_cpu_nodes", "0,x", "bad node list '0,x'");
	set_fails_with(s, "numa_cpu_nodes", "3-1", "range 3-1 runs backwards");

	set_ok(s, "numa_mem_policy", "bind:0");
	assert_int_equal(s->eng.numa_mem_policy, NUMA_MEM_BIND);
	set_ok(s, "numa_mem_policy", "interleave:0");
	set_ok(s, "numa_mem_policy", "prefer:0");
	assert_int_equal(s->eng.numa_mem_policy, NUMA_MEM_PREFER);
	set_ok(s, "numa_mem_policy", "local");
	assert_int_equal(s->eng.numa_mem_policy, NUMA_MEM_LOCAL);
	set_ok(s, "numa_mem_policy", "default");
	set_fails_with(s, "numa_mem_policy", "bind", "bind needs nodes (e.g. bind:0)");
	set_fails_with(s, "numa_mem_policy", "local:0", "local takes no nodes");
	set_fails_with(s, "numa_mem_policy", "prefer:0,0", "prefer takes one node");
	set_fails_with(s, "numa_mem_policy", "spread:0", "unknown policy 'spread:0'");
	set_fails_with(s, "numa_mem_policy", "bind:7", "NUMA node 7 is not on this machine");
	free(s);
}

static void test_cpu_options(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "cpumask", "0x3");
	assert_string_equal(s->cpus_allowed, "0,1");
	set_ok(s, "cpumask", "5");
	assert_string_equal(s->cpus_allowed, "0,2");
	set_fails_with(s, "cpumask", "zz", "bad mask 'zz'");
	set_ok(s, "cpus_allowed_policy", "split");
	assert_int_equal(s->eng.cpus_allowed_policy, CPUS_SPLIT);
	set_ok(s, "cpus_allowed_policy", "shared");
	set_fails_with(s, "cpus_allowed_policy", "spread", "unknown policy 'spread' (shared or split)");
	free(s);
}

static void test_atomic(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	set_ok(s, "rw", "randwrite");
	set_ok(s, "atomic", "1");
	assert_true(s->direct);               /* atomic=1 implies direct=1 */
	assert_int_equal(job_spec_validate(s), 0);   /* io_uring */
	set_ok(s, "ioengine", "psync");
	validate_fails_with(s, "option 'atomic': ioengine=psync has no atomic writes");
	set_ok(s, "ioengine", "pvsync2");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "buffered", "1");
	validate_fails_with(s, "atomic=1 implies direct=1");
	set_ok(s, "rw", "randread");          /* nothing to write atomically */
	set_ok(s, "direct", "1");
	set_ok(s, "ioengine", "psync");
	assert_int_equal(job_spec_validate(s), 0);
	set_ok(s, "allow_mounted_write", "1");
	assert_true(s->eng.allow_mounted_write);
	free(s);
}

static void test_engine_option_values(void **state)
{
	struct job_spec *s = new_spec();

	(void)state;
	assert_int_equal(s->eng.cpuio.chunk_us, 50000);
	assert_int_equal(s->eng.exec.grace_s, 1);
	assert_true(s->eng.exec.std_redirect);
	assert_int_equal(s->eng.pvsync2.hipri_percentage, 100);
	set_ok(s, "cpumode", "qsort");
	assert_int_equal(s->eng.cpuio.mode, CPUIO_QSORT);
	set_fails_with(s, "cpumode", "spin", "unknown mode 'spin' (noop or qsort)");
	set_ok(s, "exit_on_io_done", NULL);
	assert_true(s->eng.cpuio.exit_on_io_done);
	set_ok(s, "arguments", "-c %r");
	assert_string_equal(s->eng.exec.arguments, "-c %r");
	set_ok(s, "std_redirect", "0");
	assert_false(s->eng.exec.std_redirect);
	set_ok(s, "nowait", NULL);
	assert_true(s->eng.pvsync2.nowait);
	assert_true(job_option_known("cmdprio_bssplit"));
	assert_true(job_option_known("disable_bw"));
	free(s);
}

static void test_cmdprio_parse(void **state)
{
	struct job_spec *s = new_spec();
	const struct cmdprio_opts *o = &s->eng.cmdprio;

	(void)state;
	set_ok(s, "cmdprio_percentage", "20,30");
	assert_int_equal(o->percentage[DIR_READ], 20);
	assert_int_equal(o->percentage[DIR_WRITE], 30);
	set_ok(s, "cmdprio_class", "2");
	assert_int_equal(o->prio_class[DIR_WRITE], 2);
	set_fails_with(s, "cmdprio", "1,2,3", "bad value '1,2,3' (N, or R,W)");
	set_fails_with(s, "cmdprio", "-1", "bad number '-1'");
	set_fails_with(s, "cmdprio", ",1", "bad number ''");

	set_ok(s, "cmdprio_bssplit", "64k/40:1m/0,1m/100");
	assert_int_equal(o->nr_split[DIR_READ], 1);     /* 0% entries dropped */
	assert_int_equal(o->split[DIR_READ][0].bs, 65536);
	assert_int_equal(o->split[DIR_READ][0].prio_class, -1);
	assert_int_equal(o->nr_split[DIR_WRITE], 1);
	set_ok(s, "cmdprio_bssplit", "1M/10/2/0/1:1M/30/2/0/2:2M/90/3/4");
	assert_int_equal(o->nr_split[DIR_WRITE], 3);    /* one list: both directions */
	assert_int_equal(o->split[DIR_READ][1].prio_hint, 2);
	assert_int_equal(o->split[DIR_READ][2].prio_level, 4);
	set_fails_with(s, "cmdprio_bssplit", "4k/10/1", "bad entry");
	set_fails_with(s, "cmdprio_bssplit", "4x/10", "bad block size '4x'");
	set_fails_with(s, "cmdprio_bssplit", "4k/1x", "bad number '1x'");
	set_fails_with(s, "cmdprio_bssplit", "4k/10/1/1/1024", "out of range");
	free(s);
}

static void test_cmdprio_create_errors(void **state)
{
	struct job_spec *s = new_spec();
	bool failed;

	(void)state;
	assert_null(cmdprio_create(s, &failed));   /* not used: no error */
	assert_false(failed);
	set_ok(s, "cmdprio_percentage", "10");
	set_ok(s, "cmdprio_bssplit", "4k/10");
	err_clear();
	assert_null(cmdprio_create(s, &failed));
	assert_true(failed);
	assert_string_equal(err_msg(), "cmdprio_percentage and cmdprio_bssplit exclude each other");
	job_spec_defaults(s);
	set_ok(s, "cmdprio_bssplit", "4k/60/1/0:4k/50/3/0");
	assert_null(cmdprio_create(s, &failed));
	assert_true(failed);
	assert_non_null(strstr(err_msg(), "shares of 4096-byte I/Os add up to more than 100"));
	job_spec_defaults(s);
	set_ok(s, "cmdprio_bssplit", "4k/10/1/0:8k/10/1/0:4k/10/3/0");
	assert_null(cmdprio_create(s, &failed));
	assert_non_null(strstr(err_msg(), "list the entries of one block size together"));
	free(s);
}

/* Over many draws each priority gets its share (the draws are seeded, so
 * the counts are the same every run; the bounds are the law of large
 * numbers', not a measured figure). */
static void test_cmdprio_shares(void **state)
{
	struct job_spec *s = new_spec();
	struct cmdprio *c;
	struct io io = { .dir = DIR_READ, .len = 65536 };
	unsigned count[CMDPRIO_MAX] = { 0 }, n = 20000, v;
	bool failed;

	(void)state;
	set_ok(s, "rw", "randread");
	set_ok(s, "prioclass", "3");
	set_ok(s, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1m/0");
	c = cmdprio_create(s, &failed);
	assert_non_null(c);
	for (unsigned i = 0; i < n; i++) {
		v = cmdprio_pick(c, &io);
		assert_int_equal(v, c->value[DIR_READ][io.prio]);
		count[io.prio]++;
	}
	assert_int_equal(c->nr_values[DIR_READ], 3);
	assert_int_equal(c->value[DIR_READ][0], 3u << 13);       /* the job's */
	assert_int_equal(c->value[DIR_READ][1], 1u << 13 | 1);
	assert_int_equal(c->value[DIR_READ][2], 3u << 13 | 2);
	assert_int_equal(count[0], 0);              /* 25 + 75 = 100% of 64k */
	assert_in_range(count[1], n / 4 - n / 50, n / 4 + n / 50);
	io.len = 4096;                              /* a size with no share */
	assert_int_equal(cmdprio_pick(c, &io), 3u << 13);
	assert_int_equal(io.prio, 0);
	cmdprio_destroy(c);

	job_spec_defaults(s);
	set_ok(s, "cmdprio_percentage", "20");
	c = cmdprio_create(s, &failed);
	assert_non_null(c);
	memset(count, 0, sizeof(count));
	io.len = 4096;
	for (unsigned i = 0; i < n; i++) {
		cmdprio_pick(c, &io);
		count[io.prio]++;
	}
	assert_int_equal(c->value[DIR_READ][1], 1u << 13);   /* RT by default */
	assert_in_range(count[1], n / 5 - n / 50, n / 5 + n / 50);
	cmdprio_destroy(c);
	free(s);
}

/* The clat of each priority lands in the result, and merges by value. */
static void test_cmdprio_collect_and_merge(void **state)
{
	struct job_spec *s = new_spec();
	struct job_result a, b;
	struct cmdprio *c;
	struct io io = { .dir = DIR_READ, .len = 4096, .result = 4096 };
	bool failed;

	(void)state;
	set_ok(s, "cmdprio_percentage", "50");
	c = cmdprio_create(s, &failed);
	assert_non_null(c);
	for (unsigned i = 0; i < 100; i++) {
		cmdprio_pick(c, &io);
		io.issue_ns = 1;
		cmdprio_complete(c, &io, i >= 10);   /* the first 10: ramp */
	}
	job_result_init(&a, s);
	job_result_init(&b, s);
	assert_int_equal(cmdprio_collect(c, &a), 0);
	assert_int_equal(a.nr_prio_clat[DIR_READ], 2);
	assert_int_equal(a.prio_clat[DIR_READ][0].clat.n + a.prio_clat[DIR_READ][1].clat.n, 90);
	assert_int_equal(cmdprio_collect(c, &b), 0);
	assert_int_equal(job_result_merge(&a, &b), 0);
	assert_int_equal(a.nr_prio_clat[DIR_READ], 2);
	assert_int_equal(a.prio_clat[DIR_READ][0].clat.n + a.prio_clat[DIR_READ][1].clat.n, 180);
	job_result_free(&a);
	job_result_free(&b);
	cmdprio_destroy(c);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_option_needs_its_engine),
		cmocka_unit_test(test_engine_needs),
		cmocka_unit_test(test_engine_that_alters),
		cmocka_unit_test(test_threads_and_measurements),
		cmocka_unit_test(test_nice_and_prio),
		cmocka_unit_test(test_numa_options),
		cmocka_unit_test(test_cpu_options),
		cmocka_unit_test(test_atomic),
		cmocka_unit_test(test_engine_option_values),
		cmocka_unit_test(test_cmdprio_parse),
		cmocka_unit_test(test_cmdprio_create_errors),
		cmocka_unit_test(test_cmdprio_shares),
		cmocka_unit_test(test_cmdprio_collect_and_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
