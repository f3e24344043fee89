/* test_verify_store.c - schema v6 in the results database: a version-5
 * database migrates keeping its results (verify off, no failures, no first
 * errors); verify counts, seed, every kept failure and the first error per
 * direction go from a measured result through the store and back; a
 * verdict outside the list is refused by the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/record.h"
#include "store/schema.h"
#include "store/store.h"
#include "util/error.h"
#include "verify/verify.h"

struct fixture {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_verify_store.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char path[160];
	const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };

	for (unsigned i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s%s", f->path, suffixes[i]);
		unlink(path);
	}
	rmdir(f->dir);
	free(f);
	return 0;
}

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	return db;
}

static int raw_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static int64_t raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t value;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	value = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return value;
}

static const struct run_meta meta = {
	.label = "drive", .source = "run", .command = "drivebench run",
	.target = "/tmp/x", .started_ms = 1000,
};

static void test_migrate_from_v5(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	struct result_record *recs;
	unsigned nr;
	sqlite3 *db = raw_open(f->path);

	assert_int_equal(schema_version, 6);
	for (unsigned v = 0; v < 5; v++)
		assert_int_equal(raw_exec(db, schema_migrations[v]), SQLITE_OK);
	assert_int_equal(raw_exec(db, "PRAGMA user_version = 5"), SQLITE_OK);
	assert_int_equal(raw_exec(db,
		"INSERT INTO runs (id, label, source, command, target, started_ms)"
		" VALUES (3, 'd', 'run', 'c', '/dev/x', 1);"
		"INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		" options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms)"
		" VALUES (1, 3, 'old', 0, 5, 0, '{}', 'write', 4096, 1, 1, 1000, 1000);"
		"INSERT INTO result_dirs VALUES (1, 'write', 10, 40960, 2, 5, 2000.0,"
		" 8192000.0, 0,0,0,0,0, 1,9,5.0,1.0,10, 2,10,6.0,1.0,10)"), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, 3, &recs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_false(recs[0].verify);
	assert_int_equal(recs[0].verify_checked, 0);
	assert_int_equal(recs[0].nr_verify_failures, 0);
	assert_null(recs[0].verify_failures);
	assert_int_equal(recs[0].dir[DIR_WRITE].errors, 2);
	assert_int_equal(recs[0].dir[DIR_WRITE].first_error, 0);
	store_results_free(recs, nr);
	store_close(s);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), 6);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM verify_failures"), 0);
	assert_int_equal(raw_int(db, "SELECT verify_seed IS NULL FROM results"), 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_table_info('result_dirs')"
				 " WHERE name IN ('first_error', 'first_error_offset')"), 2);
	/* the table refuses a verdict that is not one of ours */
	assert_int_not_equal(raw_exec(db, "INSERT INTO verify_failures VALUES"
				      " (1, 0, 0, 4096, 'ok', 0,0,0,0,0,-1,-1)"), SQLITE_OK);
	assert_int_equal(raw_exec(db, "INSERT INTO verify_failures VALUES"
				  " (1, 0, 0, 4096, 'torn', 0,0,0,0,0,-1,-1)"), SQLITE_OK);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(db);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct job_spec spec;
	struct job_result r;
	struct result_record rec, *loaded;
	struct verify_failure fail = {
		.offset = 1ull << 40, .len = 4096, .verdict = VERIFY_LOST_WRITE,
		.expected_seq = 9, .found_seq = 3, .found_offset = 1ull << 40,
		.found_seed = UINT64_MAX - 1, .bad_offset = (1ull << 40) + 48,
		.expected_byte = 0xab, .found_byte = 0,
	};
	struct store *s;
	int64_t run_id;
	unsigned nr;

	job_spec_defaults(&spec);
	spec.rw = RW_RANDWRITE;
	spec.verify = VERIFY_CRC32C;
	job_result_init(&r, &spec);
	r.verify_seed = UINT64_MAX - 1;   /* the same 64 bits come back */
	r.verify_checked = 1000;
	r.dir[DIR_WRITE].errors = 1;
	r.dir[DIR_WRITE].first_error = -5;
	r.dir[DIR_WRITE].first_error_offset = 123456;
	for (int i = 0; i < 3; i++) {
		fail.verdict = i == 0 ? VERIFY_LOST_WRITE : i == 1 ? VERIFY_TORN : VERIFY_NEVER_WRITTEN;
		fail.offset += 4096;
		assert_int_equal(verify_result_add(&r, &fail), 0);
	}
	r.verify_failed = 7;   /* more failed than were kept */
	assert_int_equal(record_from_result(&r, &rec), 0);
	assert_true(rec.verify);
	assert_int_equal(rec.nr_verify_failures, 3);
	assert_int_equal(rec.dir[DIR_WRITE].first_error, 5);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);
	/* a result with verify off stores a NULL seed and reads back off */
	rec.verify = false;
	rec.nr_verify_failures = 0;
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 2);
	assert_true(loaded[0].verify);
	assert_true(loaded[0].verify_seed == UINT64_MAX - 1);
	assert_int_equal(loaded[0].verify_checked, 1000);
	assert_int_equal(loaded[0].verify_failed, 7);
	assert_int_equal(loaded[0].nr_verify_failures, 3);
	assert_memory_equal(loaded[0].verify_failures, r.verify_failures,
			    3 * sizeof(struct verify_failure));
	assert_int_equal(loaded[0].dir[DIR_WRITE].first_error, 5);
	assert_int_equal(loaded[0].dir[DIR_WRITE].first_error_offset, 123456);
	assert_false(loaded[1].verify);
	assert_int_equal(loaded[1].nr_verify_failures, 0);
	store_results_free(loaded, nr);

	/* a failure without a verdict is refused and nothing is left behind */
	rec.nr_verify_failures = 3;
	rec.verify_failures[2].verdict = VERIFY_OK;
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), -1);
	assert_non_null(strstr(err_msg(), "no verdict"));
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 2);
	store_results_free(loaded, nr);
	store_close(s);
	record_free(&rec);
	assert_null(rec.verify_failures);
	job_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_migrate_from_v5, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
