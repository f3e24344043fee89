/* store.c - the results database on SQLite: open (through the write gate;
 * WAL, foreign keys, forward migration by PRAGMA user_version), hosts,
 * drives, runs and steps, suite resume lookups, spec sheets. A result and
 * everything under it is written by store_write.c and read back by
 * store_read.c; the SQLite helpers are store_db.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/host_facts.h"
#include "store/schema.h"
#include "store/store.h"
#include "store/store_db.h"
#include "device/output_gate.h"
#include "util/error.h"
#include "util/text.h"
#include "util/clock.h"

#define BUSY_TIMEOUT_MS 10000
#define BUSY_STEP_MS 10

static volatile sig_atomic_t *stop_flag;

void store_stop_on(volatile sig_atomic_t *flag)
{
	stop_flag = flag;
}

/* SQLite's busy handler: waits for another process's lock in steps of
 * 10 ms, up to BUSY_TIMEOUT_MS. While the database is being opened
 * (nothing measured yet, nothing to lose) a stop ends the wait at once;
 * storing results waits out the whole timeout, since giving up would lose
 * what the stop is to keep. */
static int busy_wait(void *arg, int count)
{
	struct store *s = arg;
	uint64_t now = clock_now_ns();

	if (count == 0)
		s->busy_since_ns = now;
	if (s->opening && stop_flag && *stop_flag) {
		s->cut_by_stop = true;
		return 0;
	}
	if (now - s->busy_since_ns >= (uint64_t)BUSY_TIMEOUT_MS * 1000000u)
		return 0;
	sqlite3_sleep(BUSY_STEP_MS);
	return 1;
}

/* Switches the database to WAL. The switch takes the file's write lock
 * after the read lock the pragma holds, and SQLite returns SQLITE_BUSY at
 * once, without its busy handler, when another connection has the write
 * lock then (waiting while holding a read lock could deadlock): runs
 * creating one database together met that. So a busy switch is retried
 * here, its read lock released between tries, waiting as the busy
 * handler waits (busy_wait: its steps, timeout and stop). */
static int set_wal(struct store *s)
{
	int rc, tries = 0;

	do
		rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
	while ((rc & 0xff) == SQLITE_BUSY && busy_wait(s, tries++));
	return rc == SQLITE_OK ? 0 : db_error(s, "not a usable database");
}

static int user_version(struct store *s, unsigned *version)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(s, "PRAGMA user_version", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*version = (unsigned)sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_error(s, "reading the schema version");
}

/* A file at schema version 0 is new to drivebench: it must hold nothing
 * yet. Another program's SQLite database (tables, no version) is not
 * taken over: drivebench's tables were added beside its own. */
static int check_not_foreign(struct store *s)
{
	sqlite3_stmt *st;
	char name[128] = "";
	int rc;

	if (db_prepare(s, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
			  "LIMIT 1", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(name, sizeof(name), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return err_set("%s: not a drivebench results database: it holds '%s' (another "
			       "program's SQLite database) and no drivebench schema version; "
			       "drivebench never adds its tables to another database", s->path,
			       name);
	return rc == SQLITE_DONE ? 0 : db_error(s, "reading its tables");
}

static int migrate(struct store *s)
{
	unsigned version;
	char sql[64];

	if (user_version(s, &version))
		return -1;
	if (version > schema_version)
		return err_set("%s: schema version %u is newer than this build knows (%u); "
			       "use a newer drivebench", s->path, version, schema_version);
	while (version < schema_version) {
		/* IMMEDIATE: a second process migrating at once waits, then sees
		 * the new version and does nothing */
		if (db_exec(s, "BEGIN IMMEDIATE", "starting a migration"))
			return -1;
		if (user_version(s, &version))
			goto fail;
		if (version >= schema_version)
			break;
		if (db_exec(s, schema_migrations[version], "migrating the schema"))
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %u", version + 1);
		if (db_exec(s, sql, "setting the schema version"))
			goto fail;
		if (db_exec(s, "COMMIT", "committing a migration"))
			goto fail;
		version++;
	}
	if (sqlite3_get_autocommit(s->db) == 0)
		return db_exec(s, "COMMIT", "committing a migration");
	return 0;
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* A database opened to be written takes a write now, before any run: a
 * file SQLite opened read-only (permissions), a -wal it cannot write, a
 * read-only mount are found here, not after a day of I/O. The write (the
 * schema version, unchanged) is committed, so the WAL takes it too. */
static int check_writable(struct store *s)
{
	unsigned version;
	char sql[64];

	if (sqlite3_db_readonly(s->db, "main") == 1)
		return err_set("%s: cannot write the results database (SQLite opened it "
			       "read-only: check its permissions and its directory's); "
			       "nothing was run", s->path);
	if (user_version(s, &version))
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %u", version);
	if (db_exec(s, "BEGIN IMMEDIATE", "cannot take a write; nothing was run") ||
	    db_exec(s, sql, "cannot take a write; nothing was run") ||
	    db_exec(s, "COMMIT", "cannot take a write; nothing was run")) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

const char *store_default_path(void)
{
	const char *env = getenv(STORE_PATH_ENV);

	return env && env[0] ? env : STORE_DEFAULT_PATH;
}

/* A new store on path: the output gate passed (the database and the
 * journals beside it), connected with flags, extended result codes on
 * and the busy timeout set. -1 with err_msg, nothing left open. */
static int open_connection(struct store **out, const char *path, int flags)
{
	struct store *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return err_set("out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (output_gate_check("--db", path, OUTPUT_DATABASE)) {
		free(s);
		return -1;
	}
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		if (s->db)
			db_error(s, "cannot open");
		else
			err_set("%s: cannot open: out of memory", path);
		store_close(s);
		return -1;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_handler(s->db, busy_wait, s);
	*out = s;
	return 0;
}

int store_open(const char *path, struct store **out)
{
	struct store *s;
	unsigned version;

	*out = NULL;
	/* the database is opened for writing: never a device, a kernel
	 * setting or another file, and SQLite's journals beside it likewise */
	if (open_connection(&s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
		return -1;
	s->opening = true;
	/* WAL + synchronous=NORMAL: a commit is durable once the WAL is synced
	 * at checkpoint; a power loss may lose the last transactions but never
	 * leaves a half-written one */
	/* refuse a newer or foreign file before changing anything in it */
	if (user_version(s, &version)) {
		store_close(s);
		return -1;
	}
	if (version > schema_version) {
		err_set("%s: schema version %u is newer than this build knows (%u); "
			"use a newer drivebench", s->path, version, schema_version);
		store_close(s);
		return -1;
	}
	if (version == 0 && check_not_foreign(s)) {
		store_close(s);
		return -1;
	}
	if (set_wal(s) ||
	    db_exec(s, "PRAGMA synchronous = NORMAL", "setting synchronous") ||
	    db_exec(s, "PRAGMA foreign_keys = ON", "enabling foreign keys") ||
	    migrate(s) || check_writable(s)) {
		if (s->cut_by_stop)
			err_fail(EXIT_RUN_FAILED, "%s: interrupted while waiting for another "
				 "process's lock on it; nothing was run", s->path);
		store_close(s);
		return -1;
	}
	s->opening = false;
	*out = s;
	return 0;
}

/* An older schema read as it is: the file is copied into memory and the
 * copy migrated, so the reader sees this build's schema and the file (and
 * any older drivebench using it) is untouched. */
static int read_older(struct store *s)
{
	sqlite3 *mem = NULL;
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return err_set("out of memory");
	}
	b = sqlite3_backup_init(mem, "main", s->db, "main");
	rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
	if (b)
		sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		db_error(s, "copying it to read");
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(s->db);
	s->db = mem;
	return migrate(s);
}

int store_open_read(const char *path, const char *command, struct store **out)
{
	struct store *s;
	unsigned version;
	struct stat st;

	*out = NULL;
	if (stat(path, &st) != 0)
		return err_set("%s: %s", path, strerror(errno));
	/* SQLite may write the -shm beside it even when reading: the gate too */
	if (open_connection(&s, path, SQLITE_OPEN_READONLY))
		return -1;
	if (user_version(s, &version)) {
		store_close(s);
		return -1;
	}
	if (version > schema_version)
		err_set("%s: schema version %u is newer than this build knows (%u); "
			"use a newer drivebench", s->path, version, schema_version);
	else if (version == 0 && check_not_foreign(s))
		version = UINT32_MAX;   /* refused: err_msg says why */
	else if (version < schema_version && read_older(s))
		err_prefix("%s: schema version %u is older than this build's (%u) and "
			   "could not be read as it is; `drivebench %s` never changes a "
			   "database: `drivebench migrate --db %s` upgrades it (an older "
			   "drivebench can then no longer open it)", s->path, version,
			   schema_version, command, s->path);
	else
		version = schema_version;
	if (version != schema_version) {
		store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->db)
		sqlite3_close(s->db);
	free(s);
}

/* --- hosts and drives ---------------------------------------------------- */

/* Finds or inserts a row; the insert is ignored when the UNIQUE key exists. */
static int upsert_id(struct store *s, const char *insert, const char *select,
		     const char *const *texts, unsigned nr_texts,
		     const int64_t *numbers, unsigned nr_numbers, int64_t *id)
{
	const char *sql[2] = { insert, select };
	sqlite3_stmt *st;
	int rc = -1;

	for (int pass = 0; pass < 2; pass++) {
		int step;

		if (db_prepare(s, sql[pass], &st))
			return -1;
		for (unsigned i = 0; i < nr_texts; i++)
			sqlite3_bind_text(st, (int)i + 1, texts[i], -1, SQLITE_STATIC);
		for (unsigned i = 0; i < nr_numbers; i++)
			sqlite3_bind_int64(st, (int)(nr_texts + i) + 1, numbers[i]);
		step = sqlite3_step(st);
		if (pass == 0 && step != SQLITE_DONE) {
			db_error(s, "recording");
			sqlite3_finalize(st);
			return -1;
		}
		if (pass == 1) {
			if (step == SQLITE_ROW) {
				*id = sqlite3_column_int64(st, 0);
				rc = 0;
			} else {
				db_error(s, "looking up");
			}
		}
		sqlite3_finalize(st);
	}
	return rc;
}

static int host_id(struct store *s, int64_t *id)
{
	struct host_facts h;

	host_facts_read(&h);
	return store_host_id(s, &h, id);
}

int store_host_id(struct store *s, const struct host_facts *hf, int64_t *id)
{
	struct host_facts h = *hf;
	const char *texts[3];
	int64_t numbers[2];

	texts[0] = h.hostname;
	texts[1] = h.kernel;
	texts[2] = h.cpu_model;
	numbers[0] = h.cores;
	numbers[1] = (int64_t)h.memory_bytes;
	if (upsert_id(s,
		"INSERT OR IGNORE INTO hosts (hostname, kernel, cpu_model, cores, memory_bytes)"
		" VALUES (?, ?, ?, ?, ?)",
		"SELECT id FROM hosts WHERE hostname = ? AND kernel = ? AND cpu_model = ?"
		" AND cores = ? AND memory_bytes = ?", texts, 3, numbers, 2, id))
		return -1;
	/* the OS and server are not part of the host's key: a row stored before
	 * schema v10 gains them now */
	sqlite3_stmt *st;
	if (db_prepare(s, "UPDATE hosts SET os = ?, server = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_text(st, 1, h.os, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, h.server, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, *id);
	return db_step_once(s, st, "recording the host");
}

static void json_string_field(const cJSON *root, const char *key, char *out, size_t size)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);

	snprintf(out, size, "%s", cJSON_IsString(item) ? item->valuestring : "");
}

static int drive_id(struct store *s, const char *label, const char *drive_json,
		    int64_t *id)
{
	char model[256] = "", serial[256] = "", firmware[256] = "";
	const char *texts[4] = { label, model, serial, firmware };

	if (drive_json) {
		cJSON *root = cJSON_Parse(drive_json);

		if (!root)
			return err_set("%s: drive snapshot is not valid JSON", s->path);
		json_string_field(root, "model", model, sizeof(model));
		json_string_field(root, "serial", serial, sizeof(serial));
		json_string_field(root, "firmware", firmware, sizeof(firmware));
		cJSON_Delete(root);
	}
	return upsert_id(s,
		"INSERT OR IGNORE INTO drives (label, model, serial, firmware, spec_ini)"
		" VALUES (?1, ?2, ?3, ?4,"
		"  (SELECT spec_ini FROM drives WHERE label = ?1 AND spec_ini IS NOT NULL"
		"   ORDER BY id LIMIT 1))",
		"SELECT id FROM drives WHERE label = ? AND model = ? AND serial = ?"
		" AND firmware = ?", texts, 4, NULL, 0, id);
}

/* --- runs ------------------------------------------------------------------ */

int store_run_begin(struct store *s, const struct run_meta *meta, int64_t *run_id)
{
	const char *label = meta->label ? meta->label : "";
	int64_t host = 0, drive = 0;
	bool have_drive = meta->drive_json || label[0];
	sqlite3_stmt *st;

	if (db_txn_begin(s, "starting a run"))
		return -1;
	if (host_id(s, &host) || (have_drive && drive_id(s, label, meta->drive_json, &drive)))
		goto fail;
	if (db_prepare(s, "INSERT INTO runs (host_id, drive_id, label, source, command,"
		    " target, started_ms, drive_json, suite)"
		    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", &st))
		goto fail;
	sqlite3_bind_int64(st, 1, host);
	if (have_drive)
		sqlite3_bind_int64(st, 2, drive);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_text(st, 3, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, meta->source ? meta->source : "run", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, meta->command ? meta->command : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, meta->target ? meta->target : "", -1, SQLITE_STATIC);
	db_bind_u64(st, 7, meta->started_ms);
	db_bind_text_or_null(st, 8, meta->drive_json);
	sqlite3_bind_text(st, 9, meta->suite ? meta->suite : "", -1, SQLITE_STATIC);
	if (db_step_once(s, st, "recording the run"))
		goto fail;
	*run_id = sqlite3_last_insert_rowid(s->db);
	if (db_txn_commit(s, "committing the run") == 0)
		return 0;
fail:
	db_txn_rollback(s);
	return -1;
}

int store_run_end(struct store *s, int64_t run_id, bool partial)
{
	sqlite3_stmt *st;

	if (db_prepare(s, "UPDATE runs SET finished_ms = ?, partial = ? WHERE id = ?", &st))
		return -1;
	db_bind_u64(st, 1, wallclock_ms());
	sqlite3_bind_int(st, 2, partial);
	sqlite3_bind_int64(st, 3, run_id);
	return db_update_one_row(s, st, "ending the run", "run", run_id);
}

int store_run_mark_partial(struct store *s, int64_t run_id, bool partial)
{
	sqlite3_stmt *st;

	if (db_prepare(s, "UPDATE runs SET partial = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int(st, 1, partial);
	sqlite3_bind_int64(st, 2, run_id);
	return db_update_one_row(s, st, "marking the run", "run", run_id);
}

int store_step_begin(struct store *s, int64_t run_id, unsigned idx,
		     const char *name, const char *kind, int64_t *step_id)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(s, "INSERT INTO steps (run_id, idx, name, kind, started_ms)"
		    " VALUES (?,?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, idx);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	db_bind_u64(st, 5, wallclock_ms());
	rc = db_step_once(s, st, "starting a step");
	if (rc == 0)
		*step_id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

int store_step_end(struct store *s, int64_t step_id, const char *status)
{
	sqlite3_stmt *st;

	if (db_prepare(s, "UPDATE steps SET status = ?, finished_ms = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	db_bind_u64(st, 2, wallclock_ms());
	sqlite3_bind_int64(st, 3, step_id);
	return db_update_one_row(s, st, "ending a step", "step", step_id);
}

/* --- suites and resume -------------------------------------------------- */

int store_run_find_last(struct store *s, const char *source, const char *target,
			int64_t *run_id)
{
	sqlite3_stmt *st;
	int rc;

	*run_id = 0;
	if (db_prepare(s, "SELECT id FROM runs WHERE source = ? AND target = ?"
		    " ORDER BY id DESC LIMIT 1", &st))
		return -1;
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, target, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(s, "finding a run");
}

int store_run_suite(struct store *s, int64_t run_id, char *path, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(s, "SELECT suite FROM runs WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		db_column_copy(st, 0, path, len);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return err_set("%s: no run %lld", s->path, (long long)run_id);
	return rc == SQLITE_ROW ? 0 : db_error(s, "reading a run's suite");
}

int store_step_detail_get(struct store *s, int64_t step_id, char **json)
{
	sqlite3_stmt *st;
	int rc;

	*json = NULL;
	if (db_prepare(s, "SELECT detail FROM steps WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = db_column_dup(st, 0, json) ? SQLITE_ERROR : SQLITE_DONE;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "reading a step's detail");
	return 0;
}

int store_run_drive_json(struct store *s, int64_t run_id, char **json)
{
	sqlite3_stmt *st;
	int rc;

	*json = NULL;
	if (db_prepare(s, "SELECT drive_json FROM runs WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = db_column_dup(st, 0, json) ? SQLITE_ERROR : SQLITE_DONE;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "reading a run's drive snapshot");
	return 0;
}

static void step_from_row(sqlite3_stmt *st, void *item)
{
	struct stored_step *step = item;

	step->id = sqlite3_column_int64(st, 0);
	step->idx = (unsigned)sqlite3_column_int64(st, 1);
	db_column_copy(st, 2, step->name, sizeof(step->name));
	db_column_copy(st, 3, step->kind, sizeof(step->kind));
	db_column_copy(st, 4, step->status, sizeof(step->status));
	step->started_ms = db_column_u64(st, 5);
	step->finished_ms = db_column_u64(st, 6);
}

int store_steps_list(struct store *s, int64_t run_id, struct stored_step **steps,
		     unsigned *nr)
{
	sqlite3_stmt *st;

	*steps = NULL;
	*nr = 0;
	if (db_prepare(s, "SELECT id, idx, name, kind, status, started_ms, finished_ms"
		    " FROM steps WHERE run_id = ? ORDER BY idx", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return db_list_rows(s, st, sizeof(**steps), step_from_row, "listing steps",
			 (void **)steps, nr);
}

int store_step_discard(struct store *s, int64_t step_id)
{
	static const char *const sql[] = {
		"DELETE FROM results WHERE step_id = ?",   /* cascades below */
		"DELETE FROM steps WHERE id = ?",
	};
	char message[1024];

	if (db_txn_begin(s, "discarding a step"))
		return -1;
	for (unsigned i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		int rc;

		if (db_prepare(s, sql[i], &st))
			goto fail;
		sqlite3_bind_int64(st, 1, step_id);
		rc = db_step_once(s, st, "discarding a step");
		if (rc)
			goto fail;
	}
	if (db_txn_commit(s, "committing a step's removal") == 0)
		return 0;
fail:
	snprintf(message, sizeof(message), "%s", err_msg());
	db_txn_rollback(s);
	return err_set("%s", message);
}

int store_point_discard(struct store *s, int64_t step_id, unsigned point)
{
	sqlite3_stmt *st;

	/* one statement: the cascade removes everything under the results */
	if (db_prepare(s, "DELETE FROM results WHERE step_id = ? AND point = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_int64(st, 2, point);
	return db_step_once(s, st, "discarding a step's point");
}

int store_step_reopen(struct store *s, int64_t step_id)
{
	sqlite3_stmt *st;

	if (db_prepare(s, "UPDATE steps SET status = 'running', finished_ms = 0 WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	return db_update_one_row(s, st, "reopening a step", "step", step_id);
}

int store_step_detail_set(struct store *s, int64_t step_id, const char *json)
{
	sqlite3_stmt *st;

	if (db_prepare(s, "UPDATE steps SET detail = ? WHERE id = ?", &st))
		return -1;
	db_bind_text_or_null(st, 1, json);
	sqlite3_bind_int64(st, 2, step_id);
	return db_update_one_row(s, st, "recording a step's detail", "step", step_id);
}

/* --- spec sheets ------------------------------------------------------------ */

int store_spec_set(struct store *s, const char *label, const char *ini_text)
{
	sqlite3_stmt *st;

	if (!label || !label[0])
		return err_set("a spec sheet needs a drive label");
	if (db_txn_begin(s, "starting a spec update"))
		return -1;
	/* a label seen for the first time gets a drive row of its own */
	if (db_prepare(s, "INSERT INTO drives (label, model, serial, firmware)"
		    " SELECT ?1, '', '', '' WHERE NOT EXISTS"
		    " (SELECT 1 FROM drives WHERE label = ?1)", &st))
		goto fail;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (db_step_once(s, st, "recording the drive"))
		goto fail;
	if (db_prepare(s, "UPDATE drives SET spec_ini = ? WHERE label = ?", &st))
		goto fail;
	db_bind_text_or_null(st, 1, ini_text);
	sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
	if (db_step_once(s, st, "recording the spec sheet"))
		goto fail;
	if (db_txn_commit(s, "committing the spec sheet") == 0)
		return 0;
fail:
	db_txn_rollback(s);
	return -1;
}

int store_spec_get(struct store *s, const char *label, char **ini_text)
{
	sqlite3_stmt *st;
	int rc;

	*ini_text = NULL;
	if (db_prepare(s, "SELECT spec_ini FROM drives WHERE label = ? AND spec_ini IS NOT NULL"
		    " ORDER BY id LIMIT 1", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && db_column_dup(st, 0, ini_text)) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(s, "reading a spec sheet");
}

int store_run_rank_add(struct store *s, int64_t run_id, const struct run_rank *r)
{
	sqlite3_stmt *st;
	int64_t host = 0;

	if (store_host_id(s, r->host, &host))
		return -1;
	/* the first record_run of a run names its ranks; later ones keep it */
	if (db_prepare(s, "INSERT OR IGNORE INTO run_ranks (run_id, rank, local_rank, host_id,"
			  " clock_offset_ns, drive_json) VALUES (?, ?, ?, ?, ?, ?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, r->rank);
	sqlite3_bind_int64(st, 3, r->local_rank);
	sqlite3_bind_int64(st, 4, host);
	sqlite3_bind_int64(st, 5, r->clock_offset_ns);
	db_bind_text_or_null(st, 6, r->drive_json);
	return db_step_once(s, st, "recording the run's ranks");
}
