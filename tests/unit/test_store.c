/* test_store.c - the results database: schema creation, migration from older
 * versions keeping data, refusal of newer ones and of non-databases, the
 * record built from a measured result, an exact store/load round trip, one
 * transaction per result (a failure midway leaves nothing), runs, labels,
 * hosts, drives and spec sheets; schema v6: a version-5 database migrates
 * keeping its results, verify counts, seed, failures and first errors per
 * direction round-trip, a verdict outside the list is refused; schema v7:
 * a version-6 database migrates (units due from the units checked, the
 * failures kept, 'missing' accepted), units due, a verify_fatal stop and a
 * missing range of 4 TiB round-trip; a database another process holds a
 * write lock on when it is created is waited for, not refused, and a stop
 * ends that wait. */
#include <setjmp.h>
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
#include "util/clock.h"
#include "util/error.h"
#include "verify/verify.h"
#include "helpers/tmpdir.h"

struct fixture {
	struct tmpdir dir;
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (tmpdir_make(&f->dir, NULL, "test_store")) {
		free(f);
		return -1;
	}
	tmpdir_join(&f->dir, "results.db", f->path, sizeof(f->path));
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

/* --- raw SQLite helpers for checking what is on disk ---------------------- */

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	return db;
}

static void raw_exec(sqlite3 *db, const char *sql)
{
	char *message = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &message);

	if (rc != SQLITE_OK)
		print_error("sql '%s': %s\n", sql, message ? message : "?");
	sqlite3_free(message);
	assert_int_equal(rc, SQLITE_OK);
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

static void raw_text(sqlite3 *db, const char *sql, char *out, size_t size)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static int64_t count_rows(const char *path, const char *table)
{
	char sql[128];
	sqlite3 *db = raw_open(path);
	int64_t n;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	n = raw_int(db, sql);
	sqlite3_close(db);
	return n;
}

static void assert_integrity_ok(const char *path)
{
	sqlite3 *db = raw_open(path);
	char verdict[64];

	raw_text(db, "PRAGMA integrity_check", verdict, sizeof(verdict));
	assert_string_equal(verdict, "ok");
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(db);
}

/* --- a measured result to store ------------------------------------------- */

struct measured {
	struct job_spec spec;
	struct job_result result;
};

static void measured_make(struct measured *m)
{
	job_spec_defaults(&m->spec);
	snprintf(m->spec.name, sizeof(m->spec.name), "randrw-4k");
	m->spec.rw = RW_RANDRW;
	m->spec.bs[DIR_READ] = m->spec.bs[DIR_WRITE] = 4096;
	m->spec.iodepth = 32;
	m->spec.numjobs = 4;
	m->spec.percentiles[0] = 50;
	m->spec.percentiles[1] = 99;
	m->spec.percentiles[2] = 99.99;
	m->spec.nr_percentiles = 3;
	snprintf(m->spec.options_text, sizeof(m->spec.options_text),
		 "rw=randrw\nbs=4k\niodepth=16\nthread\niodepth=32");
	job_result_init(&m->result, &m->spec);
	m->result.groupid = 3;
	m->result.runtime_ns = 2500000000ull;   /* 2.5 s */
	for (int d = 0; d < DIR_COUNT; d++) {
		struct dir_stats *s = &m->result.dir[d];
		uint64_t count = d == DIR_READ ? 1000 : 250;

		for (uint64_t i = 1; i <= count; i++) {
			lat_add(&s->slat, 100 + i);
			lat_add(&s->clat, 1000 * i);
			lat_add(&s->lat, 1000 * i + 100 + i);
		}
		s->ios = count;
		s->bytes = count * 4096;
	}
	m->result.dir[DIR_WRITE].errors = 2;
	for (unsigned i = 1; i <= 3; i++) {
		struct series_point p = { .t_ns = i * 1000000000ull };

		p.ios[DIR_READ] = 300 + i;
		p.bytes[DIR_READ] = (300 + i) * 4096;
		p.lat_sum_ns[DIR_READ] = (300 + i) * 1500;
		p.ios[DIR_WRITE] = i == 2 ? 0 : 80;
		p.bytes[DIR_WRITE] = p.ios[DIR_WRITE] * 4096;
		p.lat_sum_ns[DIR_WRITE] = p.ios[DIR_WRITE] * 2000;
		assert_int_equal(series_append(&m->result.series, &p), 0);
	}
	m->result.drive_before = strdup("{\"model\":\"X\"}");
	m->result.drive_delta = strdup("{\"host_bytes_written\":null}");
	assert_non_null(m->result.drive_before);
	assert_non_null(m->result.drive_delta);
}

static void test_record_from_result(void **state)
{
	struct measured m;
	struct result_record rec;
	const struct dir_record *rd, *wr;
	uint64_t total = 0;

	(void)state;
	measured_make(&m);
	assert_int_equal(record_from_result(&m.result, &rec), 0);
	rd = &rec.dir[DIR_READ];
	wr = &rec.dir[DIR_WRITE];
	assert_string_equal(rec.job_name, "randrw-4k");
	assert_int_equal(rec.groupid, 3);
	assert_string_equal(rec.rw, "randrw");
	assert_int_equal(rec.bs, 4096);
	assert_int_equal(rec.iodepth, 32);
	assert_int_equal(rec.numjobs, 4);
	assert_int_equal(rd->ios, 1000);
	assert_int_equal(wr->errors, 2);
	assert_int_equal(rd->runtime_ms, 2500);
	assert_true(rd->iops > 399.999 && rd->iops < 400.001);
	assert_true(wr->bw_bytes > 409599.9 && wr->bw_bytes < 409600.1);
	assert_int_equal(rd->clat.min, 1000);
	assert_int_equal(rd->clat.max, 1000000);
	assert_int_equal(rd->clat.n, 1000);
	assert_true(rd->clat.mean > 500499 && rd->clat.mean < 500501);
	assert_true(rd->clat.stddev > 288000 && rd->clat.stddev < 289000);
	assert_int_equal(rd->nr_clat_pct, 3);
	assert_int_equal(rd->nr_lat_pct, 3);
	assert_true(rd->clat_pct[2].pct == 99.99);
	/* p50 of 1..1000 us is near 500 us, within the histogram's 1% */
	assert_true(rd->clat_pct[0].value_ns > 495000 && rd->clat_pct[0].value_ns < 505000);
	assert_true(rd->lat_pct[0].value_ns >= rd->clat_pct[0].value_ns);
	assert_true(rd->nr_bins > 0);
	for (unsigned i = 0; i < rd->nr_bins; i++) {
		assert_true(rd->bins[i].count > 0);
		if (i)
			assert_true(rd->bins[i].value_ns > rd->bins[i - 1].value_ns);
		total += rd->bins[i].count;
	}
	assert_int_equal(total, 1000);
	/* later keys win; a bare flag is "" */
	assert_string_equal(rec.options_json,
			    "{\"rw\":\"randrw\",\"bs\":\"4k\",\"thread\":\"\",\"iodepth\":\"32\"}");
	assert_int_equal(rec.nr_series, 3);
	assert_int_equal(rec.series_interval_ms, 1000);
	assert_int_equal(rec.series[1].t_ms, 2000);
	assert_int_equal(rec.series[1].ios[DIR_READ], 302);
	assert_true(rec.series[1].lat_mean_ns[DIR_READ] == 1500.0);
	assert_true(rec.series[1].lat_mean_ns[DIR_WRITE] == 0.0);
	assert_string_equal(rec.drive_before, "{\"model\":\"X\"}");
	assert_null(rec.drive_after);
	record_free(&rec);
	job_result_free(&m.result);
}

static void test_record_empty_direction_and_bssplit(void **state)
{
	struct job_spec spec;
	struct job_result r;
	struct result_record rec;

	(void)state;
	job_spec_defaults(&spec);
	spec.rw = RW_READ;
	spec.bssplit_nr[DIR_READ] = 1;
	spec.bssplit[DIR_READ][0].bs = 4096;
	spec.bssplit[DIR_READ][0].pct = 100;
	spec.options_text[0] = '\0';
	job_result_init(&r, &spec);
	r.runtime_ns = 1000000000ull;
	assert_int_equal(record_from_result(&r, &rec), 0);
	assert_int_equal(rec.bs, 0);
	assert_int_equal(rec.dir[DIR_WRITE].clat.min, 0);
	assert_int_equal(rec.dir[DIR_WRITE].clat.n, 0);
	assert_int_equal(rec.dir[DIR_WRITE].runtime_ms, 0);
	assert_int_equal(rec.dir[DIR_WRITE].nr_bins, 0);
	assert_null(rec.dir[DIR_WRITE].bins);
	assert_int_equal(rec.dir[DIR_WRITE].clat_pct[0].value_ns, 0);
	assert_string_equal(rec.options_json, "{}");
	assert_int_equal(rec.nr_series, 0);
	record_free(&rec);
	job_result_free(&r);

	/* a result without its spec is an error, and leaves nothing to free */
	job_result_init(&r, NULL);
	assert_int_equal(record_from_result(&r, &rec), -1);
	assert_non_null(strstr(err_msg(), "no job spec"));
	assert_null(rec.options_json);
	job_result_free(&r);
}

/* --- schema and migration ------------------------------------------------- */

static void test_schema_created(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	sqlite3 *db;
	char mode[16];
	const char *const tables[] = { "hosts", "drives", "runs", "results",
		"result_dirs", "percentiles", "bins", "series" };

	assert_int_equal(store_open(f->path, &s), 0);
	store_close(s);
	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), schema_version);
	raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "wal");
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char sql[128];

		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='%s'",
			 tables[i]);
		assert_int_equal(raw_int(db, sql), 1);
	}
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_table_info('runs')"
				 " WHERE name = 'note'"), 1);
	sqlite3_close(db);
	/* opening again is a no-op */
	assert_int_equal(store_open(f->path, &s), 0);
	store_close(s);
	assert_integrity_ok(f->path);
}

static void test_migrate_from_empty_file(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	FILE *file = fopen(f->path, "w");
	sqlite3 *db;

	assert_non_null(file);
	fclose(file);
	assert_int_equal(store_open(f->path, &s), 0);
	store_close(s);
	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), schema_version);
	sqlite3_close(db);
}

/* A child that holds the write lock of path (a database it made, in
 * rollback mode) for hold_ms; returns once the lock is held. */
static pid_t hold_write_lock(const char *path, unsigned hold_ms)
{
	int ready[2];
	char byte;
	pid_t child;

	assert_int_equal(pipe(ready), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		sqlite3 *db = NULL;
		int bad = sqlite3_open(path, &db) != SQLITE_OK ||
			  sqlite3_exec(db, "PRAGMA user_version = 0", NULL, NULL, NULL) != SQLITE_OK ||
			  sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK;

		if (write(ready[1], "x", 1) != 1)
			bad = 1;
		usleep(hold_ms * 1000);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(bad);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &byte, 1), 1);
	close(ready[0]);
	return child;
}

static void assert_child_ok(pid_t child)
{
	int status;

	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Runs creating one database together: while one held the new file's
 * write lock, another's switch to WAL got "database is locked" at once
 * (SQLite skips its busy handler there), so that run was refused. Here a
 * child holds the lock for 300 ms: the open waits and succeeds. */
static void test_open_waits_for_a_write_lock_held_at_creation(void **state)
{
	struct fixture *f = *state;
	pid_t child = hold_write_lock(f->path, 300);
	struct store *s;
	double start = clock_now_ns() / 1e9;

	if (store_open(f->path, &s) != 0)
		fail_msg("open while another process held the write lock: %s", err_msg());
	assert_true(clock_now_ns() / 1e9 - start >= 0.2);
	store_close(s);
	assert_child_ok(child);
}

/* ... and a stop (Ctrl-C) during that wait ends it at once, saying so */
static void test_open_stopped_while_waiting_for_the_lock(void **state)
{
	struct fixture *f = *state;
	static volatile sig_atomic_t stop = 1;
	pid_t child = hold_write_lock(f->path, 2000);
	struct store *s;
	double start = clock_now_ns() / 1e9;

	store_stop_on(&stop);
	assert_int_equal(store_open(f->path, &s), -1);
	store_stop_on(NULL);
	assert_true(clock_now_ns() / 1e9 - start < 1.0);
	assert_non_null(strstr(err_msg(), "interrupted while waiting for another process's lock"));
	assert_child_ok(child);
}

static void test_migrate_from_v1_keeps_data(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	struct stored_run run;
	struct result_record *recs;
	unsigned nr;
	sqlite3 *db = raw_open(f->path);
	char note[16];

	/* a version-1 database as an older build left it */
	raw_exec(db, schema_migrations[0]);
	raw_exec(db, "PRAGMA user_version = 1");
	raw_exec(db, "INSERT INTO runs (id, label, source, command, target, started_ms,"
		 " finished_ms) VALUES (7, 'old-drive', 'run', 'drivebench run', '/dev/x',"
		 " 1000, 2000)");
	raw_exec(db, "INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		 " options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms)"
		 " VALUES (1, 7, 'j', 0, 0, 0, '{}', 'read', 4096, 1, 1, 5000000, 1000)");
	raw_exec(db, "INSERT INTO result_dirs VALUES (1, 'read', 10, 40960, 0, 5, 2000.0,"
		 " 8192000.0, 0,0,0,0,0, 1,9,5.0,1.0,10, 2,10,6.0,1.0,10)");
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_table_info('runs')"
				 " WHERE name = 'note'"), 0);
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_get(s, 7, &run), 0);
	assert_string_equal(run.label, "old-drive");
	assert_int_equal(run.finished_ms, 2000);
	assert_int_equal(run.nr_results, 1);
	assert_int_equal(store_results_load(s, 7, &recs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(recs[0].dir[DIR_READ].ios, 10);
	assert_int_equal(recs[0].dir[DIR_READ].clat.max, 9);
	assert_true(recs[0].dir[DIR_READ].iops == 2000.0);
	store_results_free(recs, nr);
	store_close(s);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), (int)schema_version);
	raw_text(db, "SELECT note FROM runs WHERE id = 7", note, sizeof(note));
	assert_string_equal(note, "");
	/* v3: steps, and old results belong to no step */
	assert_int_equal(raw_int(db, "SELECT count(*) FROM steps"), 0);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM results WHERE step_id IS NULL"), 1);
	sqlite3_close(db);
	assert_integrity_ok(f->path);
}

static void test_newer_version_refused(void **state)
{
	struct fixture *f = *state;
	struct store *s = (struct store *)1;
	sqlite3 *db = raw_open(f->path);

	raw_exec(db, "CREATE TABLE future (x)");
	raw_exec(db, "PRAGMA user_version = 99");
	sqlite3_close(db);
	assert_int_equal(store_open(f->path, &s), -1);
	assert_null(s);
	assert_non_null(strstr(err_msg(), f->path));
	assert_non_null(strstr(err_msg(), "newer"));
	/* and it was left as it was */
	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), 99);
	sqlite3_close(db);
}

/* Another program's SQLite database (tables, schema version 0) is not
 * taken over, for writing or reading: drivebench's 11 tables were added
 * beside its own. */
static void test_foreign_database_refused(void **state)
{
	struct fixture *f = *state;
	struct store *s = (struct store *)1;
	sqlite3 *db = raw_open(f->path);

	raw_exec(db, "CREATE TABLE inventory (item TEXT)");
	sqlite3_close(db);
	assert_int_equal(store_open(f->path, &s), -1);
	assert_null(s);
	assert_non_null(strstr(err_msg(), "not a drivebench results database: it holds "
					  "'inventory'"));
	s = (struct store *)1;
	assert_int_equal(store_open_read(f->path, "report", &s), -1);
	assert_null(s);
	assert_non_null(strstr(err_msg(), "not a drivebench results database"));
	/* and it holds its one table still */
	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master"), 1);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), 0);
	sqlite3_close(db);
}

static void test_not_a_database_refused(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	FILE *file = fopen(f->path, "w");
	char missing[200];

	assert_non_null(file);
	fputs("this is a text file, not SQLite, and long enough to have a header ...\n",
	      file);
	fclose(file);
	assert_int_equal(store_open(f->path, &s), -1);
	assert_null(s);
	assert_non_null(strstr(err_msg(), f->path));

	tmpdir_join(&f->dir, "no/such/dir/x.db", missing, sizeof(missing));
	assert_int_equal(store_open(missing, &s), -1);
	assert_non_null(strstr(err_msg(), missing));
}

/* --- runs and results ------------------------------------------------------ */

static const struct run_meta sample_meta = {
	.label = "drive-a", .source = "run", .command = "drivebench run --rw=randrw",
	.target = "/dev/nvme0n1", .started_ms = 1700000000123ull,
	.drive_json = "{\"model\":\"Fast SSD\",\"serial\":\"S123\",\"firmware\":\"1.0\","
		      "\"nvme\":null}",
};

static void assert_summary_equal(const struct lat_summary *a, const struct lat_summary *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_true(a->mean == b->mean);
	assert_true(a->stddev == b->stddev);
}

static void assert_text_equal(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_records_equal(const struct result_record *a, const struct result_record *b)
{
	assert_string_equal(a->job_name, b->job_name);
	assert_int_equal(a->groupid, b->groupid);
	assert_int_equal(a->error, b->error);
	assert_int_equal(a->partial, b->partial);
	assert_text_equal(a->options_json, b->options_json);
	assert_string_equal(a->rw, b->rw);
	assert_int_equal(a->bs, b->bs);
	assert_int_equal(a->iodepth, b->iodepth);
	assert_int_equal(a->numjobs, b->numjobs);
	assert_int_equal(a->runtime_ns, b->runtime_ns);
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct dir_record *x = &a->dir[d], *y = &b->dir[d];

		assert_int_equal(x->ios, y->ios);
		assert_int_equal(x->bytes, y->bytes);
		assert_int_equal(x->errors, y->errors);
		assert_int_equal(x->runtime_ms, y->runtime_ms);
		assert_true(x->iops == y->iops);
		assert_true(x->bw_bytes == y->bw_bytes);
		assert_summary_equal(&x->slat, &y->slat);
		assert_summary_equal(&x->clat, &y->clat);
		assert_summary_equal(&x->lat, &y->lat);
		assert_int_equal(x->nr_clat_pct, y->nr_clat_pct);
		assert_int_equal(x->nr_lat_pct, y->nr_lat_pct);
		for (unsigned i = 0; i < x->nr_clat_pct; i++) {
			assert_true(x->clat_pct[i].pct == y->clat_pct[i].pct);
			assert_int_equal(x->clat_pct[i].value_ns, y->clat_pct[i].value_ns);
		}
		for (unsigned i = 0; i < x->nr_lat_pct; i++) {
			assert_true(x->lat_pct[i].pct == y->lat_pct[i].pct);
			assert_int_equal(x->lat_pct[i].value_ns, y->lat_pct[i].value_ns);
		}
		assert_int_equal(x->nr_bins, y->nr_bins);
		for (unsigned i = 0; i < x->nr_bins; i++) {
			assert_int_equal(x->bins[i].value_ns, y->bins[i].value_ns);
			assert_int_equal(x->bins[i].count, y->bins[i].count);
		}
	}
	assert_int_equal(a->nr_series, b->nr_series);
	assert_int_equal(a->series_interval_ms, b->series_interval_ms);
	for (unsigned i = 0; i < a->nr_series; i++) {
		assert_int_equal(a->series[i].t_ms, b->series[i].t_ms);
		for (int d = 0; d < DIR_COUNT; d++) {
			assert_int_equal(a->series[i].ios[d], b->series[i].ios[d]);
			assert_int_equal(a->series[i].bytes[d], b->series[i].bytes[d]);
			assert_true(a->series[i].lat_mean_ns[d] == b->series[i].lat_mean_ns[d]);
		}
	}
	assert_text_equal(a->drive_before, b->drive_before);
	assert_text_equal(a->drive_after, b->drive_after);
	assert_text_equal(a->drive_delta, b->drive_delta);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct measured m;
	struct result_record rec[2], *loaded;
	struct stored_run run, *runs;
	struct store *s;
	int64_t run_id, result_id = 0;
	unsigned nr;

	measured_make(&m);
	assert_int_equal(record_from_result(&m.result, &rec[0]), 0);
	/* a second record with extreme values: u64 beyond INT64_MAX survives */
	assert_int_equal(record_from_result(&m.result, &rec[1]), 0);
	snprintf(rec[1].job_name, sizeof(rec[1].job_name), "second");
	rec[1].error = 5;
	rec[1].partial = true;
	rec[1].dir[DIR_READ].bytes = UINT64_MAX - 1;
	rec[1].dir[DIR_READ].iops = 1.0 / 3.0;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(store_result_add(s, run_id, &rec[i], &result_id), 0);
	assert_true(result_id > 0);
	assert_int_equal(store_run_end(s, run_id, true), 0);
	store_close(s);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 2);
	for (int i = 0; i < 2; i++)
		assert_records_equal(&rec[i], &loaded[i]);
	store_results_free(loaded, nr);

	assert_int_equal(store_run_get(s, run_id, &run), 0);
	assert_int_equal(run.id, run_id);
	assert_string_equal(run.label, "drive-a");
	assert_string_equal(run.source, "run");
	assert_string_equal(run.command, "drivebench run --rw=randrw");
	assert_string_equal(run.target, "/dev/nvme0n1");
	assert_int_equal(run.started_ms, 1700000000123ull);
	assert_true(run.finished_ms >= run.started_ms);
	assert_true(run.partial);
	assert_int_equal(run.nr_results, 2);
	assert_string_equal(run.drive_model, "Fast SSD");
	assert_string_equal(run.drive_serial, "S123");

	assert_int_equal(store_runs_list(s, &runs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(runs[0].id, run_id);
	free(runs);
	/* a run without results loads as an empty list */
	assert_int_equal(store_results_load(s, run_id + 1, &loaded, &nr), 0);
	assert_int_equal(nr, 0);
	assert_null(loaded);
	store_close(s);
	for (int i = 0; i < 2; i++)
		record_free(&rec[i]);
	job_result_free(&m.result);
	assert_integrity_ok(f->path);
}

static void test_result_is_one_transaction(void **state)
{
	struct fixture *f = *state;
	struct measured m;
	struct result_record rec;
	struct store *s;
	struct result_record *loaded;
	int64_t run_id, result_id = -5;
	unsigned nr;
	const char *const tables[] = { "results", "result_dirs", "percentiles", "bins",
				       "series" };

	measured_make(&m);
	assert_int_equal(record_from_result(&m.result, &rec), 0);
	assert_true(rec.dir[DIR_WRITE].nr_bins >= 2);
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);

	/* the write direction's second bin repeats the first: its insert breaks
	 * the primary key after the result, both directions and the read bins
	 * were written */
	rec.dir[DIR_WRITE].bins[1].value_ns = rec.dir[DIR_WRITE].bins[0].value_ns;
	assert_int_equal(store_result_add(s, run_id, &rec, &result_id), -1);
	assert_non_null(strstr(err_msg(), f->path));
	assert_non_null(strstr(err_msg(), "randrw-4k"));
	assert_int_equal(result_id, -5);
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		assert_int_equal(count_rows(f->path, tables[i]), 0);

	/* an unknown run violates the foreign key: nothing either */
	rec.dir[DIR_WRITE].bins[1].value_ns = rec.dir[DIR_WRITE].bins[0].value_ns + 1;
	assert_int_equal(store_result_add(s, run_id + 100, &rec, NULL), -1);
	assert_int_equal(count_rows(f->path, "results"), 0);

	/* the store is still usable afterwards */
	assert_int_equal(store_result_add(s, run_id, &rec, &result_id), 0);
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 1);
	store_results_free(loaded, nr);
	assert_int_equal(count_rows(f->path, "result_dirs"), 2);
	assert_int_equal(count_rows(f->path, "series"), 6);
	store_close(s);
	record_free(&rec);
	job_result_free(&m.result);
	assert_integrity_ok(f->path);
}

static void test_runs_hosts_drives_labels(void **state)
{
	struct fixture *f = *state;
	struct run_meta meta = sample_meta;
	struct stored_run run;
	struct store *s;
	int64_t first, second, third, *ids;
	unsigned nr;
	sqlite3 *db;
	char text[256];

	assert_int_equal(store_open(f->path, &s), 0);
	meta.started_ms = 3000;
	assert_int_equal(store_run_begin(s, &meta, &first), 0);
	meta.started_ms = 1000;   /* older, though stored later */
	assert_int_equal(store_run_begin(s, &meta, &second), 0);
	meta.label = "";
	meta.drive_json = NULL;
	assert_int_equal(store_run_begin(s, &meta, &third), 0);

	assert_int_equal(store_runs_by_label(s, "drive-a", &ids, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(ids[0], second);
	assert_int_equal(ids[1], first);
	free(ids);
	assert_int_equal(store_runs_by_label(s, "nobody", &ids, &nr), 0);
	assert_int_equal(nr, 0);

	assert_int_equal(store_run_get(s, third, &run), 0);
	assert_string_equal(run.drive_model, "");
	assert_int_equal(run.finished_ms, 0);
	assert_false(run.partial);
	assert_int_equal(store_run_get(s, 999, &run), -1);
	assert_non_null(strstr(err_msg(), "no run 999"));
	assert_int_equal(store_run_end(s, 999, false), -1);
	assert_non_null(strstr(err_msg(), "no run 999"));
	/* an interrupted suite's run: partial, still unfinished (resumable) */
	assert_int_equal(store_run_mark_partial(s, third, true), 0);
	assert_int_equal(store_run_get(s, third, &run), 0);
	assert_true(run.partial);
	assert_int_equal(run.finished_ms, 0);
	assert_int_equal(store_run_mark_partial(s, third, false), 0);
	assert_int_equal(store_run_mark_partial(s, 999, true), -1);
	assert_non_null(strstr(err_msg(), "no run 999"));

	meta = sample_meta;
	meta.drive_json = "{not json";
	assert_int_equal(store_run_begin(s, &meta, &third), -1);
	assert_non_null(strstr(err_msg(), "not valid JSON"));
	store_close(s);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM hosts"), 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM drives"), 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs"), 3);
	assert_true(raw_int(db, "SELECT cores FROM hosts") >= 1);
	assert_true(raw_int(db, "SELECT memory_bytes FROM hosts") > 0);
	raw_text(db, "SELECT kernel FROM hosts", text, sizeof(text));
	assert_non_null(strstr(text, "Linux"));
	raw_text(db, "SELECT firmware FROM drives", text, sizeof(text));
	assert_string_equal(text, "1.0");
	sqlite3_close(db);
}

static void test_spec_sheets(void **state)
{
	struct fixture *f = *state;
	struct run_meta meta = sample_meta;
	struct store *s;
	char *ini;
	int64_t run_id;

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_spec_get(s, "drive-a", &ini), 0);
	assert_null(ini);
	/* a label not yet seen in any run */
	assert_int_equal(store_spec_set(s, "drive-a", "[drive]\nmodel=Fast SSD\n"), 0);
	assert_int_equal(store_spec_get(s, "drive-a", &ini), 0);
	assert_string_equal(ini, "[drive]\nmodel=Fast SSD\n");
	free(ini);
	/* a run of that label keeps the sheet, and a new sheet replaces it */
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	assert_int_equal(store_spec_set(s, "drive-a", "[drive]\nmodel=v2\n"), 0);
	assert_int_equal(store_spec_get(s, "drive-a", &ini), 0);
	assert_string_equal(ini, "[drive]\nmodel=v2\n");
	free(ini);
	assert_int_equal(store_spec_set(s, "", "x"), -1);
	assert_non_null(strstr(err_msg(), "label"));
	store_close(s);
	assert_int_equal(count_rows(f->path, "drives"), 2);
}

/* results.max_buffer_bytes (schema v5): from the measured result through
 * the store and back; a result stored before v5 reads as 0. */
static void test_max_buffer_bytes_round_trip(void **state)
{
	struct fixture *f = *state;
	struct measured m;
	struct result_record rec, *loaded;
	struct store *s;
	int64_t run_id;
	unsigned nr;
	sqlite3 *db;

	measured_make(&m);
	m.result.max_buffer_bytes = 320ull << 20;   /* 40 slots x 8 MiB chunks */
	assert_int_equal(record_from_result(&m.result, &rec), 0);
	assert_int_equal(rec.max_buffer_bytes, 320ull << 20);
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);
	rec.max_buffer_bytes = UINT64_MAX - 3;   /* the same bits come back */
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);
	store_close(s);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM results WHERE max_buffer_bytes = 335544320"), 1);
	/* as a row written before the column existed would read */
	raw_exec(db, "INSERT INTO results (run_id, job_name, groupid, error, partial,"
		 " options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms)"
		 " SELECT run_id, 'old', 0, 0, 0, '{}', 'read', 4096, 1, 1, 1, 1000 FROM results LIMIT 1");
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(loaded[0].max_buffer_bytes, 320ull << 20);
	assert_true(loaded[1].max_buffer_bytes == UINT64_MAX - 3);
	assert_int_equal(loaded[2].max_buffer_bytes, 0);
	store_results_free(loaded, nr);
	store_close(s);
	record_free(&rec);
	job_result_free(&m.result);
}


/* --- schema v12: the fio JSON of a result, for export --format fio ------ */

static void test_fio_json_round_trip(void **state)
{
	struct fixture *f = *state;
	struct measured m;
	struct result_record rec;
	struct stored_fio_json *docs;
	struct store *s;
	int64_t run_id;
	unsigned nr;

	measured_make(&m);
	assert_int_equal(record_from_result(&m.result, &rec), 0);
	assert_null(rec.fio_head);
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);   /* none */
	rec.fio_head = strdup("{\"fio version\":\"x\"}");
	rec.fio_job = strdup("{\"jobname\":\"j\",\"n\":18446744073709551615}");
	assert_int_equal(store_result_add(s, run_id, &rec, NULL), 0);
	assert_int_equal(store_fio_json_load(s, run_id, &docs, &nr), 0);
	assert_int_equal(nr, 2);
	assert_null(docs[0].head);
	assert_null(docs[0].job);
	assert_string_equal(docs[1].head, rec.fio_head);
	assert_string_equal(docs[1].job, rec.fio_job);   /* the text, exactly */
	store_fio_json_free(docs, nr);
	store_close(s);
	record_free(&rec);
	assert_null(rec.fio_head);
	job_result_free(&m.result);
}

/* --- schema v6: verification results and first errors ------------------ */

static const struct run_meta verify_meta = {
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

	assert_true(schema_version >= 6);
	for (unsigned v = 0; v < 5; v++)
		raw_exec(db, schema_migrations[v]);
	raw_exec(db, "PRAGMA user_version = 5");
	raw_exec(db,
		"INSERT INTO runs (id, label, source, command, target, started_ms)"
		" VALUES (3, 'd', 'run', 'c', '/dev/x', 1);"
		"INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		" options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms)"
		" VALUES (1, 3, 'old', 0, 5, 0, '{}', 'write', 4096, 1, 1, 1000, 1000);"
		"INSERT INTO result_dirs VALUES (1, 'write', 10, 40960, 2, 5, 2000.0,"
		" 8192000.0, 0,0,0,0,0, 1,9,5.0,1.0,10, 2,10,6.0,1.0,10)");
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
	assert_int_equal(raw_int(db, "PRAGMA user_version"), (int)schema_version);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM verify_failures"), 0);
	assert_int_equal(raw_int(db, "SELECT verify_seed IS NULL FROM results"), 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_table_info('result_dirs')"
				 " WHERE name IN ('first_error', 'first_error_offset')"), 2);
	/* the table refuses a verdict that is not one of ours */
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO verify_failures VALUES"
					  " (1, 0, 0, 4096, 'ok', 0,0,0,0,0,-1,-1,1)", NULL, NULL, NULL), SQLITE_OK);
	raw_exec(db, "INSERT INTO verify_failures VALUES"
				  " (1, 0, 0, 4096, 'torn', 0,0,0,0,0,-1,-1,1)");
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(db);
}

static void test_verify_round_trip(void **state)
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
		fail.verdict = i == 0 ? VERIFY_LOST_WRITE : i == 1 ? VERIFY_TORN : VERIFY_MISSING;
		fail.offset += 4096;
		fail.units = i == 2 ? 1ull << 30 : 1;   /* a missing range of 4 TiB */
		fail.len = i == 2 ? 1ull << 42 : 4096;
		assert_int_equal(verify_result_add(&r, &fail), 0);
	}
	r.verify_failed += 5;   /* more failed than were kept */
	r.verify_units = 3000;
	r.verify_stopped = true;
	assert_int_equal(record_from_result(&r, &rec), 0);
	assert_true(rec.verify);
	assert_int_equal(rec.nr_verify_failures, 3);
	assert_int_equal(rec.dir[DIR_WRITE].first_error, 5);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &verify_meta, &run_id), 0);
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
	assert_int_equal(loaded[0].verify_failed, (1ull << 30) + 7);
	assert_int_equal(loaded[0].verify_units, 3000);
	assert_true(loaded[0].verify_stopped);
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

/* --- schema v7: units due, verify_fatal stops, missing ranges ----------- */

static void test_migrate_from_v6(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	struct result_record *recs;
	unsigned nr;
	sqlite3 *db = raw_open(f->path);

	assert_int_equal(schema_version, 12);
	for (unsigned v = 0; v < 6; v++)
		raw_exec(db, schema_migrations[v]);
	raw_exec(db, "PRAGMA user_version = 6");
	raw_exec(db,
		"INSERT INTO runs (id, label, source, command, target, started_ms)"
		" VALUES (3, 'd', 'run', 'c', '/dev/x', 1);"
		"INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		" options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms,"
		" verify_seed, verify_checked, verify_failed)"
		" VALUES (1, 3, 'v6', 0, 84, 0, '{}', 'write', 4096, 1, 1, 1000, 1000, 11, 64, 2);"
		"INSERT INTO verify_failures VALUES (1, 0, 8192, 4096, 'corrupt', 1,1,8192,11,9000,7,8);"
		"INSERT INTO verify_failures VALUES (1, 1, 12288, 4096, 'torn', 2,2,12288,11,12800,-1,-1)");
	/* v6 has no 'missing' */
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO verify_failures VALUES"
					  " (1, 2, 0, 4096, 'missing', 0,0,0,0,0,-1,-1)", NULL, NULL, NULL),
			     SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, 3, &recs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_true(recs[0].verify);
	/* an older row was checked in full: its units due are those checked */
	assert_int_equal(recs[0].verify_units, 64);
	assert_int_equal(recs[0].verify_checked, 64);
	assert_false(recs[0].verify_stopped);
	assert_int_equal(recs[0].nr_verify_failures, 2);
	assert_int_equal(recs[0].verify_failures[0].offset, 8192);
	assert_int_equal(recs[0].verify_failures[0].units, 1);
	assert_int_equal(recs[0].verify_failures[0].found_byte, 8);
	assert_int_equal(recs[0].verify_failures[1].verdict, VERIFY_TORN);
	assert_int_equal(recs[0].verify_failures[1].expected_byte, -1);
	store_results_free(recs, nr);
	store_close(s);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), (int)schema_version);
	raw_exec(db, "INSERT INTO verify_failures VALUES"
		     " (1, 2, 65536, 8192, 'missing', 0,0,0,0,65536,-1,-1,2)");
	assert_int_equal(raw_int(db, "SELECT sum(units) FROM verify_failures"), 4);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	/* the rebuilt table still cascades */
	raw_exec(db, "PRAGMA foreign_keys = ON; DELETE FROM results");
	assert_int_equal(raw_int(db, "SELECT count(*) FROM verify_failures"), 0);
	sqlite3_close(db);
}

/* --- schema v9: a result's pass, and its step's kind read back -------- */

/* --- schema v10: the host's OS and server ---------------------------- */

/* PRETTY_NAME from os-release as this host has it, "" without one */
static void this_os(char *buf, size_t len)
{
	char line[512];
	FILE *os = fopen("/etc/os-release", "r");

	buf[0] = '\0';
	while (os && fgets(line, sizeof(line), os))
		if (!strncmp(line, "PRETTY_NAME=\"", 13)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%.*s", (int)strlen(line + 13) - 1, line + 13);
		}
	if (os)
		fclose(os);
}

/* A v9 database's host row (no OS, no server) is migrated with '', and the
 * next run on that host fills them in; the run's host reads them back. */
/* --- schema v11: an MPI run's ranks ---------------------------------------- */

/* A rank's part of a result is stored beside the run's own result but never
 * read as one of the run's results; the run's ranks are stored once each. */
static void test_rank_rows(void **state)
{
	struct fixture *f = *state;
	struct measured m;
	struct result_record agg, part, *loaded;
	struct stored_run run;
	struct host_facts host = { .hostname = "node7", .kernel = "k", .cpu_model = "c",
				   .cores = 4, .memory_bytes = 1024 };
	struct run_rank rank = { .rank = 1, .local_rank = 0, .host = &host,
				 .clock_offset_ns = -1500, .drive_json = "{\"serial\":\"S1\"}" };
	struct store *s;
	int64_t run_id;
	unsigned nr;
	sqlite3 *db;

	measured_make(&m);
	m.result.nr_ranks = 2;
	m.result.first_done_ns = 900;
	m.result.first_done_ios[DIR_READ] = 7;
	m.result.first_done_bytes[DIR_READ] = 7 * 4096;
	assert_int_equal(record_from_result(&m.result, &agg), 0);
	assert_int_equal(record_from_result(&m.result, &part), 0);
	part.has_rank = true;   /* one rank's own: merged nothing */
	part.rank = 1;
	part.nr_ranks = 1;
	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);
	assert_int_equal(store_result_add(s, run_id, &agg, NULL), 0);
	assert_int_equal(store_result_add(s, run_id, &part, NULL), 0);
	assert_int_equal(store_run_rank_add(s, run_id, &rank), 0);
	rank.clock_offset_ns = 99;   /* a later record_run of the run changes nothing */
	assert_int_equal(store_run_rank_add(s, run_id, &rank), 0);
	assert_int_equal(store_results_load(s, run_id, &loaded, &nr), 0);
	assert_int_equal(nr, 1);
	assert_false(loaded[0].has_rank);
	store_results_free(loaded, nr);
	assert_int_equal(store_run_get(s, run_id, &run), 0);
	assert_int_equal(run.nr_results, 1);
	store_close(s);
	record_free(&agg);
	record_free(&part);
	job_result_free(&m.result);

	db = raw_open(f->path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM results WHERE rank = 1"), 1);
	assert_int_equal(raw_int(db, "SELECT ranks FROM results WHERE rank IS NULL"), 2);
	assert_int_equal(raw_int(db, "SELECT first_done_ns FROM results WHERE rank IS NULL"), 900);
	assert_int_equal(raw_int(db, "SELECT first_done_ios FROM results WHERE rank IS NULL"), 7);
	assert_int_equal(raw_int(db, "SELECT first_done_ns IS NULL FROM results WHERE rank = 1"), 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM run_ranks"), 1);
	assert_int_equal(raw_int(db, "SELECT clock_offset_ns FROM run_ranks"), -1500);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM run_ranks r JOIN hosts h"
				     " ON h.id = r.host_id WHERE h.hostname = 'node7' AND h.cores = 4"), 1);
	sqlite3_close(db);
}

static void test_migrate_from_v9_host(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	struct stored_run *runs;
	unsigned nr;
	int64_t run_id;
	char os[256];
	sqlite3 *db = raw_open(f->path);

	for (unsigned v = 0; v < 9; v++)
		raw_exec(db, schema_migrations[v]);
	raw_exec(db, "PRAGMA user_version = 9");
	raw_exec(db, "INSERT INTO hosts (id, hostname, kernel, cpu_model, cores, memory_bytes)"
		     " VALUES (7, 'old', 'Linux 5 x86_64', 'cpu', 2, 1024);"
		     "INSERT INTO runs (id, host_id, label, source, command, target, started_ms)"
		     " VALUES (1, 7, 'd', 'run', 'c', '/t', 1);");
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_run_begin(s, &sample_meta, &run_id), 0);
	assert_int_equal(store_runs_list(s, &runs, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(runs[0].host_name, "old");
	assert_string_equal(runs[0].host_os, "");
	assert_string_equal(runs[0].host_server, "");
	this_os(os, sizeof(os));
	assert_true(os[0] != '\0');   /* the test machines are Debian */
	assert_string_equal(runs[1].host_os, os);
	free(runs);
	store_close(s);
}

static void test_migrate_from_v8(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	struct result_record *recs;
	unsigned nr;
	sqlite3 *db = raw_open(f->path);

	for (unsigned v = 0; v < 8; v++)
		raw_exec(db, schema_migrations[v]);
	raw_exec(db, "PRAGMA user_version = 8");
	raw_exec(db,
		"INSERT INTO runs (id, label, source, command, target, started_ms)"
		" VALUES (4, 'd', 'checkpoint', 'c', '/ckpt', 1);"
		"INSERT INTO steps (id, run_id, idx, name, kind, status, started_ms) VALUES"
		" (1, 4, 0, 'pass 2', 'checkpoint', 'done', 1),"
		" (2, 4, 1, 'read-back', 'checkpoint-read', 'done', 1),"
		" (3, 4, 2, 'group 0: pass1-ckpt001', 'jobs', 'done', 1);"
		"INSERT INTO results (id, run_id, job_name, groupid, error, partial,"
		" options_json, rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms, step_id)"
		" VALUES (1, 4, 'pass2-ckpt003', 0, 0, 0, '{}', 'write', 1048576, 1, 1, 1000, 1000, 1),"
		" (2, 4, 'read-ckpt012', 0, 0, 0, '{}', 'read', 1048576, 1, 1, 1000, 1000, 2),"
		" (3, 4, 'pass1-ckpt001', 0, 0, 0, '{}', 'write', 1048576, 1, 1, 1000, 1000, 3),"
		" (4, 4, 'no step', 0, 0, 0, '{}', 'write', 4096, 1, 1, 1000, 1000, NULL)");
	sqlite3_close(db);

	assert_int_equal(store_open(f->path, &s), 0);
	assert_int_equal(store_results_load(s, 4, &recs, &nr), 0);
	assert_int_equal(nr, 4);
	/* checkpoint rows get their pass and index from the names their
	 * steps gave them, once, in the migration */
	assert_true(recs[0].has_pass);
	assert_int_equal(recs[0].pass, 2);
	assert_int_equal(recs[0].pass_index, 3);
	assert_string_equal(recs[0].step_kind, "checkpoint");
	assert_true(recs[1].has_pass);
	assert_int_equal(recs[1].pass, 0);
	assert_int_equal(recs[1].pass_index, 12);
	assert_string_equal(recs[1].step_kind, "checkpoint-read");
	/* a job only named like a checkpoint, in a jobs step, is not one */
	assert_false(recs[2].has_pass);
	assert_string_equal(recs[2].step_kind, "jobs");
	assert_false(recs[3].has_pass);
	assert_string_equal(recs[3].step_kind, "");
	store_results_free(recs, nr);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_from_result),
		cmocka_unit_test(test_record_empty_direction_and_bssplit),
		cmocka_unit_test_setup_teardown(test_schema_created, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_empty_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_waits_for_a_write_lock_held_at_creation,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_stopped_while_waiting_for_the_lock,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v1_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_version_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_database_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_is_one_transaction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_hosts_drives_labels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spec_sheets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_buffer_bytes_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fio_json_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v5, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v6, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_v9_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_round_trip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
