/* store_read.c - the reads that rebuild runs and result_records exactly,
 * for export, report, compare and resume. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/store_db.h"
#include "util/error.h"
#include "store/record.h"

/* --- reading -------------------------------------------------------------- */

static const char run_select[] =
	"SELECT r.id, r.label, r.source, r.command, r.target, r.started_ms,"
	" r.finished_ms, r.partial,"
	" (SELECT count(*) FROM results WHERE run_id = r.id AND rank IS NULL),"
	" coalesce(d.model, ''), coalesce(d.serial, ''),"
	" coalesce(h.hostname, ''), coalesce(h.kernel, ''), coalesce(h.cpu_model, ''),"
	" coalesce(h.cores, 0), coalesce(h.memory_bytes, 0),"
	" coalesce(h.os, ''), coalesce(h.server, '')"
	" FROM runs r LEFT JOIN drives d ON d.id = r.drive_id"
	" LEFT JOIN hosts h ON h.id = r.host_id";

static void run_from_row(sqlite3_stmt *st, void *item)
{
	struct stored_run *run = item;

	memset(run, 0, sizeof(*run));
	run->id = sqlite3_column_int64(st, 0);
	db_column_copy(st, 1, run->label, sizeof(run->label));
	db_column_copy(st, 2, run->source, sizeof(run->source));
	db_column_copy(st, 3, run->command, sizeof(run->command));
	db_column_copy(st, 4, run->target, sizeof(run->target));
	run->started_ms = db_column_u64(st, 5);
	run->finished_ms = db_column_u64(st, 6);
	run->partial = sqlite3_column_int(st, 7) != 0;
	run->nr_results = (unsigned)sqlite3_column_int(st, 8);
	db_column_copy(st, 9, run->drive_model, sizeof(run->drive_model));
	db_column_copy(st, 10, run->drive_serial, sizeof(run->drive_serial));
	db_column_copy(st, 11, run->host_name, sizeof(run->host_name));
	db_column_copy(st, 12, run->host_kernel, sizeof(run->host_kernel));
	db_column_copy(st, 13, run->host_cpu, sizeof(run->host_cpu));
	run->host_cores = (unsigned)sqlite3_column_int(st, 14);
	run->host_memory_bytes = db_column_u64(st, 15);
	db_column_copy(st, 16, run->host_os, sizeof(run->host_os));
	db_column_copy(st, 17, run->host_server, sizeof(run->host_server));
}

int store_runs_list(struct store *s, struct stored_run **runs, unsigned *nr)
{
	char sql[sizeof(run_select) + 32];
	sqlite3_stmt *st;

	*runs = NULL;
	*nr = 0;
	snprintf(sql, sizeof(sql), "%s ORDER BY r.id", run_select);
	if (db_prepare(s, sql, &st))
		return -1;
	return db_list_rows(s, st, sizeof(**runs), run_from_row, "listing runs",
			 (void **)runs, nr);
}

int store_run_get(struct store *s, int64_t run_id, struct stored_run *run)
{
	char sql[sizeof(run_select) + 32];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "%s WHERE r.id = ?", run_select);
	if (db_prepare(s, sql, &st))
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
	if (db_prepare(s, "SELECT id FROM runs WHERE label = ? ORDER BY started_ms, id", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	return db_list_rows(s, st, sizeof(**ids), id_from_row, "listing runs by label",
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
	l->min = db_column_u64(st, at);
	l->max = db_column_u64(st, at + 1);
	l->mean = sqlite3_column_double(st, at + 2);
	l->stddev = sqlite3_column_double(st, at + 3);
	l->n = db_column_u64(st, at + 4);
}

static int dir_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = db_dir_index(sqlite3_column_text(st, 0));
	struct dir_record *r;

	if (d < 0)
		return 0;
	r = &rd->rec->dir[d];
	r->ios = db_column_u64(st, 1);
	r->bytes = db_column_u64(st, 2);
	r->errors = db_column_u64(st, 3);
	r->runtime_ms = db_column_u64(st, 4);
	r->iops = sqlite3_column_double(st, 5);
	r->bw_bytes = sqlite3_column_double(st, 6);
	summary_from_row(st, 7, &r->slat);
	summary_from_row(st, 12, &r->clat);
	summary_from_row(st, 17, &r->lat);
	r->first_error = sqlite3_column_int(st, 22);
	r->first_error_offset = db_column_u64(st, 23);
	return 0;
}

static int pct_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = db_dir_index(sqlite3_column_text(st, 0));
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
	list[*nr].value_ns = db_column_u64(st, 3);
	(*nr)++;
	return 0;
}

static int bin_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	int d = db_dir_index(sqlite3_column_text(st, 0));
	struct dir_record *r;

	if (d < 0)
		return 0;
	r = &rd->rec->dir[d];
	if (db_grow((void **)&r->bins, r->nr_bins, &rd->room.bins[d], sizeof(*r->bins)))
		return -1;
	r->bins[r->nr_bins].value_ns = db_column_u64(st, 1);
	r->bins[r->nr_bins].count = db_column_u64(st, 2);
	r->nr_bins++;
	return 0;
}

static int series_from_row(sqlite3_stmt *st, void *arg)
{
	struct reading *rd = arg;
	struct result_record *rec = rd->rec;
	int64_t idx = sqlite3_column_int64(st, 0);
	int d = db_dir_index(sqlite3_column_text(st, 2));
	struct series_record *p;

	if (d < 0 || idx < 0 || idx > 100000000)
		return 0;
	while (rec->nr_series <= (unsigned)idx) {
		if (db_grow((void **)&rec->series, rec->nr_series, &rd->room.series,
			 sizeof(*rec->series)))
			return -1;
		rec->nr_series++;
	}
	p = &rec->series[idx];
	p->t_ms = db_column_u64(st, 1);
	p->ios[d] = db_column_u64(st, 3);
	p->bytes[d] = db_column_u64(st, 4);
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
	if (db_grow((void **)&rec->verify_failures, rec->nr_verify_failures,
		 &rd->room.verify_failures, sizeof(*rec->verify_failures)))
		return -1;
	f = &rec->verify_failures[rec->nr_verify_failures++];
	f->offset = db_column_u64(st, 0);
	f->len = db_column_u64(st, 1);
	f->verdict = (enum verify_verdict)verdict;
	f->expected_seq = db_column_u64(st, 3);
	f->found_seq = db_column_u64(st, 4);
	f->found_offset = db_column_u64(st, 5);
	f->found_seed = db_column_u64(st, 6);
	f->bad_offset = db_column_u64(st, 7);
	f->expected_byte = (int16_t)sqlite3_column_int(st, 8);
	f->found_byte = (int16_t)sqlite3_column_int(st, 9);
	f->units = db_column_u64(st, 10);
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

	if (db_grow((void **)&rd->list, rd->nr, &rd->cap, sizeof(*rd->list)))
		return -1;
	rec = rd->rec = &rd->list[rd->nr++];
	memset(&rd->room, 0, sizeof(rd->room));
	db_column_copy(st, 1, rec->job_name, sizeof(rec->job_name));
	rec->nr_ranks = 1;   /* only the run's own results are read */
	rec->groupid = (unsigned)sqlite3_column_int64(st, 2);
	rec->error = sqlite3_column_int(st, 3);
	rec->partial = sqlite3_column_int(st, 4) != 0;
	if (db_column_dup(st, 5, &rec->options_json))
		return -1;
	db_column_copy(st, 6, rec->rw, sizeof(rec->rw));
	rec->bs = db_column_u64(st, 7);
	rec->iodepth = (unsigned)sqlite3_column_int64(st, 8);
	rec->numjobs = (unsigned)sqlite3_column_int64(st, 9);
	rec->runtime_ns = db_column_u64(st, 10);
	rec->series_interval_ms = db_column_u64(st, 11);
	if (db_column_dup(st, 12, &rec->drive_before) ||
	    db_column_dup(st, 13, &rec->drive_after) ||
	    db_column_dup(st, 14, &rec->drive_delta))
		return -1;
	rec->step_id = sqlite3_column_int64(st, 15);
	rec->max_buffer_bytes = db_column_u64(st, 16);
	rec->verify = sqlite3_column_type(st, 17) != SQLITE_NULL;
	rec->verify_seed = db_column_u64(st, 17);
	rec->verify_checked = db_column_u64(st, 18);
	rec->verify_failed = db_column_u64(st, 19);
	rec->verify_units = db_column_u64(st, 20);
	rec->verify_stopped = sqlite3_column_int(st, 21) != 0;
	rec->has_point = sqlite3_column_type(st, 22) != SQLITE_NULL;
	rec->point = (unsigned)sqlite3_column_int64(st, 22);
	rec->has_pass = sqlite3_column_type(st, 23) != SQLITE_NULL;
	rec->pass = (unsigned)sqlite3_column_int64(st, 23);
	rec->pass_index = (unsigned)sqlite3_column_int64(st, 24);
	if (sqlite3_column_text(st, 25))
		snprintf(rec->step_kind, sizeof(rec->step_kind), "%s",
			 (const char *)sqlite3_column_text(st, 25));
	if (sqlite3_column_text(st, 26))
		snprintf(rec->step_name, sizeof(rec->step_name), "%s",
			 (const char *)sqlite3_column_text(st, 26));
	for (unsigned i = 0; i < NR_RESULT_PARTS; i++) {
		sqlite3_bind_int64(rd->parts[i], 1, id);
		if (db_each_row(rd->s, rd->parts[i], result_parts[i].row, rd, result_parts[i].what))
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
	if (db_exec(s, "SAVEPOINT reading", "starting a read"))
		return -1;
	if (db_prepare(s, "SELECT id, job_name, groupid, error, partial, options_json, rw,"
		    " bs, iodepth, numjobs, runtime_ns, series_interval_ms, drive_before,"
		    " drive_after, drive_delta, coalesce(step_id, 0), max_buffer_bytes,"
		    " verify_seed, verify_checked, verify_failed, verify_units, verify_stopped,"
		    " point, pass, pass_index, (SELECT kind FROM steps WHERE id = step_id),"
		    " (SELECT name FROM steps WHERE id = step_id)"
		    " FROM results WHERE run_id = ? AND rank IS NULL ORDER BY id", &st))
		goto done;
	/* prepared once for the whole run, reset after each result */
	for (unsigned i = 0; i < NR_RESULT_PARTS; i++)
		if (db_prepare(s, result_parts[i].sql, &parts[i]))
			goto done;
	sqlite3_bind_int64(st, 1, run_id);
	rc = db_each_row(s, st, result_from_row, &rd, "reading results");
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

/* --- the stored fio JSON (v12) ------------------------------------------ */

struct fio_reading {
	struct stored_fio_json *list;
	unsigned nr, cap;
};

static int fio_json_from_row(sqlite3_stmt *st, void *arg)
{
	struct fio_reading *rd = arg;
	struct stored_fio_json *doc;

	if (db_grow((void **)&rd->list, rd->nr, &rd->cap, sizeof(*rd->list)))
		return -1;
	doc = &rd->list[rd->nr++];
	memset(doc, 0, sizeof(*doc));
	return db_column_dup(st, 0, &doc->head) || db_column_dup(st, 1, &doc->job) ? -1 : 0;
}

int store_fio_json_load(struct store *s, int64_t run_id,
			struct stored_fio_json **docs, unsigned *nr)
{
	struct fio_reading rd = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = -1;

	*docs = NULL;
	*nr = 0;
	if (db_prepare(s, "SELECT fio_head, fio_job FROM results"
		       " WHERE run_id = ? AND rank IS NULL ORDER BY id", &st) == 0) {
		sqlite3_bind_int64(st, 1, run_id);
		rc = db_each_row(s, st, fio_json_from_row, &rd, "reading the stored fio JSON");
	}
	sqlite3_finalize(st);
	if (rc) {
		store_fio_json_free(rd.list, rd.nr);
		return -1;
	}
	*docs = rd.list;
	*nr = rd.nr;
	return 0;
}

void store_fio_json_free(struct stored_fio_json *docs, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		free(docs[i].head);
		free(docs[i].job);
	}
	free(docs);
}
