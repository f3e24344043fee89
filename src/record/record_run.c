/* record_run.c - the one run-and-record path (see the header). */
#include "record/record_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* The entries of a group of files written as one (a checkpoint): one
 * result, partial when the run was. */
static int merge_entries(struct recorded *r, const char *name)
{
	for (unsigned i = 1; i < r->nr; i++) {
		if (job_result_merge(&r->entries[0], &r->entries[i])) {
			for (unsigned k = i; k < r->nr; k++)
				job_result_free(&r->entries[k]);
			r->nr = 1;   /* those before i are freed already */
			return -1;
		}
		job_result_free(&r->entries[i]);
	}
	if (r->nr > 1)
		r->nr = 1;
	snprintf(r->entries[0].name, sizeof(r->entries[0].name), "%s", name);
	if (r->out.partial)
		r->entries[0].partial = true;
	return 0;
}

static int make_records(const struct record_place *p, struct recorded *r)
{
	r->recs = calloc(r->nr + 1, sizeof(*r->recs));
	if (!r->recs)
		return err_set("out of memory");
	for (unsigned i = 0; i < r->nr; i++) {
		struct result_record *rec = &r->recs[i];

		if (record_from_result(&r->entries[i], rec))
			return -1;
		rec->has_point = p->has_point;
		rec->point = p->point;
		rec->has_pass = p->has_pass;
		rec->pass = p->pass;
		rec->pass_index = p->pass_index;
	}
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
	if (run_jobs(jobs, opt, &r->out, &r->why))
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
	memset(r, 0, sizeof(*r));
}
