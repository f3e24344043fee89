/* store.c - the results database on SQLite: open (WAL, foreign keys,
 * forward migration by PRAGMA user_version), hosts / drives / runs, one
 * transaction per result with everything under it, and the reads that
 * rebuild result_records exactly for export, report and compare. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/schema.h"
#include "store/store.h"
#include "target/output_gate.h"
#include "util/error.h"
#include "util/clock.h"

#define BUSY_TIMEOUT_MS 10000

struct store {
	sqlite3 *db;
	char path[4096];
	unsigned depth;        /* open transactions: 1 = ours, more = savepoints */
};

static const char *const dir_names[DIR_COUNT] = { "read", "write" };

/* The exit code a failed statement calls for: a full disk or an I/O error
 * is a run failure (exit 1) wherever it happens, at open too; the rest
 * (not a database, read-only, locked) is left to the caller. */
static int db_fail(struct store *s, const char *what, const char *message)
{
	int code = sqlite3_errcode(s->db) & 0xff, sys = sqlite3_system_errno(s->db);

	/* SQLite says "disk I/O error" when growing its -shm hits ENOSPC */
	if (code == SQLITE_FULL || (code == SQLITE_IOERR && (sys == ENOSPC || sys == EDQUOT)))
		return err_fail(EXIT_RUN_FAILED, "%s: %s: the filesystem holding the "
				"database is full (%s)", s->path, what, message);
	if (code == SQLITE_IOERR || code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return err_fail(EXIT_RUN_FAILED, "%s: %s: %s", s->path, what, message);
	return err_set("%s: %s: %s", s->path, what, message);
}

static int db_error(struct store *s, const char *what)
{
	return db_fail(s, what, sqlite3_errmsg(s->db));
}

static int exec_sql(struct store *s, const char *sql, const char *what)
{
	char *message = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &message) != SQLITE_OK) {
		db_fail(s, what, message ? message : sqlite3_errmsg(s->db));
		sqlite3_free(message);
		return -1;
	}
	return 0;
}

/* A write transaction, or a savepoint inside one already open (a
 * store_transaction_begin of the caller's), so that each write function
 * is whole on its own and also inside a larger whole. IMMEDIATE: the write
 * lock is taken (or waited for) up front, never upgraded midway. */
static int txn_begin(struct store *s, const char *what)
{
	if (exec_sql(s, s->depth ? "SAVEPOINT inner" : "BEGIN IMMEDIATE", what))
		return -1;
	s->depth++;
	return 0;
}

/* On failure the transaction stays open: the caller rolls it back. */
static int txn_commit(struct store *s, const char *what)
{
	if (exec_sql(s, s->depth > 1 ? "RELEASE inner" : "COMMIT", what))
		return -1;
	s->depth--;
	return 0;
}

/* Undoes the innermost transaction, keeping err_msg (what failed). */
static void txn_rollback(struct store *s)
{
	if (!s->depth)
		return;
	sqlite3_exec(s->db, s->depth > 1 ? "ROLLBACK TO inner; RELEASE inner" : "ROLLBACK",
		     NULL, NULL, NULL);
	s->depth--;
}

int store_transaction_begin(struct store *s)
{
	return txn_begin(s, "starting a transaction");
}

int store_transaction_commit(struct store *s)
{
	if (!s->depth)
		return err_set("%s: no transaction to commit", s->path);
	return txn_commit(s, "committing");
}

void store_transaction_rollback(struct store *s)
{
	txn_rollback(s);
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return db_error(s, "prepare");
	}
	return 0;
}

/* Runs a statement that returns no rows, then resets it for reuse. */
static int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_error(s, what);
	return 0;
}

/* Runs a one-shot statement and finalizes it, whatever the outcome. */
static int step_once(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = step_done(s, st, what);

	sqlite3_finalize(st);
	return rc;
}

/* Runs a one-shot UPDATE of one row (a run or a step by id); a missing row
 * is an error naming it. */
static int update_one_row(struct store *s, sqlite3_stmt *st, const char *what,
			  const char *row_kind, int64_t id)
{
	if (step_once(s, st, what))
		return -1;
	if (sqlite3_changes(s->db) == 0)
		return err_set("%s: no %s %lld", s->path, row_kind, (long long)id);
	return 0;
}

/* uint64 values go in as their int64 bit pattern and come back the same */
static void bind_u64(sqlite3_stmt *st, int at, uint64_t v)
{
	sqlite3_bind_int64(st, at, (sqlite3_int64)v);
}

static void bind_text_or_null(sqlite3_stmt *st, int at, const char *text)
{
	if (text)
		sqlite3_bind_text(st, at, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, at);
}

static uint64_t column_u64(sqlite3_stmt *st, int at)
{
	return (uint64_t)sqlite3_column_int64(st, at);
}

static void column_copy(sqlite3_stmt *st, int at, char *out, size_t size)
{
	const unsigned char *text = sqlite3_column_text(st, at);

	snprintf(out, size, "%s", text ? (const char *)text : "");
}

/* NULL stays NULL; -1 only when out of memory */
static int column_dup(sqlite3_stmt *st, int at, char **out)
{
	const unsigned char *text = sqlite3_column_text(st, at);

	*out = NULL;
	if (!text)
		return 0;
	*out = strdup((const char *)text);
	return *out ? 0 : err_set("out of memory");
}

static int dir_index(const unsigned char *name)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (name && !strcmp((const char *)name, dir_names[d]))
			return d;
	return -1;
}

/* Grows *array (of size elements) to hold one more; -1 when out of memory. */
static int grow(void **array, unsigned nr, unsigned *cap, size_t size)
{
	void *bigger;
	unsigned want;

	if (nr < *cap)
		return 0;
	want = *cap ? *cap * 2 : 8;
	bigger = realloc(*array, (size_t)want * size);
	if (!bigger)
		return err_set("out of memory");
	memset((char *)bigger + (size_t)*cap * size, 0, (size_t)(want - *cap) * size);
	*array = bigger;
	*cap = want;
	return 0;
}

/* Hands each row of st to row (0, or -1 with err_msg), then resets st for
 * reuse. -1: row's error, or the database's naming what. */
static int each_row(struct store *s, sqlite3_stmt *st,
		    int (*row)(sqlite3_stmt *st, void *arg), void *arg, const char *what)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (row(st, arg)) {
			sqlite3_reset(st);
			return -1;
		}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, what);
}

/* Rows read into a growing array: fill copies a row into the next item. */
struct row_list {
	void *items;
	unsigned nr, cap;
	size_t size;
	void (*fill)(sqlite3_stmt *st, void *item);
};

static int list_row(sqlite3_stmt *st, void *arg)
{
	struct row_list *l = arg;

	if (grow(&l->items, l->nr, &l->cap, l->size))
		return -1;
	l->fill(st, (char *)l->items + l->size * l->nr++);
	return 0;
}

/* Every row of st (finalized here) as a malloc'd array of size-byte items;
 * on failure *items and *nr are left as they were. */
static int list_rows(struct store *s, sqlite3_stmt *st, size_t size,
		     void (*fill)(sqlite3_stmt *st, void *item), const char *what,
		     void **items, unsigned *nr)
{
	struct row_list l = { .size = size, .fill = fill };
	int rc = each_row(s, st, list_row, &l, what);

	sqlite3_finalize(st);
	if (rc) {
		free(l.items);
		return -1;
	}
	*items = l.items;
	*nr = l.nr;
	return 0;
}

static int user_version(struct store *s, unsigned *version)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(s, "PRAGMA user_version", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*version = (unsigned)sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_error(s, "reading the schema version");
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
		if (exec_sql(s, "BEGIN IMMEDIATE", "starting a migration"))
			return -1;
		if (user_version(s, &version))
			goto fail;
		if (version >= schema_version)
			break;
		if (exec_sql(s, schema_migrations[version], "migrating the schema"))
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %u", version + 1);
		if (exec_sql(s, sql, "setting the schema version"))
			goto fail;
		if (exec_sql(s, "COMMIT", "committing a migration"))
			goto fail;
		version++;
	}
	if (sqlite3_get_autocommit(s->db) == 0)
		return exec_sql(s, "COMMIT", "committing a migration");
	return 0;
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_open(const char *path, struct store **out)
{
	struct store *s;
	unsigned version;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set("out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	/* the database is opened for writing: never a device, a kernel
	 * setting or another file, and SQLite's journals beside it likewise */
	if (output_gate_check("--db", path, OUTPUT_DATABASE)) {
		free(s);
		return -1;
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		if (s->db)
			db_error(s, "cannot open");
		else
			err_set("%s: cannot open: out of memory", path);
		store_close(s);
		return -1;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
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
	if (exec_sql(s, "PRAGMA journal_mode = WAL", "not a usable database") ||
	    exec_sql(s, "PRAGMA synchronous = NORMAL", "setting synchronous") ||
	    exec_sql(s, "PRAGMA foreign_keys = ON", "enabling foreign keys") ||
	    migrate(s)) {
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

struct host_facts {
	char hostname[256], kernel[256], cpu_model[256];
	long cores;
	uint64_t memory_bytes;
};

static void host_facts_read(struct host_facts *h)
{
	struct utsname u;
	char line[512];
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) < 0)
		h->hostname[0] = '\0';
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release,
			 u.machine);
	h->cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (h->cores < 0)
		h->cores = 0;
	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, "model name", 10) || !colon)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", colon);
			break;
		}
		fclose(f);
	}
	f = fopen("/proc/meminfo", "r");
	if (f) {
		unsigned long long kib;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
				h->memory_bytes = (uint64_t)kib * 1024u;
				break;
			}
		fclose(f);
	}
}

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

		if (prepare(s, sql[pass], &st))
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
	const char *texts[3];
	int64_t numbers[2];

	host_facts_read(&h);
	texts[0] = h.hostname;
	texts[1] = h.kernel;
	texts[2] = h.cpu_model;
	numbers[0] = h.cores;
	numbers[1] = (int64_t)h.memory_bytes;
	return upsert_id(s,
		"INSERT OR IGNORE INTO hosts (hostname, kernel, cpu_model, cores, memory_bytes)"
		" VALUES (?, ?, ?, ?, ?)",
		"SELECT id FROM hosts WHERE hostname = ? AND kernel = ? AND cpu_model = ?"
		" AND cores = ? AND memory_bytes = ?", texts, 3, numbers, 2, id);
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

	if (txn_begin(s, "starting a run"))
		return -1;
	if (host_id(s, &host) || (have_drive && drive_id(s, label, meta->drive_json, &drive)))
		goto fail;
	if (prepare(s, "INSERT INTO runs (host_id, drive_id, label, source, command,"
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
	bind_u64(st, 7, meta->started_ms);
	bind_text_or_null(st, 8, meta->drive_json);
	sqlite3_bind_text(st, 9, meta->suite ? meta->suite : "", -1, SQLITE_STATIC);
	if (step_once(s, st, "recording the run"))
		goto fail;
	*run_id = sqlite3_last_insert_rowid(s->db);
	if (txn_commit(s, "committing the run") == 0)
		return 0;
fail:
	txn_rollback(s);
	return -1;
}

int store_run_end(struct store *s, int64_t run_id, bool partial)
{
	sqlite3_stmt *st;

	if (prepare(s, "UPDATE runs SET finished_ms = ?, partial = ? WHERE id = ?", &st))
		return -1;
	bind_u64(st, 1, wallclock_ms());
	sqlite3_bind_int(st, 2, partial);
	sqlite3_bind_int64(st, 3, run_id);
	return update_one_row(s, st, "ending the run", "run", run_id);
}

int store_run_mark_partial(struct store *s, int64_t run_id, bool partial)
{
	sqlite3_stmt *st;

	if (prepare(s, "UPDATE runs SET partial = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int(st, 1, partial);
	sqlite3_bind_int64(st, 2, run_id);
	return update_one_row(s, st, "marking the run", "run", run_id);
}

int store_step_begin(struct store *s, int64_t run_id, unsigned idx,
		     const char *name, const char *kind, int64_t *step_id)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(s, "INSERT INTO steps (run_id, idx, name, kind, started_ms)"
		    " VALUES (?,?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, idx);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	bind_u64(st, 5, wallclock_ms());
	rc = step_once(s, st, "starting a step");
	if (rc == 0)
		*step_id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

int store_step_end(struct store *s, int64_t step_id, const char *status)
{
	sqlite3_stmt *st;

	if (prepare(s, "UPDATE steps SET status = ?, finished_ms = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	bind_u64(st, 2, wallclock_ms());
	sqlite3_bind_int64(st, 3, step_id);
	return update_one_row(s, st, "ending a step", "step", step_id);
}

/* --- suites and resume -------------------------------------------------- */

int store_run_find_last(struct store *s, const char *source, const char *target,
			int64_t *run_id)
{
	sqlite3_stmt *st;
	int rc;

	*run_id = 0;
	if (prepare(s, "SELECT id FROM runs WHERE source = ? AND target = ?"
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

	if (prepare(s, "SELECT suite FROM runs WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		column_copy(st, 0, path, len);
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
	if (prepare(s, "SELECT detail FROM steps WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = column_dup(st, 0, json) ? SQLITE_ERROR : SQLITE_DONE;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "reading a step's detail");
	return 0;
}

static void step_from_row(sqlite3_stmt *st, void *item)
{
	struct stored_step *step = item;

	step->id = sqlite3_column_int64(st, 0);
	step->idx = (unsigned)sqlite3_column_int64(st, 1);
	column_copy(st, 2, step->name, sizeof(step->name));
	column_copy(st, 3, step->kind, sizeof(step->kind));
	column_copy(st, 4, step->status, sizeof(step->status));
	step->started_ms = column_u64(st, 5);
	step->finished_ms = column_u64(st, 6);
}

int store_steps_list(struct store *s, int64_t run_id, struct stored_step **steps,
		     unsigned *nr)
{
	sqlite3_stmt *st;

	*steps = NULL;
	*nr = 0;
	if (prepare(s, "SELECT id, idx, name, kind, status, started_ms, finished_ms"
		    " FROM steps WHERE run_id = ? ORDER BY idx", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return list_rows(s, st, sizeof(**steps), step_from_row, "listing steps",
			 (void **)steps, nr);
}

int store_step_discard(struct store *s, int64_t step_id)
{
	static const char *const sql[] = {
		"DELETE FROM results WHERE step_id = ?",   /* cascades below */
		"DELETE FROM steps WHERE id = ?",
	};
	char message[1024];

	if (txn_begin(s, "discarding a step"))
		return -1;
	for (unsigned i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		int rc;

		if (prepare(s, sql[i], &st))
			goto fail;
		sqlite3_bind_int64(st, 1, step_id);
		rc = step_once(s, st, "discarding a step");
		if (rc)
			goto fail;
	}
	if (txn_commit(s, "committing a step's removal") == 0)
		return 0;
fail:
	snprintf(message, sizeof(message), "%s", err_msg());
	txn_rollback(s);
	return err_set("%s", message);
}

int store_point_discard(struct store *s, int64_t step_id, unsigned point)
{
	sqlite3_stmt *st;

	/* one statement: the cascade removes everything under the results */
	if (prepare(s, "DELETE FROM results WHERE step_id = ? AND point = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_int64(st, 2, point);
	return step_once(s, st, "discarding a step's point");
}

int store_step_reopen(struct store *s, int64_t step_id)
{
	sqlite3_stmt *st;

	if (prepare(s, "UPDATE steps SET status = 'running', finished_ms = 0 WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step_id);
	return update_one_row(s, st, "reopening a step", "step", step_id);
}

int store_step_detail_set(struct store *s, int64_t step_id, const char *json)
{
	sqlite3_stmt *st;

	if (prepare(s, "UPDATE steps SET detail = ? WHERE id = ?", &st))
		return -1;
	bind_text_or_null(st, 1, json);
	sqlite3_bind_int64(st, 2, step_id);
	return update_one_row(s, st, "recording a step's detail", "step", step_id);
}

/* --- writing a result ---------------------------------------------------- */

enum { ST_RESULT, ST_DIR, ST_PCT, ST_BIN, ST_SERIES, ST_VERIFY, ST_COUNT };

static const char *const insert_sql[ST_COUNT] = {
	"INSERT INTO results (run_id, job_name, groupid, error, partial, options_json,"
	" rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms, drive_before,"
	" drive_after, drive_delta, step_id, max_buffer_bytes, verify_seed,"
	" verify_checked, verify_failed, verify_units, verify_stopped, point)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO result_dirs (result_id, dir, ios, bytes, errors, runtime_ms, iops,"
	" bw_bytes, slat_min, slat_max, slat_mean, slat_stddev, slat_n, clat_min,"
	" clat_max, clat_mean, clat_stddev, clat_n, lat_min, lat_max, lat_mean,"
	" lat_stddev, lat_n, first_error, first_error_offset)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO percentiles (result_id, dir, kind, pct, value_ns) VALUES (?,?,?,?,?)",
	"INSERT INTO bins (result_id, dir, value_ns, count) VALUES (?,?,?,?)",
	("INSERT INTO series (result_id, idx, t_ms, dir, ios, bytes, lat_mean_ns)"
	 " VALUES (?,?,?,?,?,?,?)"),
	("INSERT INTO verify_failures (result_id, idx, offset, len, verdict,"
	 " expected_seq, found_seq, found_offset, found_seed, bad_offset,"
	 " expected_byte, found_byte, units) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"),
};

static void bind_summary(sqlite3_stmt *st, int at, const struct lat_summary *l)
{
	bind_u64(st, at, l->min);
	bind_u64(st, at + 1, l->max);
	sqlite3_bind_double(st, at + 2, l->mean);
	sqlite3_bind_double(st, at + 3, l->stddev);
	bind_u64(st, at + 4, l->n);
}

static int insert_pcts(struct store *s, sqlite3_stmt *st, int64_t id, int d,
		       const char *kind, const struct pct_value *p, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, dir_names[d], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, p[i].pct);
		bind_u64(st, 5, p[i].value_ns);
		if (step_done(s, st, "writing percentiles"))
			return -1;
	}
	return 0;
}

static int insert_dir(struct store *s, sqlite3_stmt **st, int64_t id, int d,
		      const struct dir_record *r)
{
	sqlite3_stmt *q = st[ST_DIR];

	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, dir_names[d], -1, SQLITE_STATIC);
	bind_u64(q, 3, r->ios);
	bind_u64(q, 4, r->bytes);
	bind_u64(q, 5, r->errors);
	bind_u64(q, 6, r->runtime_ms);
	sqlite3_bind_double(q, 7, r->iops);
	sqlite3_bind_double(q, 8, r->bw_bytes);
	bind_summary(q, 9, &r->slat);
	bind_summary(q, 14, &r->clat);
	bind_summary(q, 19, &r->lat);
	sqlite3_bind_int(q, 24, r->first_error);
	bind_u64(q, 25, r->first_error_offset);
	if (step_done(s, q, "writing a direction"))
		return -1;
	if (insert_pcts(s, st[ST_PCT], id, d, "clat", r->clat_pct,
			r->nr_clat_pct < RECORD_PCT_MAX ? r->nr_clat_pct : RECORD_PCT_MAX) ||
	    insert_pcts(s, st[ST_PCT], id, d, "lat", r->lat_pct,
			r->nr_lat_pct < RECORD_PCT_MAX ? r->nr_lat_pct : RECORD_PCT_MAX))
		return -1;
	for (unsigned i = 0; i < r->nr_bins; i++) {
		q = st[ST_BIN];
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_text(q, 2, dir_names[d], -1, SQLITE_STATIC);
		bind_u64(q, 3, r->bins[i].value_ns);
		bind_u64(q, 4, r->bins[i].count);
		if (step_done(s, q, "writing histogram bins"))
			return -1;
	}
	return 0;
}

static int insert_verify_failures(struct store *s, sqlite3_stmt *q, int64_t id,
				  const struct result_record *rec)
{
	for (unsigned i = 0; i < rec->nr_verify_failures; i++) {
		const struct verify_failure *f = &rec->verify_failures[i];

		if (f->verdict == VERIFY_OK || (unsigned)f->verdict >= VERIFY_VERDICTS)
			return err_set("%s: verify failure %u has no verdict", s->path, i);
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int64(q, 2, i);
		bind_u64(q, 3, f->offset);
		bind_u64(q, 4, f->len);
		sqlite3_bind_text(q, 5, verify_verdict_name(f->verdict), -1, SQLITE_STATIC);
		bind_u64(q, 6, f->expected_seq);
		bind_u64(q, 7, f->found_seq);
		bind_u64(q, 8, f->found_offset);
		bind_u64(q, 9, f->found_seed);
		bind_u64(q, 10, f->bad_offset);
		sqlite3_bind_int(q, 11, f->expected_byte);
		sqlite3_bind_int(q, 12, f->found_byte);
		bind_u64(q, 13, f->units);
		if (step_done(s, q, "writing verify failures"))
			return -1;
	}
	return 0;
}

static int insert_result(struct store *s, sqlite3_stmt **st, int64_t run_id,
			 const struct result_record *rec, int64_t *id)
{
	sqlite3_stmt *q = st[ST_RESULT];

	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_text(q, 2, rec->job_name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, rec->groupid);
	sqlite3_bind_int(q, 4, rec->error);
	sqlite3_bind_int(q, 5, rec->partial);
	sqlite3_bind_text(q, 6, rec->options_json ? rec->options_json : "{}", -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(q, 7, rec->rw, -1, SQLITE_STATIC);
	bind_u64(q, 8, rec->bs);
	sqlite3_bind_int64(q, 9, rec->iodepth);
	sqlite3_bind_int64(q, 10, rec->numjobs);
	bind_u64(q, 11, rec->runtime_ns);
	bind_u64(q, 12, rec->series_interval_ms);
	bind_text_or_null(q, 13, rec->drive_before);
	bind_text_or_null(q, 14, rec->drive_after);
	bind_text_or_null(q, 15, rec->drive_delta);
	if (rec->step_id)
		sqlite3_bind_int64(q, 16, rec->step_id);
	else
		sqlite3_bind_null(q, 16);
	bind_u64(q, 17, rec->max_buffer_bytes);
	if (rec->verify)
		bind_u64(q, 18, rec->verify_seed);
	else
		sqlite3_bind_null(q, 18);
	bind_u64(q, 19, rec->verify_checked);
	bind_u64(q, 20, rec->verify_failed);
	bind_u64(q, 21, rec->verify_units);
	sqlite3_bind_int(q, 22, rec->verify_stopped);
	if (rec->has_point)
		sqlite3_bind_int64(q, 23, rec->point);
	else
		sqlite3_bind_null(q, 23);
	if (step_done(s, q, "writing the result"))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	for (int d = 0; d < DIR_COUNT; d++)
		if (insert_dir(s, st, *id, d, &rec->dir[d]))
			return -1;
	q = st[ST_SERIES];
	for (unsigned i = 0; i < rec->nr_series; i++) {
		const struct series_record *p = &rec->series[i];

		for (int d = 0; d < DIR_COUNT; d++) {
			sqlite3_bind_int64(q, 1, *id);
			sqlite3_bind_int64(q, 2, i);
			bind_u64(q, 3, p->t_ms);
			sqlite3_bind_text(q, 4, dir_names[d], -1, SQLITE_STATIC);
			bind_u64(q, 5, p->ios[d]);
			bind_u64(q, 6, p->bytes[d]);
			sqlite3_bind_double(q, 7, p->lat_mean_ns[d]);
			if (step_done(s, q, "writing the series"))
				return -1;
		}
	}
	return insert_verify_failures(s, st[ST_VERIFY], *id, rec);
}

int store_result_add(struct store *s, int64_t run_id,
		     const struct result_record *rec, int64_t *result_id)
{
	sqlite3_stmt *st[ST_COUNT] = { NULL };
	int64_t id = 0;
	int rc = -1;

	if (txn_begin(s, "starting a result"))
		return -1;
	for (int i = 0; i < ST_COUNT; i++)
		if (prepare(s, insert_sql[i], &st[i]))
			goto done;
	if (insert_result(s, st, run_id, rec, &id))
		goto done;
	rc = txn_commit(s, "committing the result");
done:
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(st[i]);
	if (rc) {
		char message[1024];

		/* ROLLBACK must not replace the message saying what failed */
		snprintf(message, sizeof(message), "%s", err_msg());
		txn_rollback(s);
		return err_set("%s (job '%s')", message, rec->job_name);
	}
	if (result_id)
		*result_id = id;
	return 0;
}

/* --- reading -------------------------------------------------------------- */

static const char run_select[] =
	"SELECT r.id, r.label, r.source, r.command, r.target, r.started_ms,"
	" r.finished_ms, r.partial,"
	" (SELECT count(*) FROM results WHERE run_id = r.id),"
	" coalesce(d.model, ''), coalesce(d.serial, '')"
	" FROM runs r LEFT JOIN drives d ON d.id = r.drive_id";

static void run_from_row(sqlite3_stmt *st, void *item)
{
	struct stored_run *run = item;

	memset(run, 0, sizeof(*run));
	run->id = sqlite3_column_int64(st, 0);
	column_copy(st, 1, run->label, sizeof(run->label));
	column_copy(st, 2, run->source, sizeof(run->source));
	column_copy(st, 3, run->command, sizeof(run->command));
	column_copy(st, 4, run->target, sizeof(run->target));
	run->started_ms = column_u64(st, 5);
	run->finished_ms = column_u64(st, 6);
	run->partial = sqlite3_column_int(st, 7) != 0;
	run->nr_results = (unsigned)sqlite3_column_int(st, 8);
	column_copy(st, 9, run->drive_model, sizeof(run->drive_model));
	column_copy(st, 10, run->drive_serial, sizeof(run->drive_serial));
}

int store_runs_list(struct store *s, struct stored_run **runs, unsigned *nr)
{
	char sql[sizeof(run_select) + 32];
	sqlite3_stmt *st;

	*runs = NULL;
	*nr = 0;
	snprintf(sql, sizeof(sql), "%s ORDER BY r.id", run_select);
	if (prepare(s, sql, &st))
		return -1;
	return list_rows(s, st, sizeof(**runs), run_from_row, "listing runs",
			 (void **)runs, nr);
}

int store_run_get(struct store *s, int64_t run_id, struct stored_run *run)
{
	char sql[sizeof(run_select) + 32];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "%s WHERE r.id = ?", run_select);
	if (prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		run_from_row(st, run);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return err_set("%s: no run %lld", s->path, (long long)run_id);
	return rc == SQLITE_ROW ? 0 : db_error(s, "reading a run");
}

static void id_from_row(sqlite3_stmt *st, void *item)
{
	*(int64_t *)item = sqlite3_column_int64(st, 0);
}

int store_runs_by_label(struct store *s, const char *label, int64_t **ids, unsigned *nr)
{
	sqlite3_stmt *st;

	*ids = NULL;
	*nr = 0;
	if (prepare(s, "SELECT id FROM runs WHERE label = ? ORDER BY started_ms, id", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	return list_rows(s, st, sizeof(**ids), id_from_row, "listing runs by label",
			 (void **)ids, nr);
}

/* store_results_load's state: the statements reading a result's parts, the
 * records read so far, and the room the current record's lists have. */
struct reading {
	struct store *s;
	sqlite3_stmt **parts;
	struct result_record *list, *rec;
	unsigned nr, cap;
	struct {
		unsigned bins[DIR_COUNT], series, verify_failures;
	} room;
};

static void summary_from_row(sqlite3_stmt *st, int at, struct lat_summary *l)
{
	l->min = column_u64(st, at);
	l->max = column_u64(st, at + 1);
	l->mean = sqlite3_column_double(st, at + 2);
	l->stddev = sqlite3_column_double(st, at + 3);
	l->n = column_u64(st, at + 4);
}

static int dir_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = dir_index(sqlite3_column_text(st, 0));
	struct dir_record *r;

	if (d < 0)
		return 0;
	r = &rd->rec->dir[d];
	r->ios = column_u64(st, 1);
	r->bytes = column_u64(st, 2);
	r->errors = column_u64(st, 3);
	r->runtime_ms = column_u64(st, 4);
	r->iops = sqlite3_column_double(st, 5);
	r->bw_bytes = sqlite3_column_double(st, 6);
	summary_from_row(st, 7, &r->slat);
	summary_from_row(st, 12, &r->clat);
	summary_from_row(st, 17, &r->lat);
	r->first_error = sqlite3_column_int(st, 22);
	r->first_error_offset = column_u64(st, 23);
	return 0;
}

static int pct_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = dir_index(sqlite3_column_text(st, 0));
	const unsigned char *kind = sqlite3_column_text(st, 1);
	struct pct_value *list;
	unsigned *nr;

	if (d < 0 || !kind)
		return 0;
	if (!strcmp((const char *)kind, "clat")) {
		list = rd->rec->dir[d].clat_pct;
		nr = &rd->rec->dir[d].nr_clat_pct;
	} else {
		list = rd->rec->dir[d].lat_pct;
		nr = &rd->rec->dir[d].nr_lat_pct;
	}
	if (*nr >= RECORD_PCT_MAX)
		return 0;
	list[*nr].pct = sqlite3_column_double(st, 2);
	list[*nr].value_ns = column_u64(st, 3);
	(*nr)++;
	return 0;
}

static int bin_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = dir_index(sqlite3_column_text(st, 0));
	struct dir_record *r;

	if (d < 0)
		return 0;
	r = &rd->rec->dir[d];
	if (grow((void **)&r->bins, r->nr_bins, &rd->room.bins[d], sizeof(*r->bins)))
		return -1;
	r->bins[r->nr_bins].value_ns = column_u64(st, 1);
	r->bins[r->nr_bins].count = column_u64(st, 2);
	r->nr_bins++;
	return 0;
}

static int series_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	struct result_record *rec = rd->rec;
	int64_t idx = sqlite3_column_int64(st, 0);
	int d = dir_index(sqlite3_column_text(st, 2));
	struct series_record *p;

	if (d < 0 || idx < 0 || idx > 100000000)
		return 0;
	while (rec->nr_series <= (unsigned)idx) {
		if (grow((void **)&rec->series, rec->nr_series, &rd->room.series,
			 sizeof(*rec->series)))
			return -1;
		rec->nr_series++;
	}
	p = &rec->series[idx];
	p->t_ms = column_u64(st, 1);
	p->ios[d] = column_u64(st, 3);
	p->bytes[d] = column_u64(st, 4);
	p->lat_mean_ns[d] = sqlite3_column_double(st, 5);
	return 0;
}

static int verify_failure_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	struct result_record *rec = rd->rec;
	int verdict = verify_verdict_parse((const char *)sqlite3_column_text(st, 2));
	struct verify_failure *f;

	if (verdict <= VERIFY_OK)
		return 0;
	if (grow((void **)&rec->verify_failures, rec->nr_verify_failures,
		 &rd->room.verify_failures, sizeof(*rec->verify_failures)))
		return -1;
	f = &rec->verify_failures[rec->nr_verify_failures++];
	f->offset = column_u64(st, 0);
	f->len = column_u64(st, 1);
	f->verdict = (enum verify_verdict)verdict;
	f->expected_seq = column_u64(st, 3);
	f->found_seq = column_u64(st, 4);
	f->found_offset = column_u64(st, 5);
	f->found_seed = column_u64(st, 6);
	f->bad_offset = column_u64(st, 7);
	f->expected_byte = (int16_t)sqlite3_column_int(st, 8);
	f->found_byte = (int16_t)sqlite3_column_int(st, 9);
	f->units = column_u64(st, 10);
	return 0;
}

/* What a result holds besides its row, read in this order by its id. */
static const struct {
	const char *sql;
	int (*row)(sqlite3_stmt *st, void *reading);
	const char *what;
} result_parts[] = {
	{ "SELECT dir, ios, bytes, errors, runtime_ms, iops, bw_bytes,"
	  " slat_min, slat_max, slat_mean, slat_stddev, slat_n,"
	  " clat_min, clat_max, clat_mean, clat_stddev, clat_n,"
	  " lat_min, lat_max, lat_mean, lat_stddev, lat_n,"
	  " first_error, first_error_offset"
	  " FROM result_dirs WHERE result_id = ?", dir_from_row, "reading directions" },
	{ "SELECT dir, kind, pct, value_ns FROM percentiles"
	  " WHERE result_id = ? ORDER BY dir, kind, pct", pct_from_row, "reading percentiles" },
	{ "SELECT dir, value_ns, count FROM bins WHERE result_id = ?"
	  " ORDER BY dir, value_ns", bin_from_row, "reading histogram bins" },
	{ "SELECT idx, t_ms, dir, ios, bytes, lat_mean_ns FROM series"
	  " WHERE result_id = ? ORDER BY idx, dir", series_from_row, "reading the series" },
	{ "SELECT offset, len, verdict, expected_seq, found_seq, found_offset,"
	  " found_seed, bad_offset, expected_byte, found_byte, units FROM verify_failures"
	  " WHERE result_id = ? ORDER BY idx", verify_failure_from_row,
	  "reading verify failures" },
};

#define NR_RESULT_PARTS (sizeof(result_parts) / sizeof(result_parts[0]))

static int result_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int64_t id = sqlite3_column_int64(st, 0);
	struct result_record *rec;

	if (grow((void **)&rd->list, rd->nr, &rd->cap, sizeof(*rd->list)))
		return -1;
	rec = rd->rec = &rd->list[rd->nr++];
	memset(&rd->room, 0, sizeof(rd->room));
	column_copy(st, 1, rec->job_name, sizeof(rec->job_name));
	rec->groupid = (unsigned)sqlite3_column_int64(st, 2);
	rec->error = sqlite3_column_int(st, 3);
	rec->partial = sqlite3_column_int(st, 4) != 0;
	if (column_dup(st, 5, &rec->options_json))
		return -1;
	column_copy(st, 6, rec->rw, sizeof(rec->rw));
	rec->bs = column_u64(st, 7);
	rec->iodepth = (unsigned)sqlite3_column_int64(st, 8);
	rec->numjobs = (unsigned)sqlite3_column_int64(st, 9);
	rec->runtime_ns = column_u64(st, 10);
	rec->series_interval_ms = column_u64(st, 11);
	if (column_dup(st, 12, &rec->drive_before) ||
	    column_dup(st, 13, &rec->drive_after) ||
	    column_dup(st, 14, &rec->drive_delta))
		return -1;
	rec->step_id = sqlite3_column_int64(st, 15);
	rec->max_buffer_bytes = column_u64(st, 16);
	rec->verify = sqlite3_column_type(st, 17) != SQLITE_NULL;
	rec->verify_seed = column_u64(st, 17);
	rec->verify_checked = column_u64(st, 18);
	rec->verify_failed = column_u64(st, 19);
	rec->verify_units = column_u64(st, 20);
	rec->verify_stopped = sqlite3_column_int(st, 21) != 0;
	rec->has_point = sqlite3_column_type(st, 22) != SQLITE_NULL;
	rec->point = (unsigned)sqlite3_column_int64(st, 22);
	for (unsigned i = 0; i < NR_RESULT_PARTS; i++) {
		sqlite3_bind_int64(rd->parts[i], 1, id);
		if (each_row(rd->s, rd->parts[i], result_parts[i].row, rd, result_parts[i].what))
			return -1;
	}
	return 0;
}

int store_results_load(struct store *s, int64_t run_id,
		       struct result_record **recs, unsigned *nr)
{
	sqlite3_stmt *st = NULL, *parts[NR_RESULT_PARTS] = { NULL };
	struct reading rd = { .s = s, .parts = parts };
	int rc = -1;

	*recs = NULL;
	*nr = 0;
	/* one read transaction, so a writer cannot slip in between the tables
	 * (a savepoint: inside a caller's write transaction too) */
	if (exec_sql(s, "SAVEPOINT reading", "starting a read"))
		return -1;
	if (prepare(s, "SELECT id, job_name, groupid, error, partial, options_json, rw,"
		    " bs, iodepth, numjobs, runtime_ns, series_interval_ms, drive_before,"
		    " drive_after, drive_delta, coalesce(step_id, 0), max_buffer_bytes,"
		    " verify_seed, verify_checked, verify_failed, verify_units, verify_stopped,"
		    " point FROM results"
		    " WHERE run_id = ? ORDER BY id", &st))
		goto done;
	/* prepared once for the whole run, reset after each result */
	for (unsigned i = 0; i < NR_RESULT_PARTS; i++)
		if (prepare(s, result_parts[i].sql, &parts[i]))
			goto done;
	sqlite3_bind_int64(st, 1, run_id);
	rc = each_row(s, st, result_from_row, &rd, "reading results");
done:
	sqlite3_finalize(st);
	for (unsigned i = 0; i < NR_RESULT_PARTS; i++)
		sqlite3_finalize(parts[i]);
	sqlite3_exec(s->db, "RELEASE reading", NULL, NULL, NULL);   /* nothing to undo */
	if (rc) {
		store_results_free(rd.list, rd.nr);
		return -1;
	}
	*recs = rd.list;
	*nr = rd.nr;
	return 0;
}

void store_results_free(struct result_record *recs, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		record_free(&recs[i]);
	free(recs);
}

/* --- spec sheets ------------------------------------------------------------ */

int store_spec_set(struct store *s, const char *label, const char *ini_text)
{
	sqlite3_stmt *st;

	if (!label || !label[0])
		return err_set("a spec sheet needs a drive label");
	if (txn_begin(s, "starting a spec update"))
		return -1;
	/* a label seen for the first time gets a drive row of its own */
	if (prepare(s, "INSERT INTO drives (label, model, serial, firmware)"
		    " SELECT ?1, '', '', '' WHERE NOT EXISTS"
		    " (SELECT 1 FROM drives WHERE label = ?1)", &st))
		goto fail;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (step_once(s, st, "recording the drive"))
		goto fail;
	if (prepare(s, "UPDATE drives SET spec_ini = ? WHERE label = ?", &st))
		goto fail;
	bind_text_or_null(st, 1, ini_text);
	sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
	if (step_once(s, st, "recording the spec sheet"))
		goto fail;
	if (txn_commit(s, "committing the spec sheet") == 0)
		return 0;
fail:
	txn_rollback(s);
	return -1;
}

int store_spec_get(struct store *s, const char *label, char **ini_text)
{
	sqlite3_stmt *st;
	int rc;

	*ini_text = NULL;
	if (prepare(s, "SELECT spec_ini FROM drives WHERE label = ? AND spec_ini IS NOT NULL"
		    " ORDER BY id LIMIT 1", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && column_dup(st, 0, ini_text)) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(s, "reading a spec sheet");
}
