/* test_suitefile.c - suite files: every step parameter, fio options with
 * [global] inheritance, the QD x jobs expansion order, lookup by name, each
 * error with its file:line and key, and the shipped review and quick suites. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite/suite.h"
#include "util/error.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

/* Writes text to DIR/name and returns the path (static buffer). */
static const char *write_suite(const char *name, const char *text)
{
	const char *path = tmp_path(name);

	file_write_text(path, text);
	return path;
}

/* Loads text and expects an error containing "PATH:LINE: " and fragment. */
static void expect_error(const char *text, unsigned line, const char *fragment)
{
	struct suite s;
	char where[192];
	const char *path = write_suite("bad.suite", text);

	snprintf(where, sizeof(where), "%s:%u: ", path, line);
	err_clear();
	assert_int_equal(suite_load(path, &s), -1);
	if (!strstr(err_msg(), where) || !strstr(err_msg(), fragment))
		fail_msg("error '%s' lacks '%s' or '%s'", err_msg(), where, fragment);
	assert_null(s.steps);
	assert_int_equal(s.nr_steps, 0);
}

static const struct suite_step *find_step(const struct suite *s, const char *name)
{
	for (unsigned i = 0; i < s->nr_steps; i++)
		if (!strcmp(s->steps[i].name, name))
			return &s->steps[i];
	fail_msg("no step %s", name);
	return NULL;
}

static void test_every_parameter(void **state)
{
	struct suite s;
	const struct suite_step *st;
	const char *path = write_suite("all.suite",
		"; a comment\n"
		"# another\n"
		"[suite]\n"
		"name = everything\n"
		"description = all the keys\n"
		"[purge]\n"
		"step = purge\n"
		"nvme_format = 1\n"
		"[fill]\n"
		"step = precondition\n"
		"precondition = sequential\n"
		"capacities = 2\n"
		"bs = 128k\n"
		"record_series = 1\n"
		"[spr]\n"
		"step = precondition\n"
		"precondition = sprandom\n"
		"op = 7%\n"
		"regions = 32\n"
		"iu = 16k\n"
		"[rnd]\n"
		"step = precondition\n"
		"precondition = random\n"
		"op = 0.2\n"
		"bs = 8k\n"
		"[ss]\n"
		"step = steady\n"
		"rw = randwrite\n"
		"time_based\n"
		"runtime = 60s\n"
		"metric = bw\n"
		"window = 4\n"
		"max_rounds = 30\n"
		"range_limit = 15%\n"
		"slope_limit = 0.05\n"
		"[lat]\n"
		"step = steady\n"
		"time_based = 1\n"
		"runtime = 1\n"
		"metric = lat\n"
		"[one]\n"
		"step = measure   ; trailing comment\n"
		"rw = read\n"
		"[pts]\n"
		"step = sweep\n"
		"points = 1/1 2/1, 4/2\n"
		"[rest]\n"
		"step = idle\n"
		"idle = 3m\n");

	(void)state;
	assert_int_equal(suite_load(path, &s), 0);
	assert_string_equal(s.name, "everything");
	assert_string_equal(s.description, "all the keys");
	assert_string_equal(s.path, path);
	assert_int_equal(s.nr_steps, 9);

	st = find_step(&s, "purge");
	assert_int_equal(st->kind, STEP_PURGE);
	assert_int_equal(st->purge, PURGE_FORMAT);
	assert_int_equal(st->line, 6);

	st = find_step(&s, "fill");
	assert_int_equal(st->kind, STEP_PRECONDITION);
	assert_int_equal(st->precondition, PRECOND_SEQUENTIAL);
	assert_true(st->capacities == 2);
	assert_int_equal(st->spec.rw, RW_WRITE);          /* set by the mode */
	assert_int_equal(st->spec.bs[DIR_WRITE], 131072);
	assert_int_equal(st->iu, 131072);                 /* iu defaults to bs */
	assert_true(st->record_series);
	assert_false(st->spec.time_based);

	st = find_step(&s, "spr");
	assert_int_equal(st->precondition, PRECOND_SPRANDOM);
	assert_true(st->op > 0.0699 && st->op < 0.0701);
	assert_int_equal(st->regions, 32);
	assert_int_equal(st->iu, 16384);
	assert_int_equal(st->spec.rw, RW_RANDWRITE);

	st = find_step(&s, "rnd");
	assert_int_equal(st->precondition, PRECOND_RANDOM);
	assert_int_equal(st->spec.rw, RW_RANDWRITE);
	assert_true(st->op > 0.1999 && st->op < 0.2001);
	assert_true(st->capacities == 1);                 /* default */

	st = find_step(&s, "ss");
	assert_int_equal(st->kind, STEP_STEADY);
	assert_int_equal(st->metric, STEADY_BW);
	assert_int_equal(st->window, 4);
	assert_int_equal(st->max_rounds, 30);
	assert_true(st->range_limit > 0.1499 && st->range_limit < 0.1501);
	assert_true(st->slope_limit > 0.0499 && st->slope_limit < 0.0501);
	assert_int_equal(st->spec.runtime_ns, 60000000000ull);

	st = find_step(&s, "lat");
	assert_int_equal(st->metric, STEADY_LAT_MEAN);
	assert_int_equal(st->window, 5);                  /* defaults */
	assert_int_equal(st->max_rounds, 25);
	assert_true(st->range_limit == 0.20 && st->slope_limit == 0.10);

	st = find_step(&s, "one");
	assert_int_equal(st->kind, STEP_MEASURE);
	assert_int_equal(st->spec.rw, RW_READ);
	assert_string_equal(st->spec.name, "one");       /* job name = step name */
	assert_string_equal(st->spec.source, path);
	assert_int_equal(st->spec.source_line, st->line);

	st = find_step(&s, "pts");
	assert_int_equal(st->nr_points, 3);
	assert_int_equal(st->points[2].iodepth, 4);
	assert_int_equal(st->points[2].numjobs, 2);

	st = find_step(&s, "rest");
	assert_int_equal(st->kind, STEP_IDLE);
	assert_int_equal(st->idle_ns, 180000000000ull);
	assert_int_equal(s.steps[8].kind, STEP_IDLE);     /* file order */
	suite_free(&s);
	assert_null(s.steps);
}

static void test_points_expansion_order(void **state)
{
	struct suite s;
	const char *path = write_suite("order.suite",
		"[sw]\nstep = sweep\nrw = randread\n"
		"iodepths = 1,2,4\nnumjobs = 1, 4,8\n"
		"[jobs1]\nstep = sweep\niodepths = 8 16\n");
	static const unsigned want[][2] = {
		{ 1, 1 }, { 2, 1 }, { 4, 1 }, { 1, 4 }, { 2, 4 }, { 4, 4 },
		{ 1, 8 }, { 2, 8 }, { 4, 8 },
	};

	(void)state;
	assert_int_equal(suite_load(path, &s), 0);
	assert_int_equal(s.steps[0].nr_points, 9);
	for (unsigned i = 0; i < 9; i++) {
		assert_int_equal(s.steps[0].points[i].iodepth, want[i][0]);
		assert_int_equal(s.steps[0].points[i].numjobs, want[i][1]);
	}
	/* numjobs next to iodepths is the jobs list, not fio's numjobs */
	assert_int_equal(s.steps[0].spec.numjobs, 1);
	/* iodepths alone: jobs 1 */
	assert_int_equal(s.steps[1].nr_points, 2);
	assert_int_equal(s.steps[1].points[1].iodepth, 16);
	assert_int_equal(s.steps[1].points[1].numjobs, 1);
	/* the name comes from the file when [suite] does not give one */
	assert_string_equal(s.name, "order");
	suite_free(&s);
}

static void test_global_inheritance(void **state)
{
	struct suite s;
	const char *path = write_suite("g.suite",
		"[before]\nstep = measure\n"
		"[global]\nbs = 8k\nnumjobs = 2\ntime_based\nruntime = 10s\nrw = randread\n"
		"[a]\nstep = measure\n"
		"[b]\nstep = measure\nbs = 16k\n"
		"[global]\nbs = 32k\n"
		"[c]\nstep = measure\n"
		"[fill]\nstep = precondition\nprecondition = sequential\n"
		"[fill-read-mode]\nstep = precondition\nprecondition = random\nrw = write\n");

	(void)state;
	assert_int_equal(suite_load(path, &s), 0);
	assert_int_equal(s.nr_steps, 6);
	assert_int_equal(s.steps[0].spec.bs[DIR_READ], 4096);   /* fio default */
	assert_int_equal(s.steps[0].spec.numjobs, 1);
	assert_int_equal(s.steps[1].spec.bs[DIR_READ], 8192);
	assert_int_equal(s.steps[1].spec.numjobs, 2);
	assert_int_equal(s.steps[1].spec.rw, RW_RANDREAD);
	assert_int_equal(s.steps[1].spec.runtime_ns, 10000000000ull);
	assert_int_equal(s.steps[2].spec.bs[DIR_READ], 16384);  /* own option wins */
	assert_int_equal(s.steps[3].spec.bs[DIR_READ], 32768);  /* second [global] adds */
	assert_int_equal(s.steps[3].spec.numjobs, 2);
	/* a fill writes whatever [global] says, and is bounded by bytes */
	assert_int_equal(s.steps[4].spec.rw, RW_WRITE);
	assert_false(s.steps[4].spec.time_based);
	assert_int_equal(s.steps[4].spec.runtime_ns, 0);
	/* rw given in the step is kept */
	assert_int_equal(s.steps[5].spec.rw, RW_WRITE);
	suite_free(&s);
}

static void test_env_and_lookup(void **state)
{
	struct suite s;
	char *cwd;

	(void)state;
	assert_int_equal(setenv("SUITE_TEST_BS", "64k", 1), 0);
	write_suite("mine.suite", "[suite]\nname = mine\n[m]\nstep = measure\nbs = ${SUITE_TEST_BS}\n");
	assert_int_equal(setenv("DRIVEBENCH_SUITES", tmp_dir(), 1), 0);
	assert_int_equal(suite_load("mine", &s), 0);
	assert_int_equal(s.steps[0].spec.bs[DIR_READ], 65536);
	assert_non_null(strstr(s.path, "mine.suite"));
	suite_free(&s);

	err_clear();
	assert_int_equal(suite_load("no-such-suite", &s), -1);
	assert_non_null(strstr(err_msg(), "no suite named 'no-such-suite'"));
	assert_int_equal(suite_load("bad name!", &s), -1);
	assert_non_null(strstr(err_msg(), "bad suite name"));
	assert_int_equal(suite_load("", &s), -1);
	assert_int_equal(suite_load("/nonexistent/dir/x.suite", &s), -1);
	assert_non_null(strstr(err_msg(), "cannot read suite file"));
	assert_int_equal(unsetenv("DRIVEBENCH_SUITES"), 0);

	/* by name from ./suites when run from the repository root */
	cwd = getcwd(NULL, 0);
	assert_non_null(cwd);
	if (access("suites/quick.suite", R_OK) == 0) {
		assert_int_equal(suite_load("quick", &s), 0);
		assert_string_equal(s.path, "suites/quick.suite");
		suite_free(&s);
	}
	free(cwd);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[s]\nstep = measure\nfoo = 1\n", 3, "unknown option 'foo'");
	expect_error("[s]\nstep = measure\nbs = lots\n", 3, "option 'bs'");
	expect_error("[s]\nstep = measure\nwindow = 5\n", 3, "key 'window' does not apply to a measure step");
	/* a filesystem made for the checkpoints: xfs or ext4, others by name */
	expect_error("[s]\nstep = checkpoint\ncheckpoint_size = 8MB\nranks = 2\ncheckpoint_fs = zfs\n", 5,
		     "key 'checkpoint_fs': checkpoint_fs = zfs: unknown filesystem (supported: xfs, ext4)");
	expect_error("[s]\nstep = measure\ncheckpoint_fs = xfs\n", 3,
		     "key 'checkpoint_fs' does not apply to a measure step");
	expect_error("[s]\nstep = sweep\npoints = 1/1\nop = 7%\n", 4, "key 'op'");
	expect_error("[s]\nrw = read\n", 1, "needs step =");
	expect_error("[s]\nstep = measure\nrw = write\nverify = crc32c\nverify_only = 1\n", 1,
		     "option 'verify_only': not in a suite");
	expect_error("[s]\nstep = dance\n", 2, "key 'step': unknown step kind 'dance'");
	expect_error("[s]\nstep = sweep\n", 1, "a sweep step needs points");
	expect_error("[s]\nstep = sweep\npoints = 1/1 4\n", 3, "key 'points': bad point '4'");
	expect_error("[s]\nstep = sweep\npoints = 0/1\n", 3, "key 'points'");
	/* a point is held to the iodepth and numjobs options' limits */
	expect_error("[s]\nstep = sweep\npoints = 1/1 65537/1\n", 3,
		     "key 'points': point 65537/1: option 'iodepth': 65537 is too large, the range is 1..65536");
	expect_error("[s]\nstep = sweep\npoints = 4294967295/4294967295\n", 3,
		     "option 'iodepth': 4294967295 is too large");
	expect_error("[s]\nstep = sweep\npoints = 1/4097\n", 3,
		     "point 1/4097: option 'numjobs': 4097 is too large, the range is 1..4096");
	expect_error("[s]\nstep = sweep\niodepths = 1,70000\n", 3,
		     "key 'iodepths': 70000 is too large, the range is 1..65536");
	expect_error("[s]\nstep = sweep\niodepths = 1\nnumjobs = 5000\n", 4,
		     "key 'numjobs': 5000 is too large, the range is 1..4096");
	expect_error("[s]\nstep = sweep\npoints = 4294967296/1\n", 3,
		     "key 'points': bad point '4294967296/1' (write QD/jobs, both at least 1): "
		     "4294967296 is too large");
	expect_error("[s]\nstep = sweep\npoints = 1/1\niodepths = 1\n", 3,
		     "not both");
	expect_error("[s]\nstep = sweep\niodepths = 1,x\n", 3, "key 'iodepths'");
	expect_error("[s]\nstep = sweep\niodepths = 1\nnumjobs = 0\n", 4, "key 'numjobs'");
	expect_error("[s]\nstep = steady\nruntime = 10\n", 1, "time_based runtime");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nwindow = 6\nmax_rounds = 5\n",
		     1, "max_rounds (5) is below the window (6)");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nwindow = 1\n", 5,
		     "key 'window': 1 is too small, the range is 2..10000");
	/* every step parameter has a range; a number past 2^32 is too large,
	 * not "not a whole number" */
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nwindow = 4294967296\n", 5,
		     "key 'window': 4294967296 is too large, the range is 2..10000");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nmax_rounds = 99999999999999999999\n", 5,
		     "key 'max_rounds': 99999999999999999999 is too large, the range is 1..10000");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nwindow = 3x\n", 5,
		     "key 'window': not a whole number: '3x'");
	expect_error("[s]\nstep = precondition\nprecondition = sequential\ncapacities = 1e300\n", 4,
		     "key 'capacities': 1e300 is too large, the range is 0 < N <= 100");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\nregions = 100000\n", 4,
		     "key 'regions': 100000 is too large, the range is 1..1024");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\niu = 8g\n", 4,
		     "key 'iu': 8g is too large, the range is 1 byte..4 GiB");
	expect_error("[s]\nstep = idle\nidle = 2d\n", 3,
		     "key 'idle': 2d is too large, the range is 0..1d");
	expect_error("[s]\nstep = sweep\npoints = 1/1\npause = 400d\n", 4,
		     "key 'pause': 400d is too large, the range is 0..1d");
	/* a step's own file would be replaced by the suite's target: refused */
	expect_error("[s]\nstep = measure\nfilename = /tmp/other\n", 3,
		     "key 'filename': a suite runs every step on its target; give it on the command line");
	expect_error("[global]\ndirectory = /tmp\n[s]\nstep = measure\n", 2,
		     "key 'directory': a suite runs every step on its target");
	/* a checkpoint step must say what it writes: refused at parse time,
	 * naming the step's header line and the step */
	expect_error("[s]\nstep = checkpoint\n", 1,
		     "step [s]: a checkpoint step needs model = NAME or checkpoint_size = SIZE (with ranks =)");
	expect_error("[s]\nstep = checkpoint\nmodel = llama3-8b\ncheckpoint_size = 1GB\nranks = 2\n", 1,
		     "step [s]: a checkpoint step takes model or checkpoint_size, not both");
	expect_error("[s]\nstep = checkpoint\nmodel = llama3-8b\npasses = 10001\n", 4,
		     "key 'passes': 10001 is too large, the range is 1..10000");
	expect_error("[s]\nstep = checkpoint\ncheckpoint_size = 1GB\nranks = 70000\n", 4,
		     "key 'ranks': 70000 is too large, the range is 1..65536");
	expect_error("[s]\nstep = checkpoint\nmodel = llama3-8b\ncount = 2000000\n", 4,
		     "key 'count': 2000000 is too large, the range is 1..1000000");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nmetric = speed\n", 5,
		     "unknown metric 'speed'");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nrange_limit = 150%\n", 5,
		     "key 'range_limit'");
	expect_error("[s]\nstep = steady\ntime_based\nruntime = 10\nslope_limit = 2\n", 5,
		     "key 'slope_limit'");
	expect_error("[s]\nstep = precondition\n", 1, "needs precondition = ");
	expect_error("[s]\nstep = precondition\nprecondition = fast\n", 3, "unknown mode 'fast'");
	expect_error("[s]\nstep = precondition\nprecondition = random\nrw = read\n", 1,
		     "must write");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\nop = 0\n", 4, "key 'op'");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\nop = 7\n", 4,
		     "write 7% or 0.07");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\nregions = 0\n", 4,
		     "key 'regions'");
	expect_error("[s]\nstep = precondition\nprecondition = sprandom\niu = big\n", 4, "key 'iu'");
	expect_error("[s]\nstep = precondition\nprecondition = random\ncapacities = -1\n", 4,
		     "key 'capacities'");
	expect_error("[s]\nstep = idle\n", 1, "needs idle =");
	expect_error("[s]\nstep = idle\nidle = soon\n", 3, "key 'idle'");
	expect_error("[s]\nstep = purge\nnvme_format = maybe\n", 3, "key 'nvme_format'");
	expect_error("[s]\nstep = purge\npurge = shred\n", 3,
		     "key 'purge': 'shred' is not a purge method (discard, format, sanitize-block");
	expect_error("[s]\nstep = measure\npurge = format\n", 3, "purge");
	expect_error("[s]\nstep = measure\nrecord_series = 2\n", 3, "key 'record_series'");
	expect_error("[s]\nstep = measure\nrecord_series = maybe\n", 3,
		     "key 'record_series': not a boolean: 'maybe' (0 or 1)");
	/* a parameter of another step kind is refused by the one table */
	expect_error("[s]\nstep = measure\nwindow = 5\n", 3,
		     "key 'window' does not apply to a measure step");
	expect_error("[s]\nstep = steady\nwindow = 1\n", 3,
		     "key 'window': 1 is too small, the range is 2..10000");
	expect_error("[s]\nstep = measure\nname = other\n", 3, "key 'name'");
	expect_error("[s]\nstep = measure\n[s]\nstep = measure\n", 3, "used twice (first at line 1)");
	expect_error("step = measure\n", 1, "outside any section");
	expect_error("[s\n", 1, "bad section header");
	expect_error("[]\n", 1, "empty section name");
	expect_error("include other.suite\n", 1, "include is not supported");
	expect_error("[s]\nstep = measure\nbs = ${SUITE_TEST_UNSET_VAR}\n", 3,
		     "'SUITE_TEST_UNSET_VAR' is not set");
	expect_error("[s]\nstep = measure\n= 4\n", 3, "missing key");
	expect_error("[suite]\ncolour = blue\n[s]\nstep = measure\n", 2, "unknown key 'colour'");
	expect_error("[suite]\n[suite]\n", 2, "a second [suite]");
	expect_error("[global]\nwindow = 5\n[s]\nstep = measure\n", 2,
		     "step parameters belong in a step section");
	expect_error("[s]\nstep = measure\niodepth = 0\n", 3, "option 'iodepth'");
	/* checks across options name the step's header line */
	expect_error("[s]\nstep = measure\ntime_based\n", 1, "step [s]: job 's': option 'time_based'");
}

static void test_no_steps(void **state)
{
	struct suite s;
	const char *path = write_suite("empty.suite", "[suite]\nname = empty\n[global]\nbs=4k\n");

	(void)state;
	assert_int_equal(suite_load(path, &s), -1);
	assert_non_null(strstr(err_msg(), "no steps"));
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(step_kind_name(STEP_PURGE), "purge");
	assert_string_equal(step_kind_name(STEP_PRECONDITION), "precondition");
	assert_string_equal(step_kind_name(STEP_STEADY), "steady");
	assert_string_equal(step_kind_name(STEP_MEASURE), "measure");
	assert_string_equal(step_kind_name(STEP_SWEEP), "sweep");
	assert_string_equal(step_kind_name(STEP_IDLE), "idle");
	assert_string_equal(step_kind_name((enum step_kind)99), "unknown");
}

/* The shape both shipped suites share: purge, the 128K fill and points,
 * then preconditioning before each size's sweeps. */
static const struct {
	const char *name;
	enum step_kind kind;
	enum rw_mode rw;
	uint64_t bs;
} shape[] = {
	{ "purge", STEP_PURGE, RW_READ, 0 },
	{ "seq-fill-128k", STEP_PRECONDITION, RW_WRITE, 131072 },
	{ "seq-write-128k", STEP_MEASURE, RW_WRITE, 131072 },
	{ "seq-read-128k", STEP_MEASURE, RW_READ, 131072 },
	{ "precondition-64k", STEP_STEADY, RW_RANDWRITE, 65536 },
	{ "rand-write-64k", STEP_SWEEP, RW_RANDWRITE, 65536 },
	{ "rand-read-64k", STEP_SWEEP, RW_RANDREAD, 65536 },
	{ "precondition-16k", STEP_STEADY, RW_RANDWRITE, 16384 },
	{ "rand-write-16k", STEP_SWEEP, RW_RANDWRITE, 16384 },
	{ "rand-read-16k", STEP_SWEEP, RW_RANDREAD, 16384 },
	{ "seq-write-16k", STEP_SWEEP, RW_WRITE, 16384 },
	{ "seq-read-16k", STEP_SWEEP, RW_READ, 16384 },
	{ "precondition-4k", STEP_STEADY, RW_RANDWRITE, 4096 },
	{ "rand-write-4k", STEP_SWEEP, RW_RANDWRITE, 4096 },
	{ "rand-read-4k", STEP_SWEEP, RW_RANDREAD, 4096 },
	/* CDN and object storage (docs/workloads.md): mixed block sizes */
	{ "cdn-fill", STEP_MEASURE, RW_WRITE, 0 },
	{ "cdn-saturate", STEP_MEASURE, RW_RANDWRITE, 0 },
	{ "cdn-rand-read", STEP_SWEEP, RW_RANDREAD, 0 },
	{ "cdn-rand-write", STEP_SWEEP, RW_RANDWRITE, 0 },
	{ "obj-rand-read-qd40", STEP_MEASURE, RW_RANDREAD, 0 },
	{ "obj-seq-read-qd40", STEP_MEASURE, RW_READ, 0 },
	{ "obj-rand-read-4x10", STEP_MEASURE, RW_RANDREAD, 0 },
	{ "obj-seq-read-4x10", STEP_MEASURE, RW_READ, 0 },
	/* DLIO checkpoints (docs/checkpoint.md) */
	{ "checkpoint", STEP_CHECKPOINT, RW_READ, 0 },
};

static void check_shape(const struct suite *s)
{
	assert_int_equal(s->nr_steps, sizeof(shape) / sizeof(shape[0]));
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct suite_step *st = &s->steps[i];

		assert_string_equal(st->name, shape[i].name);
		assert_int_equal(st->kind, shape[i].kind);
		if (shape[i].bs) {
			assert_int_equal(st->spec.rw, shape[i].rw);
			assert_int_equal(st->spec.bs[job_spec_writes(&st->spec) ? DIR_WRITE : DIR_READ],
					 shape[i].bs);
			assert_true(st->spec.direct);
			assert_string_equal(st->spec.ioengine, "io_uring");
		}
	}
	assert_int_equal(s->steps[1].precondition, PRECOND_SEQUENTIAL);
	assert_true(s->steps[1].capacities == 2);
	assert_true(s->steps[1].record_series);
	assert_int_equal(s->steps[1].spec.iodepth, 256);
	assert_int_equal(s->steps[1].spec.numjobs, 1);
	assert_int_equal(s->steps[2].spec.iodepth, 16);
	assert_int_equal(s->steps[3].spec.iodepth, 64);
}

static void test_review_suite(void **state)
{
	struct suite s;

	(void)state;
	assert_int_equal(suite_load("suites/review.suite", &s), 0);
	assert_string_equal(s.name, "review");
	check_shape(&s);
	for (unsigned i = 0; i < s.nr_steps; i++) {
		const struct suite_step *st = &s.steps[i];

		if (!strncmp(st->name, "cdn-", 4)) {
			/* METHODOLOGY.md section 3 */
			if (!strcmp(st->name, "cdn-fill")) {
				assert_false(st->spec.time_based);
				assert_int_equal(st->spec.numjobs, 4);
				assert_true(st->spec.size_pct == 25 && st->spec.offset_increment_pct == 25);
				assert_string_equal(st->spec.ioengine, "psync");
			} else if (!strcmp(st->name, "cdn-saturate")) {
				assert_int_equal(st->spec.runtime_ns, 3ull * 3600 * 1000000000ull);
			} else {
				assert_int_equal(st->nr_points, 18);
				assert_int_equal(st->points[17].numjobs, 4);
				assert_int_equal(st->pause_ns, 180000000000ull);
				assert_int_equal(st->spec.runtime_ns, 300000000000ull);
			}
			continue;
		}
		if (!strncmp(st->name, "obj-", 4))
			assert_int_equal(st->spec.bssplit[DIR_READ][3].bs, 1ull << 30);
		if (st->kind == STEP_SWEEP || st->kind == STEP_MEASURE) {
			assert_int_equal(st->spec.runtime_ns, 300000000000ull);
			assert_true(st->spec.time_based);
			assert_true(st->spec.ramp_ns > 0);
		}
		if (st->kind == STEP_SWEEP) {
			/* writes: QD 1..32 x jobs 1,4,8 = 18; reads extend to jobs 16 = 24 */
			unsigned want = job_spec_writes(&st->spec) ? 18 : 24;

			assert_int_equal(st->nr_points, want);
			assert_int_equal(st->points[0].iodepth, 1);
			assert_int_equal(st->points[0].numjobs, 1);
			assert_int_equal(st->points[5].iodepth, 32);
			assert_int_equal(st->points[5].numjobs, 1);
			assert_int_equal(st->points[6].iodepth, 1);
			assert_int_equal(st->points[6].numjobs, 4);
			assert_int_equal(st->points[17].iodepth, 32);
			assert_int_equal(st->points[17].numjobs, 8);
			if (want == 24)
				assert_int_equal(st->points[23].numjobs, 16);
		}
		if (st->kind == STEP_STEADY) {
			assert_int_equal(st->window, 5);
			assert_int_equal(st->max_rounds, 25);
			assert_int_equal(st->spec.runtime_ns, 60000000000ull);
		}
	}
	/* METHODOLOGY.md section 5: 1,636 GB over 8 ranks, 3 passes */
	const struct suite_step *ckpt = &s.steps[s.nr_steps - 1];
	assert_int_equal(ckpt->checkpoint_size, 1636000000000ull);
	assert_int_equal(ckpt->checkpoint_ranks, 8);
	assert_int_equal(ckpt->checkpoint_passes, 3);
	assert_int_equal(ckpt->checkpoint_count, 0);
	assert_true(ckpt->checkpoint_fill == 0.9);
	suite_free(&s);
}

static void test_quick_suite(void **state)
{
	struct suite s;
	double seconds = 0;

	(void)state;
	assert_int_equal(suite_load("suites/quick.suite", &s), 0);
	assert_string_equal(s.name, "quick");
	check_shape(&s);
	/* the filename is left to the default scratch target */
	for (unsigned i = 0; i < s.nr_steps; i++) {
		const struct suite_step *st = &s.steps[i];
		double point = (double)(st->spec.ramp_ns + st->spec.runtime_ns) / 1e9;

		assert_string_equal(st->spec.filename, "");
		if (st->kind == STEP_SWEEP)
			seconds += st->nr_points * point;
		else if (st->kind == STEP_MEASURE)
			seconds += point;
		else if (st->kind == STEP_STEADY)
			seconds += st->max_rounds * point;
	}
	/* timed steps fit in about two minutes (fills of 1 GiB come on top) */
	assert_true(seconds > 30 && seconds < 100);
	/* scaled checkpoints: 64 MB over 4 ranks, 3 per pass, 3 passes */
	const struct suite_step *ckpt = &s.steps[s.nr_steps - 1];
	assert_int_equal(ckpt->checkpoint_size, 64000000);
	assert_int_equal(ckpt->checkpoint_ranks, 4);
	assert_int_equal(ckpt->checkpoint_count, 3);
	assert_int_equal(ckpt->checkpoint_passes, 3);
	assert_string_equal(ckpt->checkpoint_fs, "");   /* regions or files */
	suite_free(&s);
}

/* checkpoint_fs = xfs / ext4: the filesystem the step makes on the device */
static void test_checkpoint_fs(void **state)
{
	const char *names[] = { "xfs", "ext4" };
	struct suite s;
	char text[160];

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		snprintf(text, sizeof(text), "[c]\nstep = checkpoint\ncheckpoint_size = 8MB\n"
			 "ranks = 2\ncheckpoint_fs = %s\n", names[i]);
		assert_int_equal(suite_load(write_suite("fs.suite", text), &s), 0);
		assert_string_equal(s.steps[0].checkpoint_fs, names[i]);
		suite_free(&s);
	}
}

/* pause = 180s on sweeps; bssplit_file found next to the suite file, in a
 * step or in [global], its errors naming the data file's line. */
static void test_pause_and_bssplit_file(void **state)
{
	struct suite s;
	const char *path;

	(void)state;
	write_suite("tail.bssplit", "; test split\n128k/80\n4k/20\n");
	path = write_suite("cdn.suite",
		"[global]\nbssplit_file = tail.bssplit\n"
		"[reads]\nstep = sweep\nrw = randread\niodepths = 1,2\nnumjobs = 1,2\npause = 180s\n"
		"[writes]\nstep = sweep\nrw = randwrite\npoints = 1/1\n"
		"bssplit = 128k/98.51:64k/0.3725:32k/0.3725:16k/0.3725:8k/0.3725\n");
	assert_int_equal(suite_load(path, &s), 0);
	assert_int_equal(s.steps[0].pause_ns, 180000000000ull);
	assert_int_equal(s.steps[0].nr_points, 4);
	assert_int_equal(s.steps[0].spec.bssplit_nr[DIR_READ], 2);
	assert_int_equal(s.steps[0].spec.bssplit[DIR_READ][1].bs, 4096);
	assert_int_equal(s.steps[1].pause_ns, 0);
	assert_int_equal(s.steps[1].spec.bssplit_nr[DIR_WRITE], 5);
	suite_free(&s);

	expect_error("[s]\nstep = measure\npause = 3s\n", 3, "key 'pause' does not apply to a measure step");
	expect_error("[s]\nstep = sweep\npoints = 1/1\npause = soon\n", 4, "key 'pause': bad time 'soon'");
	write_suite("broken.bssplit", "128k/80\n\n4k/x\n");
	expect_error("[s]\nstep = measure\nbssplit_file = broken.bssplit\n", 3,
		     "broken.bssplit:3: bad percentage 'x'");
	expect_error("[s]\nstep = measure\nbssplit_file = none.bssplit\n", 3,
		     "no file 'none.bssplit'");
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_parameter),
		cmocka_unit_test(test_points_expansion_order),
		cmocka_unit_test(test_global_inheritance),
		cmocka_unit_test(test_env_and_lookup),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_steps),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_review_suite),
		cmocka_unit_test(test_quick_suite),
		cmocka_unit_test(test_pause_and_bssplit_file),
		cmocka_unit_test(test_checkpoint_fs),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
