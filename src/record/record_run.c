/* record_run.c - the one run-and-record path (see the header). */
#include "record/record_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/rank_merge.h"
#include "util/error.h"

/* The entries of a group of files written as one (a checkpoint): one
 * result, partial when the run was. */
static int merge_list(struct job_result *entries, unsigned *nr, const char *name, bool partial)
{
	for (unsigned i = 1; i < *nr; i++) {
		if (job_result_merge(&entries[0], &entries[i])) {
			for (unsigned k = i; k < *nr; k++)
				job_result_free(&entries[k]);
			*nr = 1;   /* those before i are freed already */
			return -1;
		}
		job_result_free(&entries[i]);
	}
	if (*nr > 1)
		*nr = 1;
	snprintf(entries[0].name, sizeof(entries[0].name), "%s", name);
	if (partial)
		entries[0].partial = true;
	return 0;
}

static int merge_entries(struct recorded *r, const char *name)
{
	uint64_t span = 0, bytes;

	/* MPI: the files of several ranks, from the earliest start to the
	 * latest stop (their starts differ by more than one process's) */
	if (r->ranks.nr > 1)
		rank_span(r->entries, r->nr, &span, &bytes);
	if (merge_list(r->entries, &r->nr, name, r->out.partial))
		return -1;
	if (span > r->entries[0].runtime_ns)
		r->entries[0].runtime_ns = span;
	return 0;
}

/* The run_info of the fio JSON stored with the results: the caller's, or
 * the first start of the entries; with the bins the store keeps. */
static struct run_info stored_info(const struct record_place *p, const struct recorded *r)
{
	struct run_info info = { 0 };

	if (p->info) {
		info = *p->info;
	} else {
		uint64_t first = 0;

		for (unsigned i = 0; i < r->nr; i++)
			if (r->entries[i].start_unix_ms &&
			    (!first || r->entries[i].start_unix_ms < first))
				first = r->entries[i].start_unix_ms;
		info.timestamp_s = first / 1000;
		info.timestamp_ms = first;
	}
	info.partial = r->out.partial;
	info.json_plus = true;
	return info;
}

static int make_records(const struct record_place *p, struct recorded *r)
{
	struct run_info info = stored_info(p, r);
	struct recorded_clients cl;

	r->recs = calloc(r->nr + 1, sizeof(*r->recs));
	/* MPI: the stored top level has fio's client_stats, as run prints it */
	if (!r->recs || recorded_clients_make(&r->ranks, &cl))
		return r->recs ? -1 : err_set("out of memory");
	info.clients = cl.c;
	info.nr_clients = cl.nr;
	for (unsigned i = 0; i < r->nr; i++) {
		struct result_record *rec = &r->recs[i];

		if (record_from_result(&r->entries[i], rec) ||
		    output_json_stored(r->entries, r->nr, i, &info, &rec->fio_head,
				       &rec->fio_job)) {
			recorded_clients_free(&cl);
			return -1;
		}
		rec->has_point = p->has_point;
		rec->point = p->point;
		rec->has_pass = p->has_pass;
		rec->pass = p->pass;
		rec->pass_index = p->pass_index;
	}
	recorded_clients_free(&cl);
	return 0;
}

static int begin_run(const struct record_place *p, const struct recorded *r)
{
	struct run_meta meta;

	if (*p->run_id)
		return 0;
	if (!p->meta)
		return err_set("internal error: no run to store the results in");
	meta = *p->meta;
	if (!meta.drive_json && r->nr)
		meta.drive_json = r->entries[0].drive_before;
	return store_run_begin(p->db, &meta, p->run_id);
}

/* Stores recs[first, end) under step_id. */
static int store_records(const struct record_place *p, struct recorded *r,
			 unsigned first, unsigned end, int64_t step_id)
{
	for (unsigned i = first; i < end; i++) {
		r->recs[i].step_id = step_id;
		if (store_result_add(p->db, *p->run_id, &r->recs[i], NULL))
			return -1;
	}
	return 0;
}

static int store_steps(const struct record_place *p, struct recorded *r)
{
	const char *status = r->out.partial ? "partial" : "done";
	unsigned step = 0;

	if (p->step_id > 0)
		return store_records(p, r, 0, r->nr, p->step_id);
	if (!p->step_per_group) {
		int64_t step_id;

		if (r->nr == 0)
			return 0;
		return store_step_begin(p->db, *p->run_id, p->step_idx, p->step_name,
					p->step_kind, &step_id) ||
		       store_records(p, r, 0, r->nr, step_id) ||
		       store_step_end(p->db, step_id, r->entries[0].partial ? "partial" : status)
			? -1 : 0;
	}
	/* each reporting group is a step of the run */
	for (unsigned i = 0; i < r->nr; step++) {
		unsigned group = r->entries[i].groupid, end = i;
		char name[JOB_NAME_MAX + 32];
		int64_t step_id;

		while (end < r->nr && r->entries[end].groupid == group)
			end++;
		snprintf(name, sizeof(name), "group %u: %s", group, r->entries[i].name);
		if (store_step_begin(p->db, *p->run_id, step, name, "jobs", &step_id) ||
		    store_records(p, r, i, end, step_id) ||
		    store_step_end(p->db, step_id, status))
			return -1;
		i = end;
	}
	return 0;
}

/* MPI: each rank's part of the results, under the step of the result it
 * is part of, and the run's ranks (their hosts, clock offsets, drives). */
static int store_rank_parts(const struct record_place *p, struct recorded *r)
{
	for (unsigned k = 0; k < r->ranks.nr; k++) {
		struct job_result *entries = NULL;
		unsigned nr = 0;
		struct run_rank rank = { 0 };
		int rc = run_output_for_report(&r->ranks.per_rank[k], &entries, &nr);

		if (rc == 0 && p->merged_name && nr)
			rc = merge_list(entries, &nr, p->merged_name, false);
		for (unsigned i = 0; rc == 0 && i < nr; i++) {
			struct result_record rec;

			rc = record_from_result(&entries[i], &rec);
			if (rc)
				break;
			rec.has_rank = true;
			rec.rank = k;
			rec.has_point = p->has_point;
			rec.point = p->point;
			rec.has_pass = p->has_pass;
			rec.pass = p->pass;
			rec.pass_index = p->pass_index;
			rec.step_id = r->nr ? r->recs[0].step_id : p->step_id;
			for (unsigned a = 0; a < r->nr; a++)
				if (r->recs[a].groupid == rec.groupid) {
					rec.step_id = r->recs[a].step_id;
					break;
				}
			rc = store_result_add(p->db, *p->run_id, &rec, NULL);
			record_free(&rec);
		}
		rank.rank = (int)k;
		rank.local_rank = r->ranks.local_ranks[k];
		rank.host = &r->ranks.hosts[k];
		rank.clock_offset_ns = r->ranks.clock_offset_ns[k];
		rank.drive_json = nr ? entries[0].drive_before : NULL;
		if (rc == 0)
			rc = store_run_rank_add(p->db, *p->run_id, &rank);
		for (unsigned i = 0; i < nr; i++)
			job_result_free(&entries[i]);
		free(entries);
		if (rc)
			return -1;
	}
	return 0;
}

/* Everything of this call in one transaction: after a kill or a failure
 * the store holds all of it or none. */
static int store_all(const struct record_place *p, struct recorded *r)
{
	int64_t run_before = *p->run_id;
	int rc;

	if (store_transaction_begin(p->db))
		return -1;
	rc = begin_run(p, r);
	if (rc == 0)
		rc = store_steps(p, r);
	if (rc == 0 && r->ranks.nr)
		rc = store_rank_parts(p, r);
	if (rc == 0 && p->end_run)
		rc = store_run_end(p->db, *p->run_id, r->out.partial);
	if (rc == 0)
		rc = store_transaction_commit(p->db);
	if (rc) {
		store_transaction_rollback(p->db);
		*p->run_id = run_before;
		return -1;
	}
	r->stored = true;
	return 0;
}

int record_run(const struct job_list *jobs, const struct run_options *opt,
	       const struct record_place *place, struct recorded *r)
{
	memset(r, 0, sizeof(*r));
	r->why = RUN_FAILED_INPUT;
	if (rank_run_jobs(jobs, opt, place->job_shards, &r->out, &r->ranks, &r->why))
		return -1;
	r->ran = true;
	if (!place->store_partial && (r->out.partial || r->out.nr == 0 ||
				      (opt->stop && *opt->stop))) {
		r->interrupted = true;
		return 0;
	}
	if (run_output_for_report(&r->out, &r->entries, &r->nr))
		return -1;
	if (place->merged_name && r->nr && merge_entries(r, place->merged_name))
		return -1;
	if (place->before_store && place->before_store(place->arg, r))
		return -1;
	if (!place->db || (r->nr == 0 && !place->end_run))
		return 0;
	if (make_records(place, r) || store_all(place, r))
		return err_prefix("nothing stored");
	return 0;
}

void recorded_free(struct recorded *r)
{
	for (unsigned i = 0; r->recs && i < r->nr; i++)
		record_free(&r->recs[i]);
	free(r->recs);
	for (unsigned i = 0; i < r->nr; i++)
		job_result_free(&r->entries[i]);
	free(r->entries);
	run_output_free(&r->out);
	rank_results_free(&r->ranks);
	memset(r, 0, sizeof(*r));
}

int recorded_own(const struct recorded *r, struct recorded_own *own)
{
	memset(own, 0, sizeof(*own));
	if (!r->ranks.nr) {
		own->entries = r->entries;
		own->nr = r->nr;
		return 0;
	}
	if (run_output_for_report(&r->ranks.per_rank[0], &own->made, &own->nr))
		return -1;
	own->entries = own->made;
	return 0;
}

void recorded_own_free(struct recorded_own *own)
{
	for (unsigned i = 0; own->made && i < own->nr; i++)
		job_result_free(&own->made[i]);
	free(own->made);
	memset(own, 0, sizeof(*own));
}

void recorded_clients_free(struct recorded_clients *cl)
{
	for (unsigned k = 0; k < cl->nr; k++) {
		for (unsigned i = 0; i < cl->c[k].nr; i++)
			job_result_free(&cl->entries[k][i]);
		free(cl->entries[k]);
	}
	free(cl->c);
	free(cl->entries);
	memset(cl, 0, sizeof(*cl));
}

int recorded_clients_make(const struct rank_results *ranks, struct recorded_clients *cl)
{
	memset(cl, 0, sizeof(*cl));
	if (!ranks->nr)
		return 0;
	cl->c = calloc(ranks->nr, sizeof(*cl->c));
	cl->entries = calloc(ranks->nr, sizeof(*cl->entries));
	if (!cl->c || !cl->entries) {
		recorded_clients_free(cl);
		return err_set("out of memory");
	}
	for (; cl->nr < ranks->nr; cl->nr++) {
		struct run_client *c = &cl->c[cl->nr];

		if (run_output_for_report(&ranks->per_rank[cl->nr], &cl->entries[cl->nr], &c->nr)) {
			recorded_clients_free(cl);
			return -1;
		}
		c->res = cl->entries[cl->nr];
		c->rank = cl->nr;
		c->local_rank = (unsigned)ranks->local_ranks[cl->nr];
		c->hostname = ranks->hosts[cl->nr].hostname;
	}
	return 0;
}
