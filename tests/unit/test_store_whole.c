/* test_store_whole.c - "nothing stored is lost" in the store: a transaction
 * spanning a run (begin, steps, results, end) leaves all of it or nothing
 * when it is rolled back or the process dies before the commit; a failing
 * result inside it undoes only itself; commit without begin is an error;
 * schema v7: a version-6 database migrates keeping its results (point
 * NULL), points round-trip, one point of a step is discarded, an ended step
 * is reopened; a run that never ended is incomplete. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/record.h"
#include "store/schema.h"
#include "store/store.h"
#include "util/error.h"
#include "helpers/tmpdir.h"

struct fixture {
	struct tmpdir dir;
	char path[128];
	struct job_spec spec;
	struct job_result result;
	struct result_record rec;   /* a small measured result to store */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (tmpdir_make(&f->dir, NULL, "test_store_whole"))
		return -1;
	tmpdir_join(&f->dir, "results.db", f->path, sizeof(f->path));
	job_spec_defaults(&f->spec);
	snprintf(f->spec.name, sizeof(f->spec.name), "job");
	f->spec.rw = RW_RANDREAD;
	job_result_init(&f->result, &f->spec);
	f->result.runtime_ns = 1000000000ull;
	for (uint64_t i = 1; i <= 100; i++) {
		lat_add(&f->result.dir[DIR_READ].clat, 1000 * i);
		lat_add(&f->result.dir[DIR_READ].lat, 1100 * i);
	}
	f->result.dir[DIR_READ].ios = 100;
	f->result.dir[DIR_READ].bytes = 100 * 4096;
	if (record_from_result(&f->result, &f->rec)) {
		tmpdir_remove(&f->dir);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int rc = tmpdir_remove(&f->dir);

	record_free(&f->rec);
	job_result_free(&f->result);
	free(f);
	return rc;
}

static int64_t raw_int(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	int64_t value = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		value = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return value;
}

static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	char *message = NULL;
	int rc;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	rc = sqlite3_exec(db, sql, NULL, NULL, &message);
	if (rc != SQLITE_OK)
		print_error("sql '%s': %s\n", sql, message ? message : "?");
	sqlite3_free(message);
	sqlite3_close(db);
	assert_int_equal(rc, SQLITE_OK);
}

static const struct run_meta meta = {
	.label = "d", .source = "run", .command = "drivebench run", .target = "/tmp/x",
	.started_ms = 1000,
};

/* Stores a run of two steps and three results inside the caller's
 * transaction, as `run` does. */
static void store_run_inside(struct fixture *f, struct store *s, int64_t *run_id)
{
	int64_t step;

	assert_int_equal(store_run_begin(s, &meta, run_id), 0);
	for (unsigned g = 0; g < 2; g++) {
		assert_int_equal(store_step_begin(s, *run_id, g, "group", "jobs", &step), 0);
		f->rec.step_id = step;
		for (unsigned i = 0; i <= g; i++)
			assert_int_equal(store_result_add(s, *run_id, &f->rec, NULL), 0);
		assert_int_equal(store_step_end(s, step, "done"), 0);
	}
	assert_int_equal(store_run_end(s, *run_id, false), 0);
}

static void test_rollback_leaves_nothing(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	int64_t run_id;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_transaction_begin(s), 0);
	store_run_inside(f, s, &run_id);
	store_transaction_rollback(s);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM runs"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM steps"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM bins"), 0);

	/* committed: all of it, one run with its three results */
	assert_int_equal(store_transaction_begin(s), 0);
	store_run_inside(f, s, &run_id);
	assert_int_equal(store_transaction_commit(s), 0);
	store_close(s);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM runs WHERE finished_ms > 0"), 1);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM steps WHERE status = 'done'"), 2);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 3);
}

/* The process dies (as kill -9 would: no commit, no rollback, no close)
 * after storing everything but the commit: nothing of the run is there. */
static void test_death_before_commit_leaves_nothing(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	int64_t run_id;
	pid_t pid;
	int status;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (store_open(f->path, &s) || store_transaction_begin(s))
			_exit(2);
		store_run_inside(f, s, &run_id);
		raise(SIGKILL);   /* as kill -9: nothing after this runs */
		_exit(3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM pragma_integrity_check"
				 " WHERE integrity_check <> 'ok'"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM runs"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 0);
	/* the database takes the next run */
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_transaction_begin(s), 0);
	store_run_inside(f, s, &run_id);
	assert_int_equal(store_transaction_commit(s), 0);
	store_close(s);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 3);
}

/* A result that fails inside the transaction undoes itself only; the
 * results before it are still in the transaction. */
static void test_failing_result_inside(void **state)
{
	struct fixture *f = *state;
	struct result_record bad;
	struct store *s;
	int64_t run_id;

	assert_true(f->rec.dir[DIR_READ].nr_bins >= 2);
	assert_int_equal(record_from_result(&f->result, &bad), 0);
	bad.dir[DIR_READ].bins[1].value_ns = bad.dir[DIR_READ].bins[0].value_ns;
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_transaction_begin(s), 0);
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &f->rec, NULL), 0);
	assert_int_equal(store_result_add(s, run_id, &bad, NULL), -1);
	assert_non_null(strstr(err_msg(), "job"));
	assert_int_equal(store_result_add(s, run_id, &f->rec, NULL), 0);
	assert_int_equal(store_transaction_commit(s), 0);
	store_close(s);
	record_free(&bad);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 2);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM result_dirs"), 4);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM bins WHERE result_id NOT IN"
				 " (SELECT id FROM results)"), 0);
}

static void test_commit_without_begin(void **state)
{
	struct fixture *f = *state;
	struct store *s;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_transaction_commit(s), -1);
	assert_non_null(strstr(err_msg(), "no transaction to commit"));
	assert_non_null(strstr(err_msg(), f->path));
	store_transaction_rollback(s);   /* nothing open: nothing happens */
	store_close(s);
}

/* --- schema v7: points ------------------------------------------------------ */

static void test_migrate_from_v6(void **state)
{
	struct fixture *f = *state;
	struct result_record *recs;
	struct store *s;
	unsigned nr;
	sqlite3 *db = NULL;

	assert_int_equal(schema_version, 12);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	for (unsigned v = 0; v < 6; v++)
		assert_int_equal(sqlite3_exec(db, schema_migrations[v], NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	raw_exec(f->path, "PRAGMA user_version = 6;"
		 "INSERT INTO runs (id, label, source, command, target, started_ms, suite)"
		 " VALUES (4, 'd', 'suite', 'c', '/t', 1, '/s');"
		 "INSERT INTO steps (id, run_id, idx, name, kind, started_ms)"
		 " VALUES (1, 4, 0, 'sweep', 'sweep', 1);"
		 "INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		 " options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms, step_id)"
		 " VALUES (1, 4, 'sweep-qd1-j1', 0, 0, 0, '{}', 'read', 4096, 1, 1, 1000, 1000, 1)");
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, 4, &recs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_false(recs[0].has_point);   /* an older row names no point */
	assert_string_equal(recs[0].job_name, "sweep-qd1-j1");
	store_results_free(recs, nr);
	store_close(s);
	assert_int_equal(raw_int(f->path, "PRAGMA user_version"), (int)schema_version);
	assert_int_equal(raw_int(f->path, "SELECT point IS NULL FROM results"), 1);
}

static void test_points_discard_and_reopen(void **state)
{
	struct fixture *f = *state;
	struct result_record *recs;
	struct store *s;
	int64_t run_id, step;
	unsigned nr;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	assert_int_equal(store_step_begin(s, run_id, 0, "sweep", "sweep", &step), 0);
	f->rec.step_id = step;
	f->rec.has_point = true;
	for (unsigned p = 0; p < 3; p++) {
		f->rec.point = p;
		assert_int_equal(store_result_add(s, run_id, &f->rec, NULL), 0);
	}
	f->rec.has_point = false;   /* a result outside any point */
	assert_int_equal(store_result_add(s, run_id, &f->rec, NULL), 0);
	assert_int_equal(store_results_load(s, run_id, &recs, &nr), 0);
	assert_int_equal(nr, 4);
	for (unsigned p = 0; p < 3; p++) {
		assert_true(recs[p].has_point);
		assert_int_equal(recs[p].point, p);
	}
	assert_false(recs[3].has_point);
	store_results_free(recs, nr);

	/* point 1 goes with everything under it; the others stay */
	assert_int_equal(store_point_discard(s, step, 1), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 3);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results WHERE point = 1"), 0);
	assert_int_equal(raw_int(f->path, "SELECT count(*) FROM result_dirs WHERE result_id"
				 " NOT IN (SELECT id FROM results)"), 0);

	assert_int_equal(store_step_end(s, step, "partial"), 0);
	assert_int_equal(store_step_reopen(s, step), 0);
	assert_int_equal(raw_int(f->path, "SELECT status = 'running' AND finished_ms = 0"
				 " FROM steps"), 1);
	assert_int_equal(store_step_reopen(s, step + 10), -1);
	assert_non_null(strstr(err_msg(), "no step"));
	store_close(s);
}

static void test_incomplete_run(void **state)
{
	struct fixture *f = *state;
	struct stored_run run;
	struct store *s;
	int64_t run_id;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &f->rec, NULL), 0);
	assert_int_equal(store_run_get(s, run_id, &run), 0);
	assert_true(stored_run_incomplete(&run));
	assert_int_equal(store_run_end(s, run_id, true), 0);
	assert_int_equal(store_run_get(s, run_id, &run), 0);
	assert_false(stored_run_incomplete(&run));
	assert_true(run.partial);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rollback_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_death_before_commit_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failing_result_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commit_without_begin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v6, setup, teardown),
		cmocka_unit_test_setup_teardown(test_points_discard_and_reopen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incomplete_run, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
