/* suiterun.c - runs a suite's steps on one target through the one runner
 * (the step kinds are suitesteps.c), stores each step and every point's
 * results in one transaction as it completes, and resumes an interrupted
 * suite run in the same run id at the first point that is missing
 * (suiteresume.c); suite_check makes a run's checks, and the write gate of
 * all its steps, without starting it. Progress is suiteprogress.c. */
#include "suite/suiterun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "record/record_run.h"
#include "suite/suitectx.h"
#include "device/model_target.h"
#include "device/snapshot.h"
#include "util/clock.h"
#include "ranks/ranks.h"
#include "util/error.h"
#include "util/units.h"
#include "verify/verify.h"
#include "workload/checkpoint_fs.h"

void suite_target_key(const char *target, char *key, size_t len)
{
	char *real;

	if (model_target_is(target)) {
		model_target_key(target, key, len);
		return;
	}
	real = realpath(target, NULL);

	snprintf(key, len, "%s", real ? real : target);
	free(real);
}

/* --- storing -------------------------------------------------------------- */

/* The figure a steady step tracks, summed over a round's stored results
 * (the same for rounds measured now and rounds a resume kept). */
struct figure {
	double sum, lat_sum;
	uint64_t ios;
};

static void figure_add(struct figure *f, enum steady_metric metric,
		       const struct result_record *rec)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		if (metric == STEADY_IOPS)
			f->sum += rec->dir[d].iops;
		else if (metric == STEADY_BW)
			f->sum += rec->dir[d].bw_bytes;
		f->lat_sum += rec->dir[d].lat.mean * (double)rec->dir[d].lat.n;
		f->ios += rec->dir[d].lat.n;
	}
}

static double figure_value(const struct figure *f, enum steady_metric metric)
{
	if (metric == STEADY_LAT_MEAN)
		return f->ios ? f->lat_sum / (double)f->ios : 0;
	return f->sum;
}

/* The figure of a round a resume kept. */
double suite_kept_figure(const struct suite_ctx *c, int64_t step_id, unsigned point)
{
	struct figure f = { 0 };

	for (unsigned i = 0; i < c->resume.nr_kept; i++) {
		const struct result_record *rec = &c->resume.kept[i];

		if (rec->step_id == step_id && rec->has_point && rec->point == point)
			figure_add(&f, c->step->metric, rec);
	}
	return figure_value(&f, c->step->metric);
}

/* Whether a resume kept this point of the step: it is not run again. */
bool suite_point_kept(const struct suite_ctx *c, int64_t step_id, unsigned point)
{
	return suite_resume_kept(&c->resume, step_id, point);
}

/* The runner's status: the point's results so far into --metrics-file. */
static void suite_on_status(void *arg, const struct run_status *st)
{
	struct suite_ctx *c = arg;
	struct job_result *entries = NULL;
	unsigned nr = 0;

	if (run_output_for_report(st->live, &entries, &nr))
		return;
	suite_write_metrics(c, entries, nr);
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
}

/* How a step runs its jobs: the suite's limits, consent and stop flag,
 * progress into the status line. */
struct run_options suite_run_options(struct suite_ctx *c)
{
	/* under mpirun every other rank writes its own --metrics-file */
	c->metrics_note = (struct run_metrics_note){
		.path = c->o->metrics_file, .interval_ns = c->o->metrics_ns,
		.command = c->o->command_name ? c->o->command_name : "suite",
		.step = c->step->name, .step_index = c->position + 1, .nr_steps = c->nr_selected,
		.point = c->point,
	};
	return (struct run_options){
		.metrics = c->o->metrics_file ? &c->metrics_note : NULL,
		.max_buffer_mem = c->o->max_buffer_mem,
		.stop = c->o->stop,
		.destroy_ids = c->o->destroy_ids,
		.nr_destroy_ids = c->o->nr_destroy_ids,
		.progress = suite_on_progress,
		.progress_arg = c,
		.status_tick_ns = c->o->metrics_file ? c->o->metrics_ns : 0,
		.status = c->o->metrics_file ? suite_on_status : NULL,
		.status_arg = c,
	};
}

/* Runs one point's jobs and stores what they report under step_id and
 * point, all in one transaction (record_run): after a kill the point is in
 * the store whole or not at all, so a resume can keep what it finds. An
 * interrupted run stores nothing (the point is run again on resume).
 * *figure (may be NULL) gets the step's tracked metric. */
int suite_run_and_store(struct suite_ctx *c, const struct job_list *jobs,
			 int64_t step_id, unsigned point, double *figure)
{
	struct run_options opt = suite_run_options(c);
	struct record_place place = {
		.db = c->db, .run_id = &c->run_id, .step_id = step_id,
		.has_point = true, .point = point,
	};
	struct recorded rec = { 0 };
	char failure[1024] = "";
	int rc = 0;

	/* the first sample's rate counts from here */
	c->point = c->metrics_note.point = point + 1;
	metrics_state_restart(&c->metrics);
	c->metrics.interval_ns = c->o->metrics_ns;
	c->phase_bytes = c->sample_bytes = 0;
	c->sample_ns = clock_now_ns();
	if (record_run(jobs, &opt, &place, &rec)) {
		c->exit_code = rec.ran ? EXIT_RUN_FAILED : run_failure_exit_code(rec.why);
		recorded_free(&rec);
		c->phase_bytes = 0;
		return -1;
	}
	if (rec.interrupted) {
		recorded_free(&rec);
		c->interrupted = true;
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("interrupted");
	}
	for (unsigned i = 0; i < rec.nr; i++)
		if (rec.entries[i].drive_after) {   /* the latest snapshot, for the metrics */
			free(c->drive);
			free(c->drive_delta);
			c->drive = strdup(rec.entries[i].drive_after);
			c->drive_delta = rec.entries[i].drive_delta ? strdup(rec.entries[i].drive_delta) : NULL;
		}
	if (c->o->metrics_file) {   /* MPI: rank 0's own, as its status */
		struct recorded_own own;

		if (recorded_own(&rec, &own) == 0)
			suite_write_metrics(c, own.entries, own.nr);
		recorded_own_free(&own);
	}
	for (unsigned i = 0; i < rec.nr; i++) {
		for (int d = 0; d < DIR_COUNT; d++)
			c->step_bytes += rec.entries[i].dir[d].bytes;
		if (!failure[0] && verify_result_failure(&rec.entries[i]))
			snprintf(failure, sizeof(failure), "%s", err_msg());   /* the first names it */
	}
	if (figure) {
		struct figure f = { 0 };

		for (unsigned i = 0; i < rec.nr; i++)
			figure_add(&f, c->step->metric, &rec.recs[i]);
		*figure = figure_value(&f, c->step->metric);
	}
	recorded_free(&rec);
	c->phase_bytes = 0;
	if (failure[0])
		rc = err_set("%s", failure);
	if (rc)
		c->exit_code = EXIT_RUN_FAILED;
	return rc;
}

/* Runs one job built from spec and stores it. */
int suite_run_one(struct suite_ctx *c, const struct job_spec *spec, int64_t step_id,
		   unsigned point, double *figure)
{
	struct job_list jobs = { 0 };
	int rc;

	if (job_list_append(&jobs, spec)) {
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("out of memory");
	}
	rc = suite_run_and_store(c, &jobs, step_id, point, figure);
	job_list_free(&jobs);
	return rc;
}

/* --- the suite -------------------------------------------------------------- */

/* The steps to run, in suite order (suite_select: step or test names). */
static int select_steps(const struct suite *s, const struct suite_options *o,
			unsigned *selected, unsigned *nr)
{
	return suite_select(s, o->only, o->skip, selected, nr);
}

static void suite_key(const struct suite *s, char *key, size_t len)
{
	suite_target_key(s->path[0] ? s->path : s->name, key, len);
}

/* Finds the unfinished run to continue and what of it is kept
 * (suiteresume.c). */
static int resume_run(struct suite_ctx *c)
{
	char key[JOB_PATH_MAX];
	bool bad_input = false;

	suite_key(c->s, key, sizeof(key));
	if (suite_resume_prepare(c->db, c->s, c->o->target, c->target_key, key, &c->run_id,
				 &c->resume, &bad_input)) {
		c->exit_code = bad_input ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		return -1;
	}
	/* a modelled drive lives in one process unless a state file keeps
	 * it: the steps left would meet a fresh drive, not the one the
	 * steps kept left (their fill, their preconditioning) */
	if (c->target.is_model && !(c->drive_state && c->drive_state[0]))
		fprintf(stderr, "drivebench: warning: the modelled drive %s was not saved "
			"(no vssd_state): the resumed steps run on a fresh drive, not on the "
			"one the run's earlier steps left (--set vssd_state=FILE keeps it)\n",
			c->o->target);
	return 0;
}

static int begin_run(struct suite_ctx *c)
{
	struct drive_snapshot *snap = calloc(1, sizeof(*snap));
	char *drive_json = NULL, key[JOB_PATH_MAX];
	int64_t previous = 0;
	struct stored_run prev;
	struct run_meta meta = {
		.label = c->o->label ? c->o->label : "",
		.source = "suite",
		.command = c->o->command ? c->o->command : "drivebench suite",
		.target = c->target_key,
		.started_ms = wallclock_ms(),   /* ms: runs on several targets overlap visibly */
	};
	int rc;

	if (store_run_find_last(c->db, "suite", c->target_key, &previous) == 0 && previous &&
	    store_run_get(c->db, previous, &prev) == 0 && !prev.finished_ms)
		fprintf(stderr, "drivebench: note: suite run %lld on this target is unfinished; starting a new run (--resume continues it)\n",
			(long long)previous);
	err_clear();
	if (snap && drive_snapshot_take(c->o->target, snap) == 0) {
		cJSON *j = drive_snapshot_json(snap);

		drive_json = j ? cJSON_PrintUnformatted(j) : NULL;
		cJSON_Delete(j);
	}
	err_clear();
	free(snap);
	suite_key(c->s, key, sizeof(key));
	meta.suite = key;
	meta.drive_json = drive_json;
	rc = store_run_begin(c->db, &meta, &c->run_id);
	free(drive_json);
	return rc;
}

/* The step's row: the one a resume continues (running again), or a new one. */
static int step_row(struct suite_ctx *c, unsigned idx, int64_t *step_id)
{
	*step_id = c->resume.steps[idx].id;
	if (*step_id)
		return store_step_reopen(c->db, *step_id);
	return store_step_begin(c->db, c->run_id, idx, c->step->name,
				step_kind_name(c->step->kind), step_id);
}

/* To o->step_done: the step at c->position just stored as done, or
 * (before_first) none yet: the run begun or resumed. */
static void tell_step_done(const struct suite_ctx *c, bool before_first)
{
	struct suite_step_done d = { .run_id = c->run_id, .nr = c->nr_selected };
	unsigned next = before_first ? 0 : c->position + 1;

	if (!c->o->step_done)
		return;
	if (before_first)   /* a resume's done steps count, up to the first to run */
		while (next < c->nr_selected && c->resume.steps[c->selected[next]].done)
			next++;
	d.eta_s = suite_eta_from(c, next);
	d.done = next;
	if (next < c->nr_selected)
		d.next = c->s->steps[c->selected[next]].name;
	c->o->step_done(c->o->step_done_arg, &d);
}

/* Runs the selected steps not done yet; 0 when all completed. */
static int run_steps(struct suite_ctx *c)
{
	for (c->position = 0; c->position < c->nr_selected; c->position++) {
		unsigned idx = c->selected[c->position];
		uint64_t took_ns;
		int64_t step_id;
		char took[32], rate[32];
		int rc;

		c->step = &c->s->steps[idx];
		if (c->resume.steps[idx].done)
			continue;
		if (*c->o->stop) {
			c->interrupted = true;
			c->exit_code = EXIT_RUN_FAILED;
			store_run_mark_partial(c->db, c->run_id, true);
			return err_set("interrupted before step %u/%u '%s'",
				       c->position + 1, c->nr_selected, c->step->name);
		}
		if (target_probe(c->o->target, &c->target)) {
			c->exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		c->step_start_ns = clock_now_ns();
		c->step_bytes = c->step_planned_bytes = 0;
		c->rate_bps = 0;
		if (!c->o->progress_tty)
			suite_log(c, "started");
		suite_draw_status(c, c->step_start_ns);
		if (step_row(c, idx, &step_id)) {
			c->exit_code = EXIT_RUN_FAILED;
			return -1;
		}
		rc = suite_run_step(c, step_id);
		if (rc) {
			char message[1024];

			snprintf(message, sizeof(message), "%s", err_msg());
			store_step_end(c->db, step_id, c->interrupted ? "partial" : "failed");
			if (c->interrupted) {
				store_run_mark_partial(c->db, c->run_id, true);
				return err_set("interrupted at step %u/%u '%s'", c->position + 1,
					       c->nr_selected, c->step->name);
			}
			return err_set("step %u/%u '%s': %s", c->position + 1, c->nr_selected,
				       c->step->name, message);
		}
		if (store_step_end(c->db, step_id, "done")) {
			c->exit_code = EXIT_RUN_FAILED;
			return -1;
		}
		took_ns = clock_now_ns() - c->step_start_ns;
		units_format_clock((double)took_ns / 1e9, took, sizeof(took));
		if (c->step_bytes && took_ns) {
			double bps = (double)c->step_bytes * 1e9 / (double)took_ns;
			double seconds;
			uint64_t bytes;

			suite_step_estimate(c, c->step, &seconds, &bytes);
			if (bytes) {   /* size-based work teaches the ETA its speed */
				c->work_bytes += (double)c->step_bytes;
				c->work_seconds += (double)took_ns / 1e9;
			}
			units_format_rate(bps, UNITS_RATE_MB_GB, 0, rate, sizeof(rate));
			suite_log(c, "done in %s, %s", took, rate);
		} else {
			suite_log(c, "done in %s", took);
		}
		tell_step_done(c, false);
	}
	return 0;
}

/* A purge method the target does not offer (or that MPI ranks cannot
 * run: each rank's target is its own), refused before any I/O. */
static int check_purge(const struct suite_step *st, const char *target)
{
	enum purge_method use;
	int code;

	if (st->kind != STEP_PURGE || st->purge == PURGE_DISCARD)
		return 0;
	if (ranks_active())
		return st->purge == PURGE_STRONGEST ? 0
			: err_set("purge = %s under MPI ranks is not supported (drop it to "
				  "discard, or purge = strongest: every rank's discard)",
				  purge_method_name(st->purge));
	return target_purge_resolve(target, st->purge, &use, &code);
}

/* What a selected step asks of the target that it cannot give, refused
 * before anything is written (a filesystem for the checkpoints needs a
 * block device and its mkfs; a purge method the drive does not offer). */
static int check_target_fits(const struct suite *s, const struct suite_options *o,
			     const unsigned *selected, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		const struct suite_step *st = &s->steps[selected[i]];

		if (check_purge(st, o->target))
			return err_prefix("step '%s'", st->name);

		if (st->kind == STEP_CHECKPOINT && st->checkpoint_fs[0] &&
		    checkpoint_fs_check("checkpoint_fs", st->checkpoint_fs, o->target))
			return err_prefix("step '%s'", st->name);
	}
	return 0;
}

/* The checks before anything is changed: the steps selected (c->selected
 * gets the array), the target fit for them and probed, the database open.
 * -1 with err_msg and c->exit_code. */
static int prepare(struct suite_ctx *c)
{
	const struct suite *s = c->s;
	const struct suite_options *o = c->o;
	unsigned *selected;

	c->exit_code = EXIT_BAD_INPUT;
	if (!o->target || !o->target[0] || !o->db_path || !o->db_path[0])
		return err_set("suite_run needs a target and a database");
	if (!s->nr_steps)
		return err_set("suite '%s' has no steps", s->name);
	selected = calloc(s->nr_steps, sizeof(*selected));
	c->selected = selected;
	if (!selected || suite_resume_init(&c->resume, s->nr_steps))
		return err_set("out of memory");
	if (select_steps(s, o, selected, &c->nr_selected) ||
	    check_target_fits(s, o, selected, c->nr_selected) ||
	    suite_check_logs(s, selected, c->nr_selected))
		return -1;
	suite_target_key(o->target, c->target_key, sizeof(c->target_key));
	if (target_probe(o->target, &c->target) ||
	    (c->target.is_model && suite_vssd_state(s, &c->drive_state)) ||
	    store_open(o->db_path, &c->db)) {
		c->exit_code = err_exit_code(c->exit_code);
		return -1;
	}
	return 0;
}

/* A modelled drive with a state file (vssd_state= in the steps, or --set)
 * is loaded before the run's first snapshot: that snapshot, the purge and
 * every step meet the drive as saved, a resumed run too. The steps' jobs
 * save it as they end (and the purge's format): a kill loses at most the
 * point that was running. */
static int open_drive_state(struct suite_ctx *c)
{
	const char *state = c->drive_state;
	bool saved = state && state[0] && access(state, F_OK) == 0;

	if (!state || !state[0])
		return 0;
	if (model_target_open_state(c->o->target, state)) {
		c->exit_code = *c->o->stop ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
		return -1;
	}
	fprintf(stderr, "drivebench: the modelled drive %s %s (vssd_state)\n",
		saved ? "is the one saved in" : "starts fresh and is saved in", state);
	return 0;
}

static void release(struct suite_ctx *c)
{
	if (c->db)
		store_close(c->db);
	free((unsigned *)c->selected);
	suite_resume_free(&c->resume);
	metrics_state_free(&c->metrics);
	free(c->drive);
	free(c->drive_delta);
}

int suite_check(const struct suite *s, const struct suite_options *o, int *exit_code)
{
	struct suite_ctx c = { .s = s, .o = o };
	char key[JOB_PATH_MAX];
	bool finished = false, bad_input = false;
	int64_t run_id = 0;
	int rc = -1;

	if (prepare(&c))
		goto out;
	if (suite_check_writes(s, c.selected, c.nr_selected, o, &c.target)) {
		c.exit_code = err_refused() ? EXIT_UNSAFE : err_exit_code(EXIT_BAD_INPUT);
		goto out;
	}
	if (o->resume) {
		suite_key(s, key, sizeof(key));
		if (suite_resume_check(c.db, s, o->target, c.target_key, key, &run_id,
				       &finished, &bad_input)) {
			c.exit_code = bad_input ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
			goto out;
		}
		if (finished)
			err_set("the last suite run on '%s' (run %lld) finished; nothing to resume",
				o->target, (long long)run_id);
	}
	c.exit_code = EXIT_OK;
	rc = finished ? 1 : 0;
out:
	release(&c);
	*exit_code = c.exit_code;
	return rc;
}

int suite_run(const struct suite *s, const struct suite_options *o, int *exit_code)
{
	static const volatile sig_atomic_t never;
	struct suite_options opts = *o;
	struct suite_ctx c = { .s = s, .o = &opts };
	int rc = -1;

	if (!opts.stop)
		opts.stop = &never;
	if (prepare(&c) || open_drive_state(&c))
		goto out;
	c.exit_code = EXIT_RUN_FAILED;
	if (o->resume ? resume_run(&c) : begin_run(&c))
		goto out;
	if (o->run_id)
		*o->run_id = c.run_id;
	fprintf(stderr, "drivebench: suite '%s' on %s: run %lld in %s\n", s->name,
		o->target, (long long)c.run_id, o->db_path);
	c.suite_start_ns = clock_now_ns();
	tell_step_done(&c, true);
	if (run_steps(&c))
		goto out;
	if (store_run_end(c.db, c.run_id, false)) {
		c.exit_code = EXIT_RUN_FAILED;
		goto out;
	}
	c.exit_code = EXIT_OK;
	rc = 0;
out:
	release(&c);
	*exit_code = c.exit_code;
	return rc;
}
