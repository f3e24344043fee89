/* store_write.c - one result and everything under it (directions,
 * percentiles, histogram bins, series, verify failures) in one transaction. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/store_db.h"
#include "util/error.h"
#include "store/record.h"

/* --- writing a result ---------------------------------------------------- */

enum { ST_RESULT, ST_DIR, ST_PCT, ST_BIN, ST_SERIES, ST_VERIFY, ST_COUNT };

static const char *const insert_sql[ST_COUNT] = {
	"INSERT INTO results (run_id, job_name, groupid, error, partial, options_json,"
	" rw, bs, iodepth, numjobs, runtime_ns, series_interval_ms, drive_before,"
	" drive_after, drive_delta, step_id, max_buffer_bytes, verify_seed,"
	" verify_checked, verify_failed, verify_units, verify_stopped, point, pass,"
	" pass_index, rank, ranks, first_done_ns, first_done_ios, first_done_bytes,"
	" fio_head, fio_job)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
	db_bind_u64(st, at, l->min);
	db_bind_u64(st, at + 1, l->max);
	sqlite3_bind_double(st, at + 2, l->mean);
	sqlite3_bind_double(st, at + 3, l->stddev);
	db_bind_u64(st, at + 4, l->n);
}

static int insert_pcts(struct store *s, sqlite3_stmt *st, int64_t id, int d,
		       const char *kind, const struct pct_value *p, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, store_dir_names[d], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, p[i].pct);
		db_bind_u64(st, 5, p[i].value_ns);
		if (db_step_done(s, st, "writing percentiles"))
			return -1;
	}
	return 0;
}

static int insert_dir(struct store *s, sqlite3_stmt **st, int64_t id, int d,
		      const struct dir_record *r)
{
	sqlite3_stmt *q = st[ST_DIR];

	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, store_dir_names[d], -1, SQLITE_STATIC);
	db_bind_u64(q, 3, r->ios);
	db_bind_u64(q, 4, r->bytes);
	db_bind_u64(q, 5, r->errors);
	db_bind_u64(q, 6, r->runtime_ms);
	sqlite3_bind_double(q, 7, r->iops);
	sqlite3_bind_double(q, 8, r->bw_bytes);
	bind_summary(q, 9, &r->slat);
	bind_summary(q, 14, &r->clat);
	bind_summary(q, 19, &r->lat);
	sqlite3_bind_int(q, 24, r->first_error);
	db_bind_u64(q, 25, r->first_error_offset);
	if (db_step_done(s, q, "writing a direction"))
		return -1;
	if (insert_pcts(s, st[ST_PCT], id, d, "clat", r->clat_pct,
			r->nr_clat_pct < RECORD_PCT_MAX ? r->nr_clat_pct : RECORD_PCT_MAX) ||
	    insert_pcts(s, st[ST_PCT], id, d, "lat", r->lat_pct,
			r->nr_lat_pct < RECORD_PCT_MAX ? r->nr_lat_pct : RECORD_PCT_MAX))
		return -1;
	for (unsigned i = 0; i < r->nr_bins; i++) {
		q = st[ST_BIN];
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_text(q, 2, store_dir_names[d], -1, SQLITE_STATIC);
		db_bind_u64(q, 3, r->bins[i].value_ns);
		db_bind_u64(q, 4, r->bins[i].count);
		if (db_step_done(s, q, "writing histogram bins"))
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
		db_bind_u64(q, 3, f->offset);
		db_bind_u64(q, 4, f->len);
		sqlite3_bind_text(q, 5, verify_verdict_name(f->verdict), -1, SQLITE_STATIC);
		db_bind_u64(q, 6, f->expected_seq);
		db_bind_u64(q, 7, f->found_seq);
		db_bind_u64(q, 8, f->found_offset);
		db_bind_u64(q, 9, f->found_seed);
		db_bind_u64(q, 10, f->bad_offset);
		sqlite3_bind_int(q, 11, f->expected_byte);
		sqlite3_bind_int(q, 12, f->found_byte);
		db_bind_u64(q, 13, f->units);
		if (db_step_done(s, q, "writing verify failures"))
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
	db_bind_u64(q, 8, rec->bs);
	sqlite3_bind_int64(q, 9, rec->iodepth);
	sqlite3_bind_int64(q, 10, rec->numjobs);
	db_bind_u64(q, 11, rec->runtime_ns);
	db_bind_u64(q, 12, rec->series_interval_ms);
	db_bind_text_or_null(q, 13, rec->drive_before);
	db_bind_text_or_null(q, 14, rec->drive_after);
	db_bind_text_or_null(q, 15, rec->drive_delta);
	if (rec->step_id)
		sqlite3_bind_int64(q, 16, rec->step_id);
	else
		sqlite3_bind_null(q, 16);
	db_bind_u64(q, 17, rec->max_buffer_bytes);
	if (rec->verify)
		db_bind_u64(q, 18, rec->verify_seed);
	else
		sqlite3_bind_null(q, 18);
	db_bind_u64(q, 19, rec->verify_checked);
	db_bind_u64(q, 20, rec->verify_failed);
	db_bind_u64(q, 21, rec->verify_units);
	sqlite3_bind_int(q, 22, rec->verify_stopped);
	if (rec->has_point)
		sqlite3_bind_int64(q, 23, rec->point);
	else
		sqlite3_bind_null(q, 23);
	if (rec->has_pass) {
		sqlite3_bind_int64(q, 24, rec->pass);
		sqlite3_bind_int64(q, 25, rec->pass_index);
	} else {
		sqlite3_bind_null(q, 24);
		sqlite3_bind_null(q, 25);
	}
	if (rec->has_rank)
		sqlite3_bind_int64(q, 26, rec->rank);
	else
		sqlite3_bind_null(q, 26);
	sqlite3_bind_int64(q, 27, rec->nr_ranks ? rec->nr_ranks : 1);
	if (rec->nr_ranks > 1) {
		db_bind_u64(q, 28, rec->first_done_ns);
		db_bind_u64(q, 29, rec->first_done_ios);
		db_bind_u64(q, 30, rec->first_done_bytes);
	} else {
		sqlite3_bind_null(q, 28);
		sqlite3_bind_null(q, 29);
		sqlite3_bind_null(q, 30);
	}
	db_bind_text_or_null(q, 31, rec->fio_head);
	db_bind_text_or_null(q, 32, rec->fio_job);
	if (db_step_done(s, q, "writing the result"))
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
			db_bind_u64(q, 3, p->t_ms);
			sqlite3_bind_text(q, 4, store_dir_names[d], -1, SQLITE_STATIC);
			db_bind_u64(q, 5, p->ios[d]);
			db_bind_u64(q, 6, p->bytes[d]);
			sqlite3_bind_double(q, 7, p->lat_mean_ns[d]);
			if (db_step_done(s, q, "writing the series"))
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

	if (db_txn_begin(s, "starting a result"))
		return -1;
	for (int i = 0; i < ST_COUNT; i++)
		if (db_prepare(s, insert_sql[i], &st[i]))
			goto done;
	if (insert_result(s, st, run_id, rec, &id))
		goto done;
	rc = db_txn_commit(s, "committing the result");
done:
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(st[i]);
	if (rc) {
		char message[1024];

		/* ROLLBACK must not replace the message saying what failed */
		snprintf(message, sizeof(message), "%s", err_msg());
		db_txn_rollback(s);
		return err_set("%s (job '%s')", message, rec->job_name);
	}
	if (result_id)
		*result_id = id;
	return 0;
}
