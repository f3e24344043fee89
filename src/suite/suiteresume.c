/* suiteresume.c - resuming an interrupted suite run: finds and checks the
 * run, keeps its done steps and, in each other step, the points stored
 * whole that did not fail (a point's results are one transaction, so a
 * point in the store is complete); failed points and steps an older build
 * stored without points are discarded to be measured again. */
#include "suite/suiteresume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite/suiterun.h"
#include "util/error.h"

int suite_resume_init(struct suite_resume *r, unsigned nr_steps)
{
	memset(r, 0, sizeof(*r));
	r->steps = calloc(nr_steps ? nr_steps : 1, sizeof(*r->steps));
	return r->steps ? 0 : err_set("out of memory");
}

void suite_resume_free(struct suite_resume *r)
{
	free(r->steps);
	store_results_free(r->kept, r->nr_kept);
	memset(r, 0, sizeof(*r));
}

bool suite_resume_kept(const struct suite_resume *r, int64_t step_id, unsigned point)
{
	for (unsigned i = 0; i < r->nr_kept; i++)
		if (r->kept[i].step_id == step_id && r->kept[i].has_point &&
		    r->kept[i].point == point)
			return true;
	return false;
}

unsigned suite_resume_prefix(const struct suite_resume *r, int64_t step_id)
{
	unsigned n = 0;

	while (suite_resume_kept(r, step_id, n))
		n++;
	return n;
}

/* Distinct points kept in a step. */
static unsigned kept_points(const struct suite_resume *r, int64_t step_id)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nr_kept; i++) {
		const struct result_record *rec = &r->kept[i];
		bool seen = false;

		if (rec->step_id != step_id || !rec->has_point)
			continue;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = r->kept[k].step_id == step_id && r->kept[k].has_point &&
			       r->kept[k].point == rec->point;
		n += !seen;
	}
	return n;
}

/* A point is measured again when one of its results failed (an I/O error
 * or a verify failure: the step failed there) or was cut short. */
static bool result_failed(const struct result_record *rec)
{
	return rec->error || rec->verify_failed || rec->partial;
}

/* In one transaction: the failed points of a step that did not end
 * done, or the whole step when a result of it names no point. *whole
 * says which. */
static int discard_failed(struct store *db, const struct stored_step *st,
			  const struct result_record *recs, unsigned nr, bool *whole)
{
	int rc = 0;

	*whole = false;
	for (unsigned i = 0; i < nr; i++)
		if (recs[i].step_id == st->id && !recs[i].has_point)
			*whole = true;
	if (*whole)
		return store_step_discard(db, st->id);
	if (store_transaction_begin(db))
		return -1;
	for (unsigned i = 0; i < nr && rc == 0; i++)
		if (recs[i].step_id == st->id && result_failed(&recs[i]))
			rc = store_point_discard(db, st->id, recs[i].point);
	if (rc == 0)
		rc = store_transaction_commit(db);
	if (rc)
		store_transaction_rollback(db);
	return rc;
}

/* The newest suite run on target_key: *finished when it ended, refused
 * (exit 2) when there is none or it ran another suite file. */
static int find_run(struct store *db, const char *target, const char *target_key,
		    const char *suite_key, int64_t *run_id, bool *finished, bool *bad_input)
{
	struct stored_run run;
	char recorded[JOB_PATH_MAX];

	*bad_input = true;
	*finished = false;
	if (store_run_find_last(db, "suite", target_key, run_id))
		return -1;
	if (!*run_id)
		return err_set("no suite run on '%s' to resume", target);
	if (store_run_get(db, *run_id, &run) ||
	    store_run_suite(db, *run_id, recorded, sizeof(recorded)))
		return -1;
	*bad_input = false;
	if (run.finished_ms) {
		*finished = true;
		return 0;
	}
	if (strcmp(recorded, suite_key)) {
		*bad_input = true;
		return err_set("run %lld on '%s' ran suite '%s', not '%s'",
			       (long long)*run_id, target, recorded, suite_key);
	}
	return 0;
}

/* The recorded steps still name the suite's steps at their places. */
static int check_steps(const struct suite *s, int64_t run_id, const struct stored_step *steps,
		       unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (steps[i].idx >= s->nr_steps || strcmp(steps[i].name, s->steps[steps[i].idx].name))
			return err_set("suite '%s' changed since run %lld (step %u was '%s')",
				       s->name, (long long)run_id, steps[i].idx + 1, steps[i].name);
	return 0;
}

int suite_resume_check(struct store *db, const struct suite *s, const char *target,
		       const char *target_key, const char *suite_key, int64_t *run_id,
		       bool *finished, bool *bad_input)
{
	struct stored_step *steps = NULL;
	unsigned nr = 0;
	int rc;

	if (find_run(db, target, target_key, suite_key, run_id, finished, bad_input))
		return -1;
	if (*finished)
		return 0;
	if (store_steps_list(db, *run_id, &steps, &nr))
		return -1;
	rc = check_steps(s, *run_id, steps, nr);
	*bad_input = rc != 0;
	free(steps);
	return rc;
}

static void note_step(int64_t run_id, const struct stored_step *st, unsigned kept,
		      bool whole)
{
	const char *was = !strcmp(st->status, "running") ? "interrupted" : st->status;

	if (whole)
		fprintf(stderr, "drivebench: resuming run %lld: step %u '%s' was %s, re-running it"
			" (an older drivebench stored it without points)\n",
			(long long)run_id, st->idx + 1, st->name, was);
	else if (kept)
		fprintf(stderr, "drivebench: resuming run %lld: step %u '%s' was %s: keeping its %u"
			" completed point%s\n", (long long)run_id, st->idx + 1, st->name, was,
			kept, kept == 1 ? "" : "s");
	else
		fprintf(stderr, "drivebench: resuming run %lld: step %u '%s' was %s, re-running it\n",
			(long long)run_id, st->idx + 1, st->name, was);
}

int suite_resume_prepare(struct store *db, const struct suite *s, const char *target,
			 const char *target_key, const char *suite_key, int64_t *run_id,
			 struct suite_resume *r, bool *bad_input)
{
	struct stored_step *steps = NULL;
	struct result_record *recs = NULL;
	unsigned nr = 0, nr_recs = 0;
	bool *whole = NULL;
	int rc;

	bool finished;

	if (find_run(db, target, target_key, suite_key, run_id, &finished, bad_input))
		return -1;
	if (finished) {
		*bad_input = true;
		return err_set("the last suite run on '%s' (run %lld) finished; nothing to resume",
			       target, (long long)*run_id);
	}
	if (store_steps_list(db, *run_id, &steps, &nr))
		return -1;
	/* every check before anything is changed */
	if (check_steps(s, *run_id, steps, nr)) {
		*bad_input = true;
		free(steps);
		return -1;
	}
	whole = calloc(nr + 1, sizeof(*whole));
	rc = whole ? store_results_load(db, *run_id, &recs, &nr_recs) : err_set("out of memory");
	for (unsigned i = 0; i < nr && rc == 0; i++)
		if (strcmp(steps[i].status, "done"))
			rc = discard_failed(db, &steps[i], recs, nr_recs, &whole[i]);
	store_results_free(recs, nr_recs);
	if (rc == 0)
		rc = store_results_load(db, *run_id, &r->kept, &r->nr_kept);
	for (unsigned i = 0; i < nr && rc == 0; i++) {
		struct resume_step *rs = &r->steps[steps[i].idx];

		if (!strcmp(steps[i].status, "done")) {
			rs->done = true;
			continue;
		}
		if (!whole[i])
			rs->id = steps[i].id;
		note_step(*run_id, &steps[i], whole[i] ? 0 : kept_points(r, steps[i].id), whole[i]);
	}
	free(whole);
	free(steps);
	return rc;
}

int suite_resume_lookup(const char *db_path, const char *target, char *path,
			size_t len)
{
	struct store *db;
	char key[JOB_PATH_MAX];
	int64_t run_id = 0;
	int rc;

	if (access(db_path, F_OK))
		return err_set("no database '%s': nothing to resume", db_path);
	if (store_open(db_path, &db))
		return -1;
	suite_target_key(target, key, sizeof(key));
	rc = store_run_find_last(db, "suite", key, &run_id);
	if (rc == 0 && !run_id)
		rc = err_set("no suite run on '%s' in %s to resume", target, db_path);
	if (rc == 0)
		rc = store_run_suite(db, run_id, path, len);
	if (rc == 0 && !path[0])
		rc = err_set("run %lld on '%s' names no suite file", (long long)run_id, target);
	store_close(db);
	return rc;
}
