/* store_db.c - the store's helpers over SQLite: error messages with the
 * exit code a full disk calls for, transactions that nest as savepoints,
 * statements run once or row by row, binding and reading columns. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/store_db.h"
#include "util/error.h"

const char *const store_dir_names[DIR_COUNT] = { "read", "write" };

/* The exit code a failed statement calls for: a full disk or an I/O error
 * is a run failure (exit 1) wherever it happens, at open too; the rest
 * (not a database, read-only, locked) is left to the caller. */
int db_fail(struct store *s, const char *what, const char *message)
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

int db_error(struct store *s, const char *what)
{
	return db_fail(s, what, sqlite3_errmsg(s->db));
}

int db_exec(struct store *s, const char *sql, const char *what)
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
int db_txn_begin(struct store *s, const char *what)
{
	if (db_exec(s, s->depth ? "SAVEPOINT inner" : "BEGIN IMMEDIATE", what))
		return -1;
	s->depth++;
	return 0;
}

/* On failure the transaction stays open: the caller rolls it back. */
int db_txn_commit(struct store *s, const char *what)
{
	if (db_exec(s, s->depth > 1 ? "RELEASE inner" : "COMMIT", what))
		return -1;
	s->depth--;
	return 0;
}

/* Undoes the innermost transaction, keeping err_msg (what failed). */
void db_txn_rollback(struct store *s)
{
	if (!s->depth)
		return;
	sqlite3_exec(s->db, s->depth > 1 ? "ROLLBACK TO inner; RELEASE inner" : "ROLLBACK",
		     NULL, NULL, NULL);
	s->depth--;
}

int store_transaction_begin(struct store *s)
{
	return db_txn_begin(s, "starting a transaction");
}

int store_transaction_commit(struct store *s)
{
	if (!s->depth)
		return err_set("%s: no transaction to commit", s->path);
	return db_txn_commit(s, "committing");
}

void store_transaction_rollback(struct store *s)
{
	db_txn_rollback(s);
}

int db_prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return db_error(s, "db_prepare");
	}
	return 0;
}

/* Runs a statement that returns no rows, then resets it for reuse. */
int db_step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_error(s, what);
	return 0;
}

/* Runs a one-shot statement and finalizes it, whatever the outcome. */
int db_step_once(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = db_step_done(s, st, what);

	sqlite3_finalize(st);
	return rc;
}

/* Runs a one-shot UPDATE of one row (a run or a step by id); a missing row
 * is an error naming it. */
int db_update_one_row(struct store *s, sqlite3_stmt *st, const char *what,
			  const char *row_kind, int64_t id)
{
	if (db_step_once(s, st, what))
		return -1;
	if (sqlite3_changes(s->db) == 0)
		return err_set("%s: no %s %lld", s->path, row_kind, (long long)id);
	return 0;
}

/* uint64 values go in as their int64 bit pattern and come back the same */
void db_bind_u64(sqlite3_stmt *st, int at, uint64_t v)
{
	sqlite3_bind_int64(st, at, (sqlite3_int64)v);
}

void db_bind_text_or_null(sqlite3_stmt *st, int at, const char *text)
{
	if (text)
		sqlite3_bind_text(st, at, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, at);
}

uint64_t db_column_u64(sqlite3_stmt *st, int at)
{
	return (uint64_t)sqlite3_column_int64(st, at);
}

void db_column_copy(sqlite3_stmt *st, int at, char *out, size_t size)
{
	const unsigned char *text = sqlite3_column_text(st, at);

	snprintf(out, size, "%s", text ? (const char *)text : "");
}

/* NULL stays NULL; -1 only when out of memory */
int db_column_dup(sqlite3_stmt *st, int at, char **out)
{
	const unsigned char *text = sqlite3_column_text(st, at);

	*out = NULL;
	if (!text)
		return 0;
	*out = strdup((const char *)text);
	return *out ? 0 : err_set("out of memory");
}

int db_dir_index(const unsigned char *name)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (name && !strcmp((const char *)name, store_dir_names[d]))
			return d;
	return -1;
}

/* Grows *array (of size elements) to hold one more; -1 when out of memory. */
int db_grow(void **array, unsigned nr, unsigned *cap, size_t size)
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
int db_each_row(struct store *s, sqlite3_stmt *st,
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

	if (db_grow(&l->items, l->nr, &l->cap, l->size))
		return -1;
	l->fill(st, (char *)l->items + l->size * l->nr++);
	return 0;
}

/* Every row of st (finalized here) as a malloc'd array of size-byte items;
 * on failure *items and *nr are left as they were. */
int db_list_rows(struct store *s, sqlite3_stmt *st, size_t size,
		     void (*fill)(sqlite3_stmt *st, void *item), const char *what,
		     void **items, unsigned *nr)
{
	struct row_list l = { .size = size, .fill = fill };
	int rc = db_each_row(s, st, list_row, &l, what);

	sqlite3_finalize(st);
	if (rc) {
		free(l.items);
		return -1;
	}
	*items = l.items;
	*nr = l.nr;
	return 0;
}
