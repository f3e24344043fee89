/* store_db.h - what the store's files (store.c: open, runs, steps, spec
 * sheets; store_write.c: a result and everything under it; store_read.c:
 * the reads that rebuild records) share: the handle, error mapping,
 * transactions and statement helpers over SQLite (store_db.c). Private to
 * src/store/. */
#ifndef DRIVEBENCH_STORE_DB_H
#define DRIVEBENCH_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	char path[4096];
	unsigned depth;        /* open transactions: 1 = ours, more = savepoints */
	bool opening;          /* in store_open: a stop cuts a wait for a lock */
	bool cut_by_stop;      /* ... and did */
	uint64_t busy_since_ns; /* when the current wait for a lock began */
};

extern const char *const store_dir_names[DIR_COUNT];

/* Errors: "PATH: WHAT: MESSAGE", with the exit code a full disk or an I/O
 * error calls for (err_fail). Return -1. */
int db_fail(struct store *s, const char *what, const char *message);
int db_error(struct store *s, const char *what);
int db_exec(struct store *s, const char *sql, const char *what);

/* A transaction of ours, or a savepoint inside the caller's. */
int db_txn_begin(struct store *s, const char *what);
int db_txn_commit(struct store *s, const char *what);
void db_txn_rollback(struct store *s);

int db_prepare(struct store *s, const char *sql, sqlite3_stmt **st);
/* Runs a statement that returns no rows, then resets it for reuse. */
int db_step_done(struct store *s, sqlite3_stmt *st, const char *what);
/* Runs and finalizes a one-shot statement. */
int db_step_once(struct store *s, sqlite3_stmt *st, const char *what);
/* A one-shot UPDATE that must change exactly one row_kind row, id. */
int db_update_one_row(struct store *s, sqlite3_stmt *st, const char *what,
		      const char *row_kind, int64_t id);

void db_bind_u64(sqlite3_stmt *st, int at, uint64_t v);
void db_bind_text_or_null(sqlite3_stmt *st, int at, const char *text);
uint64_t db_column_u64(sqlite3_stmt *st, int at);
void db_column_copy(sqlite3_stmt *st, int at, char *out, size_t size);
int db_column_dup(sqlite3_stmt *st, int at, char **out);
/* DIR_READ / DIR_WRITE from "read" / "write", or -1. */
int db_dir_index(const unsigned char *name);
/* Grows *array (of size-byte items) to hold nr + 1. */
int db_grow(void **array, unsigned nr, unsigned *cap, size_t size);
/* Calls row for every row of st (then resets it); stops at its -1. */
int db_each_row(struct store *s, sqlite3_stmt *st,
		int (*row)(sqlite3_stmt *st, void *arg), void *arg, const char *what);
/* Every row of st as a new array of size-byte items filled by fill. */
int db_list_rows(struct store *s, sqlite3_stmt *st, size_t size,
		 void (*fill)(sqlite3_stmt *st, void *item), const char *what,
		 void **items, unsigned *nr);

#endif
