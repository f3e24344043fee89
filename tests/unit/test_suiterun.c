/* test_suiterun.c - the suite runner on a small temporary file with a suite
 * built in code: every step kind stored once with its results, steady
 * verdicts, sweeps one result per point, --only/--skip, the purge safety
 * gate, interruption and resume in the same run keeping every complete
 * point (sweep points, steady rounds; failed points and an older build's
 * steps measured again), the resume errors, and suite_check (the checks
 * and write gate a suite on several targets makes before any starts). */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "suite/sprandom.h"
#include "suite/suite.h"
#include "suite/suiterun.h"
#include "device/target.h"
#include "util/error.h"
#include "helpers/tmpdir.h"

#define TARGET_SIZE (4ull << 20)

struct fixture {
	struct tmpdir dir;
	char target[128];
	char db[128];
	struct suite suite;
	struct suite_step steps[6];
	volatile sig_atomic_t stop;
	const char *destroy[2];
	struct suite_options opt;
};

static void base_spec(struct job_spec *spec, enum rw_mode rw)
{
	job_spec_defaults(spec);
	spec->rw = rw;
	spec->ioengine[0] = '\0';
	snprintf(spec->ioengine, sizeof(spec->ioengine), "psync");
	spec->bs[DIR_READ] = spec->bs[DIR_WRITE] = 64 * 1024;
	spec->iodepth = 1;
}

static void timed(struct job_spec *spec, uint64_t ms)
{
	spec->time_based = true;
	spec->runtime_ns = ms * 1000000ull;
	spec->series_interval_ns = 50000000ull;
}

/* purge, sequential fill, steady (3 rounds of 60 ms, window 3), a sweep of
 * two points, idle 150 ms */
static void build_suite(struct fixture *f)
{
	struct suite_step *st = f->steps;

	memset(f->steps, 0, sizeof(f->steps));
	snprintf(st[0].name, SUITE_NAME_MAX, "purge");
	st[0].kind = STEP_PURGE;
	base_spec(&st[0].spec, RW_WRITE);

	snprintf(st[1].name, SUITE_NAME_MAX, "fill");
	st[1].kind = STEP_PRECONDITION;
	st[1].precondition = PRECOND_SEQUENTIAL;
	st[1].capacities = 2;
	base_spec(&st[1].spec, RW_WRITE);
	st[1].spec.iodepth = 4;

	snprintf(st[2].name, SUITE_NAME_MAX, "steady");
	st[2].kind = STEP_STEADY;
	base_spec(&st[2].spec, RW_RANDWRITE);
	st[2].spec.bs[DIR_WRITE] = 4096;
	timed(&st[2].spec, 60);
	st[2].metric = STEADY_IOPS;
	st[2].window = 3;
	st[2].max_rounds = 3;
	/* limits wide enough that 3 rounds on tmpfs always agree */
	st[2].range_limit = 100;
	st[2].slope_limit = 100;

	snprintf(st[3].name, SUITE_NAME_MAX, "sweep");
	st[3].kind = STEP_SWEEP;
	base_spec(&st[3].spec, RW_RANDREAD);
	timed(&st[3].spec, 60);
	st[3].points[0] = (struct sweep_point){ 1, 1 };
	st[3].points[1] = (struct sweep_point){ 2, 2 };
	st[3].nr_points = 2;

	snprintf(st[4].name, SUITE_NAME_MAX, "rest");
	st[4].kind = STEP_IDLE;
	st[4].idle_ns = 150000000ull;
	base_spec(&st[4].spec, RW_READ);

	f->suite.steps = f->steps;
	f->suite.nr_steps = 5;
	snprintf(f->suite.name, sizeof(f->suite.name), "unit");
	snprintf(f->suite.path, sizeof(f->suite.path), "%s/unit.suite", f->dir.path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (tmpdir_make(&f->dir, NULL, "test_suiterun"))
		return -1;
	tmpdir_join(&f->dir, "target.dat", f->target, sizeof(f->target));
	tmpdir_join(&f->dir, "results.db", f->db, sizeof(f->db));
	if (target_layout_file(f->target, TARGET_SIZE, NULL) < 0) {
		tmpdir_remove(&f->dir);
		return -1;
	}
	build_suite(f);
	/* consent by path: tmpfs may lack user xattrs to mark the file */
	f->destroy[0] = f->target;
	f->opt = (struct suite_options){
		.target = f->target, .db_path = f->db, .label = "unit",
		.destroy_ids = f->destroy, .nr_destroy_ids = 1,
		.stop = &f->stop, .command = "test",
	};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int rc = tmpdir_remove(&f->dir);

	free(f);
	return rc;
}

/* One integer from the database (-1 when the query returns no row). */
static long long query_int(const struct fixture *f, const char *fmt, ...)
{
	char sql[512];
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void query_text(const struct fixture *f, const char *sql, char *out, size_t len)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	out[0] = '\0';
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* Every step of run 1 stored once, done, with the results it should have. */
static void assert_complete_run(const struct fixture *f)
{
	char detail[2048];

	assert_int_equal(query_int(f, "SELECT count(*) FROM runs"), 1);
	assert_true(query_int(f, "SELECT finished_ms FROM runs WHERE id = 1") > 0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE run_id = 1"), 5);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE status = 'done'"), 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE idx = %u AND name = '%s'",
					   i, f->steps[i].name), 1);
	/* purge: no result, its method */
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = 0"), 0);
	query_text(f, "SELECT detail FROM steps WHERE idx = 0", detail, sizeof(detail));
	assert_non_null(strstr(detail, "\"method\":\"punch-hole\""));
	/* fill: one sequential write of two capacities */
	assert_int_equal(query_int(f, "SELECT sum(d.bytes) FROM results r JOIN steps s ON s.id = r.step_id"
				   " JOIN result_dirs d ON d.result_id = r.id WHERE s.idx = 1"),
			 (long long)(2 * TARGET_SIZE));
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = 1 AND r.rw = 'write'"), 1);
	/* steady: one result per round, the verdict as detail */
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = 2"), 3);
	query_text(f, "SELECT detail FROM steps WHERE idx = 2", detail, sizeof(detail));
	assert_non_null(strstr(detail, "\"reached\":true"));
	assert_non_null(strstr(detail, "\"metric\":\"iops\""));
	assert_non_null(strstr(detail, "\"mean\":"));
	/* sweep: one result per point, at that point */
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = 3"), 2);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s ON s.id = r.step_id"
				   " WHERE s.idx = 3 AND r.iodepth = 2 AND r.numjobs = 2"), 1);
	/* idle: time passes, nothing stored */
	assert_true(query_int(f, "SELECT finished_ms - started_ms FROM steps WHERE idx = 4") >= 140);
	/* every result belongs to a step of the run */
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE step_id IS NULL"), 0);
}

static void test_full_run(void **state)
{
	struct fixture *f = *state;
	char text[JOB_PATH_MAX];
	int code = -1;

	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	assert_int_equal(code, 0);
	assert_complete_run(f);
	query_text(f, "SELECT source FROM runs", text, sizeof(text));
	assert_string_equal(text, "suite");
	query_text(f, "SELECT label FROM runs", text, sizeof(text));
	assert_string_equal(text, "unit");
	/* the recorded suite is what --resume without --suite loads */
	assert_int_equal(suite_resume_lookup(f->db, f->target, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "unit.suite"));

	/* a finished run cannot be resumed */
	f->opt.resume = true;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "finished"));
	assert_int_equal(query_int(f, "SELECT count(*) FROM runs"), 1);
}

static void test_resume_errors(void **state)
{
	struct fixture *f = *state;
	char text[JOB_PATH_MAX];
	int code = -1;

	/* no database, no run */
	assert_int_equal(suite_resume_lookup(f->db, f->target, text, sizeof(text)), -1);
	assert_non_null(strstr(err_msg(), "no database"));
	f->opt.resume = true;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "no suite run"));
	assert_int_equal(suite_resume_lookup(f->db, f->target, text, sizeof(text)), -1);
	assert_non_null(strstr(err_msg(), "no suite run"));

	/* an unfinished run of another suite file is not this suite's */
	f->opt.resume = false;
	f->stop = 1;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 1);
	assert_non_null(strstr(err_msg(), "interrupted"));
	f->stop = 0;
	snprintf(f->suite.path, sizeof(f->suite.path), "%s/other.suite", f->dir.path);
	f->opt.resume = true;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "ran suite"));

	/* a suite whose steps changed since the run */
	build_suite(f);
	f->stop = 1;
	f->opt.resume = false;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	f->stop = 0;
	/* run 2 has no steps yet: make one and rename it in the suite */
	f->opt.resume = true;
	{
		struct store *db;
		int64_t step;

		assert_int_equal(store_open(f->db, &db), 0);
		assert_int_equal(store_step_begin(db, 2, 0, "old-name", "purge", &step), 0);
		assert_int_equal(store_step_end(db, step, "done"), 0);
		store_close(db);
	}
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "changed"));
}

/* suite_check, which a suite on several targets calls for each before
 * any starts: the safety gate for every write of the selected steps with
 * nothing written and no run stored, a reader needing no consent, the
 * checkpoint directory's gate, and what --resume finds (none, one to
 * continue, a finished one) without changing the store. */
static void test_check(void **state)
{
	struct fixture *f = *state;
	const char *const reader[] = { "sweep", NULL };
	const char *const purge[] = { "purge", NULL };
	const char *const ckpt[] = { "ckpt", NULL };
	char other[256], missing[256], dir[300], back[16] = "";
	int code = -1;
	FILE *file;

	tmpdir_join(&f->dir, "other.dat", other, sizeof(other));
	file = fopen(other, "w");
	assert_non_null(file);
	assert_true(fputs("precious", file) >= 0);
	assert_int_equal(fclose(file), 0);
	f->opt.target = other;
	f->opt.nr_destroy_ids = 0;
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 3);
	assert_non_null(strstr(err_msg(), "refusing to write to"));
	assert_non_null(strstr(err_msg(), "was not created by drivebench"));
	assert_int_equal(query_int(f, "SELECT count(*) FROM runs"), 0);
	file = fopen(other, "r");
	assert_non_null(file);
	assert_non_null(fgets(back, sizeof(back), file));
	assert_int_equal(fclose(file), 0);
	assert_string_equal(back, "precious");
	/* steps that only read an existing file need no consent */
	f->opt.only = reader;
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), 0);
	assert_int_equal(code, 0);
	/* a missing target is not purged: nothing to consent to */
	tmpdir_join(&f->dir, "missing.dat", missing, sizeof(missing));
	f->opt.target = missing;
	f->opt.only = purge;
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), 0);
	assert_int_equal(access(missing, F_OK), -1);

	/* a file target's checkpoints go to TARGET.checkpoints: a file there
	 * is bad input, named with the step */
	snprintf(f->steps[5].name, SUITE_NAME_MAX, "ckpt");
	f->steps[5].kind = STEP_CHECKPOINT;
	base_spec(&f->steps[5].spec, RW_WRITE);
	f->suite.nr_steps = 6;
	f->opt.target = other;
	f->opt.only = ckpt;
	snprintf(dir, sizeof(dir), "%s.checkpoints", other);
	file = fopen(dir, "w");
	assert_non_null(file);
	assert_int_equal(fclose(file), 0);
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "step 'ckpt'"));
	f->suite.nr_steps = 5;
	f->opt.only = NULL;

	/* --resume: none, then one interrupted, then one finished */
	f->opt.target = f->target;
	f->opt.nr_destroy_ids = 1;
	f->opt.resume = true;
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "no suite run"));
	f->opt.resume = false;
	f->stop = 1;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	f->stop = 0;
	f->opt.resume = true;
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), 0);
	assert_int_equal(code, 0);
	/* nothing changed: the run is still open */
	assert_int_equal(query_int(f, "SELECT count(*) FROM runs WHERE finished_ms = 0"), 1);
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	assert_int_equal(suite_check(&f->suite, &f->opt, &code), 1);
	assert_int_equal(code, 0);
	assert_non_null(strstr(err_msg(), "finished; nothing to resume"));
	/* suite_run still refuses the finished run */
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "finished; nothing to resume"));
}

static void test_selection(void **state)
{
	struct fixture *f = *state;
	const char *const unknown[] = { "nope", NULL };
	const char *const skip[] = { "steady", "rest", NULL };
	const char *const only[] = { "purge", "sweep", NULL };
	int code = -1;

	f->opt.only = unknown;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "--only: suite 'unit' has no step 'nope'"));
	f->opt.only = only;
	f->opt.skip = only;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "no step of suite"));
	/* nothing reached the database */
	assert_int_equal(access(f->db, F_OK), -1);

	f->opt.only = NULL;
	f->opt.skip = skip;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps"), 3);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE name IN ('steady', 'rest')"), 0);
	/* step idx is the position in the suite, so a resume matches it */
	assert_int_equal(query_int(f, "SELECT idx FROM steps WHERE name = 'sweep'"), 3);

	f->opt.skip = NULL;
	f->opt.only = only;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE run_id = 2"), 2);
}

struct stopper {
	volatile sig_atomic_t *stop;
	unsigned delay_ms;
};

static void *stop_later(void *arg)
{
	struct stopper *s = arg;
	struct timespec t = { s->delay_ms / 1000, (long)(s->delay_ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
	*s->stop = 1;
	return NULL;
}

/* The stored results as "id:point:name," text, in id order. */
static char *results_text(const struct fixture *f)
{
	char *text = calloc(1, 65536);

	assert_non_null(text);
	query_text(f, "SELECT group_concat(t, ',') || ',' FROM (SELECT id || ':' ||"
		   " coalesce(point, '-') || ':' || job_name AS t FROM results ORDER BY id)",
		   text, 65536);
	return text;
}

/* Every result of before is still in after, as it was; returns how many. */
static unsigned assert_kept(const char *before, const char *after)
{
	size_t len = strlen(after) + 2;
	char *hay = malloc(len);
	unsigned n = 0;

	assert_non_null(hay);
	snprintf(hay, len, ",%s", after);
	for (const char *p = before, *comma; (comma = strchr(p, ',')); p = comma + 1) {
		char token[256];

		if (comma == p)
			continue;
		snprintf(token, sizeof(token), ",%.*s,", (int)(comma - p), p);
		if (!strstr(hay, token))
			fail_msg("result %s was not kept", token);
		n++;
	}
	free(hay);
	return n;
}

/* Every point of step idx stored exactly once: points 0 .. n-1. */
static long long assert_points_once(const struct fixture *f, unsigned idx)
{
	long long n = query_int(f, "SELECT count(*) FROM results r JOIN steps s ON s.id = r.step_id"
				" WHERE s.idx = %u", idx);

	assert_int_equal(query_int(f, "SELECT count(DISTINCT point) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = %u", idx), n);
	assert_int_equal(query_int(f, "SELECT max(point) FROM results r JOIN steps s"
				   " ON s.id = r.step_id WHERE s.idx = %u", idx), n - 1);
	return n;
}

/* Stopped in the middle (the stop flag, as SIGINT sets it), resumed until
 * done: one run, every step once; what was stored before each stop is
 * kept (the same rows), every point stored exactly once. */
static void test_interrupt_and_resume(void **state)
{
	struct fixture *f = *state;
	unsigned delays[] = { 5, 120, 260, 400 };
	unsigned interrupted = 0, kept = 0;
	long long rounds;
	int code = -1;

	/* rounds that never agree, so the steady step runs all its rounds */
	f->steps[2].max_rounds = 6;
	f->steps[2].range_limit = 1e-9;
	f->steps[2].slope_limit = 1e-9;
	for (unsigned i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		struct stopper s = { &f->stop, delays[i] };
		char *before = access(f->db, F_OK) ? strdup("") : results_text(f), *after;
		pthread_t thread;
		int rc;

		f->stop = 0;
		assert_int_equal(pthread_create(&thread, NULL, stop_later, &s), 0);
		rc = suite_run(&f->suite, &f->opt, &code);
		pthread_join(thread, NULL);
		after = results_text(f);
		kept += assert_kept(before, after);
		free(before);
		free(after);
		f->opt.resume = true;
		if (rc == 0)
			break;
		assert_int_equal(code, 1);
		assert_non_null(strstr(err_msg(), "interrupted"));
		assert_int_equal(query_int(f, "SELECT finished_ms FROM runs WHERE id = 1"), 0);
		interrupted++;
	}
	assert_true(interrupted >= 1);
	assert_true(kept >= 1);
	f->stop = 0;
	if (query_int(f, "SELECT finished_ms FROM runs WHERE id = 1") == 0) {
		assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
		assert_int_equal(code, 0);
	}
	assert_int_equal(query_int(f, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps"), 5);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE status = 'done'"), 5);
	/* all 6 rounds, more when a stop fell late in them (a window after it) */
	rounds = assert_points_once(f, 2);
	assert_true(rounds >= 6 && rounds <= 6 + 3 * interrupted);
	assert_int_equal(assert_points_once(f, 3), 2);
	assert_int_equal(assert_points_once(f, 1), 1);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE step_id IS NULL"
				   " OR step_id NOT IN (SELECT id FROM steps)"), 0);
	/* not reached: recorded as such */
	{
		char detail[2048];

		query_text(f, "SELECT detail FROM steps WHERE idx = 2", detail, sizeof(detail));
		assert_non_null(strstr(detail, "\"reached\":false"));
	}
}

static void exec_sql(const struct fixture *f, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* What a resume keeps, from a store left as a kill leaves it: complete
 * points keep their rows, missing points are measured, a failed point is
 * measured again, a steady step continues its rounds with the window
 * starting after them, a step an older build stored without points runs
 * again whole, a done step is not touched. */
static void test_resume_keeps_complete_points(void **state)
{
	struct fixture *f = *state;
	long long sweep0, round0, round1, fill, purge;
	char detail[2048];
	int code = -1;

	f->steps[3].points[2] = (struct sweep_point){ 4, 1 };
	f->steps[3].points[3] = (struct sweep_point){ 1, 2 };
	f->steps[3].nr_points = 4;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	sweep0 = query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
			   " WHERE s.idx = 3 AND point = 0");
	round0 = query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
			   " WHERE s.idx = 2 AND point = 0");
	round1 = query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
			   " WHERE s.idx = 2 AND point = 1");
	fill = query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
			 " WHERE s.idx = 1");
	purge = query_int(f, "SELECT id FROM steps WHERE idx = 0");
	/* killed in the sweep's point 2, after point 1 failed (as a verify
	 * failure or I/O error leaves it); the steady step cut after round 2;
	 * the fill stored by an older build (no point) */
	exec_sql(f, "PRAGMA foreign_keys = ON; UPDATE runs SET finished_ms = 0;"
		 "UPDATE steps SET status = 'running', finished_ms = 0 WHERE idx IN (1, 2, 3);"
		 "DELETE FROM results WHERE step_id = (SELECT id FROM steps WHERE idx = 3)"
		 " AND point >= 2;"
		 "UPDATE results SET error = 5 WHERE step_id = (SELECT id FROM steps WHERE idx = 3)"
		 " AND point = 1;"
		 "DELETE FROM results WHERE step_id = (SELECT id FROM steps WHERE idx = 2)"
		 " AND point >= 2;"
		 "UPDATE results SET point = NULL WHERE step_id = (SELECT id FROM steps WHERE idx = 1)");
	f->opt.resume = true;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	assert_int_equal(code, 0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE status = 'done'"), 5);
	/* sweep: point 0 kept, 1 measured again (no error now), 2 and 3 measured */
	assert_int_equal(assert_points_once(f, 3), 4);
	assert_int_equal(query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
				   " WHERE s.idx = 3 AND point = 0"), sweep0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE error <> 0"), 0);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results r JOIN steps s ON s.id = r.step_id"
				   " WHERE s.idx = 3 AND point = 3 AND iodepth = 1 AND numjobs = 2"), 1);
	/* steady: rounds 1 and 2 kept, then a whole window (3) after them */
	assert_int_equal(assert_points_once(f, 2), 5);
	assert_int_equal(query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
				   " WHERE s.idx = 2 AND point = 0"), round0);
	assert_int_equal(query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
				   " WHERE s.idx = 2 AND point = 1"), round1);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE job_name = 'steady-round5'"), 1);
	query_text(f, "SELECT detail FROM steps WHERE idx = 2", detail, sizeof(detail));
	assert_non_null(strstr(detail, "\"window_start\":2"));
	assert_non_null(strstr(detail, "\"reached\":true"));
	/* fill: run again whole, under a new step row; purge untouched */
	assert_int_equal(assert_points_once(f, 1), 1);
	assert_true(query_int(f, "SELECT r.id FROM results r JOIN steps s ON s.id = r.step_id"
			      " WHERE s.idx = 1") != fill);
	assert_int_equal(query_int(f, "SELECT id FROM steps WHERE idx = 0"), purge);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE point IS NULL"), 0);
}

static void test_purge_gate(void **state)
{
	struct fixture *f = *state;
	const char *const only[] = { "purge", NULL };
	char other[256];
	int code = -1;
	FILE *file;

	/* a file drivebench did not create, without consent: refused (exit 3) */
	tmpdir_join(&f->dir, "other.dat", other, sizeof(other));
	file = fopen(other, "w");
	assert_non_null(file);
	assert_int_equal(fputs("precious", file) >= 0, 1);
	assert_int_equal(fclose(file), 0);
	f->opt.target = other;
	f->opt.only = only;
	f->opt.nr_destroy_ids = 0;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 3);
	assert_non_null(strstr(err_msg(), "refusing to purge"));
	assert_int_equal(query_int(f, "SELECT status FROM steps WHERE name = 'purge'") != -1, 1);
	assert_int_equal(query_int(f, "SELECT count(*) FROM steps WHERE status = 'failed'"), 1);

	/* NVMe format of a file: an error, nothing discarded */
	f->opt.target = f->target;
	f->opt.nr_destroy_ids = 1;
	f->steps[0].purge = PURGE_FORMAT;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "is not an NVMe namespace"));
}

static void test_sprandom_fill(void **state)
{
	struct fixture *f = *state;
	const char *const only[] = { "fill", NULL };
	struct sprandom_plan plan;
	int code = -1;

	f->steps[1].precondition = PRECOND_SPRANDOM;
	f->steps[1].op = 0.25;
	f->steps[1].regions = 4;
	f->steps[1].iu = 4096;
	f->opt.only = only;
	assert_int_equal(sprandom_plan(TARGET_SIZE, 0.25, 4, 4096, &plan), 0);
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	/* every region written sequentially once, overwrites with the IU */
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE job_name LIKE 'fill-r%%-fill'"
				   " AND rw = 'write'"), 4);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE job_name LIKE 'fill-r%%-overwrite'"
				   " AND (rw <> 'randwrite' OR bs <> 4096)"), 0);
	assert_int_equal(query_int(f, "SELECT sum(d.bytes) FROM results r JOIN result_dirs d"
				   " ON d.result_id = r.id WHERE r.job_name LIKE 'fill-r%%-fill'"),
			 (long long)TARGET_SIZE);
	/* in all, what the plan says (overwrites rounded down to whole IUs) */
	{
		long long total = query_int(f, "SELECT sum(bytes) FROM result_dirs");

		assert_true(total <= (long long)plan.total_bytes);
		assert_true(total > (long long)plan.total_bytes - (long long)(plan.nr * plan.iu));
	}
	sprandom_plan_free(&plan);
}

static void test_bad_options(void **state)
{
	struct fixture *f = *state;
	struct suite empty = { .name = "empty" };
	int code = -1;

	f->opt.db_path = NULL;
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	f->opt.db_path = f->db;
	assert_int_equal(suite_run(&empty, &f->opt, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "no steps"));
	/* a target under /dev that does not exist */
	f->opt.target = "/dev/drivebench-no-such-device";
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	assert_int_equal(code, 2);
}

/* pause = N: the drive idles after every point of a sweep; the stop flag
 * ends a pause at once and leaves the step to continue on resume, after
 * the pause that was cut. */
static void test_sweep_pause(void **state)
{
	struct fixture *f = *state;
	const char *only[] = { "sweep", NULL };
	struct stopper s = { &f->stop, 150 };
	pthread_t thread;
	int code = -1;
	long long ms;

	f->opt.only = only;
	f->steps[3].pause_ns = 200000000ull;   /* 2 points x (60 ms + 200 ms) */
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
	ms = query_int(f, "SELECT finished_ms - started_ms FROM steps WHERE name = 'sweep'");
	assert_true(ms >= 2 * (60 + 200) - 10);
	assert_int_equal(query_int(f, "SELECT count(*) FROM results"), 2);

	/* a long pause, stopped 150 ms in: back within a slice, interrupted */
	f->steps[3].pause_ns = 30ull * 1000000000ull;
	f->stop = 0;
	assert_int_equal(pthread_create(&thread, NULL, stop_later, &s), 0);
	assert_int_equal(suite_run(&f->suite, &f->opt, &code), -1);
	pthread_join(thread, NULL);
	assert_int_equal(code, 1);
	assert_non_null(strstr(err_msg(), "interrupted"));
	ms = query_int(f, "SELECT finished_ms - started_ms FROM steps WHERE run_id = 2");
	assert_true(ms >= 100 && ms < 2000);
	assert_int_equal(query_int(f, "SELECT status = 'partial' FROM steps WHERE run_id = 2"), 1);

	/* the resume keeps point 1 of 2 and pauses before point 2 too: the
	 * pause after point 1 was cut */
	{
		long long first = query_int(f, "SELECT id FROM results WHERE run_id = 2");
		struct timespec t0, t1;

		f->steps[3].pause_ns = 200000000ull;
		f->opt.resume = true;
		f->stop = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(suite_run(&f->suite, &f->opt, &code), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		assert_true(ms >= 200 + 60 + 200 - 10);
		assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE run_id = 2"), 2);
		assert_int_equal(query_int(f, "SELECT min(id) FROM results WHERE run_id = 2"), first);
		assert_int_equal(query_int(f, "SELECT count(*) FROM results WHERE run_id = 2"
					   " AND iodepth = 2 AND numjobs = 2 AND point = 1"), 1);
	}
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_and_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_keeps_complete_points, setup, teardown),
		cmocka_unit_test_setup_teardown(test_purge_gate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sprandom_fill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_pause, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
