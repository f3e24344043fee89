/* test_record_run.c - the one run-and-record path (record/record_run.h)
 * end to end through the null engine and a real store: one step per
 * reporting group, the step's kind and the result's pass read back, a
 * merged checkpoint result, and the attacks: a failing print, a failing
 * store and an interrupted point leave nothing stored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job_list.h"
#include "job/options.h"
#include "record/record_run.h"
#include "util/error.h"

#include "helpers/tmpdir.h"

static volatile sig_atomic_t no_stop;
static const char *db_path;

/* a new store in the program's scratch directory for every test */
static int setup(void **state)
{
	if (tmp_setup(state))
		return -1;
	db_path = tmp_path("record.db");
	return 0;
}

/* Two reporting groups of null-engine jobs (the second has two jobs). */
static void two_groups(struct job_list *jobs)
{
	const char *args[] = { "--name=first", "--ioengine=null", "--rw=read", "--bs=4k",
			       "--size=1m", "--name=second", "--ioengine=null", "--rw=write",
			       "--bs=4k", "--size=1m", "--new_group", "--numjobs=2",
			       "--group_reporting" };

	memset(jobs, 0, sizeof(*jobs));
	if (cmdline_jobs(sizeof(args) / sizeof(args[0]), (char *const *)args, jobs))
		fail_msg("cmdline_jobs: %s", err_msg());
}

static unsigned count_runs(struct store *s)
{
	struct stored_run *runs;
	unsigned nr;

	assert_int_equal(store_runs_list(s, &runs, &nr), 0);
	free(runs);
	return nr;
}

static void test_steps_per_group(void **state)
{
	struct job_list jobs;
	struct run_options opt = { .stop = &no_stop };
	struct run_meta meta = { .label = "d", .source = "run", .command = "c", .target = "" };
	struct store *s;
	int64_t run_id = 0;
	struct record_place place = { .run_id = &run_id, .meta = &meta, .end_run = true,
				      .step_per_group = true, .store_partial = true };
	struct recorded rec;
	struct stored_step *steps;
	struct stored_run run;
	struct result_record *recs;
	unsigned nr_steps, nr;

	(void)state;
	two_groups(&jobs);
	assert_int_equal(store_open(db_path, &s), 0);
	place.db = s;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_true(rec.ran && rec.stored);
	assert_int_equal(rec.nr, 2);   /* first; second's two clones as one */
	assert_true(run_id > 0);
	recorded_free(&rec);

	assert_int_equal(store_run_get(s, run_id, &run), 0);
	assert_true(run.finished_ms > 0);   /* ended with its results */
	assert_int_equal(store_steps_list(s, run_id, &steps, &nr_steps), 0);
	assert_int_equal(nr_steps, 2);
	assert_string_equal(steps[0].name, "group 0: first");
	assert_string_equal(steps[1].name, "group 1: second");
	assert_string_equal(steps[0].kind, "jobs");
	assert_string_equal(steps[1].status, "done");
	assert_int_equal(store_results_load(s, run_id, &recs, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(recs[0].step_id, steps[0].id);
	assert_int_equal(recs[1].step_id, steps[1].id);
	assert_string_equal(recs[1].step_kind, "jobs");
	assert_false(recs[0].has_pass);
	assert_int_equal(recs[1].dir[DIR_WRITE].bytes, 2 << 20);
	store_results_free(recs, nr);
	free(steps);
	store_close(s);
	job_list_free(&jobs);
}

/* A checkpoint: its files are one result, stored with its pass under a
 * step of kind "checkpoint", which the report reads back. */
static void test_merged_with_pass(void **state)
{
	struct job_list jobs;
	struct run_options opt = { .stop = &no_stop };
	struct run_meta meta = { .label = "d", .source = "checkpoint", .command = "c",
				 .target = "" };
	struct store *s;
	int64_t run_id = 0;
	struct record_place place = {
		.run_id = &run_id, .meta = &meta, .step_name = "pass 2",
		.step_kind = "checkpoint", .step_idx = 1, .has_pass = true, .pass = 2,
		.pass_index = 7, .merged_name = "pass2-ckpt007", .store_partial = true,
	};
	struct recorded rec;
	struct result_record *recs;
	unsigned nr;

	(void)state;
	two_groups(&jobs);
	assert_int_equal(store_open(db_path, &s), 0);
	place.db = s;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_int_equal(rec.nr, 1);
	assert_string_equal(rec.entries[0].name, "pass2-ckpt007");
	recorded_free(&rec);
	assert_int_equal(store_results_load(s, run_id, &recs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_true(recs[0].has_pass);
	assert_int_equal(recs[0].pass, 2);
	assert_int_equal(recs[0].pass_index, 7);
	assert_string_equal(recs[0].step_kind, "checkpoint");
	assert_int_equal(recs[0].dir[DIR_READ].bytes + recs[0].dir[DIR_WRITE].bytes, 3 << 20);
	store_results_free(recs, nr);
	store_close(s);
	job_list_free(&jobs);
}

static int refuse(void *arg, const struct recorded *r)
{
	(void)arg;
	(void)r;
	return err_set("printing failed");
}

/* Attacks: what fails before or while storing leaves no run behind. */
static void test_nothing_stored_on_failure(void **state)
{
	struct job_list jobs;
	struct run_options opt = { .stop = &no_stop };
	struct run_meta meta = { .label = "d", .source = "run", .command = "c", .target = "" };
	struct store *s;
	int64_t run_id = 0;
	struct record_place place = { .run_id = &run_id, .meta = &meta, .end_run = true,
				      .step_per_group = true, .store_partial = true,
				      .before_store = refuse };
	struct recorded rec;

	(void)state;
	two_groups(&jobs);
	assert_int_equal(store_open(db_path, &s), 0);
	place.db = s;
	/* the outputs could not be written: nothing is stored */
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), -1);
	assert_true(rec.ran);
	assert_false(rec.stored);
	assert_string_equal(err_msg(), "printing failed");
	recorded_free(&rec);
	assert_int_equal(count_runs(s), 0);

	/* a result under a step that does not exist fails the foreign key
	 * after the run row was written: the transaction takes both back */
	place.before_store = NULL;
	place.step_per_group = false;
	place.step_id = 999;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), -1);
	assert_non_null(strstr(err_msg(), "nothing stored"));
	assert_int_equal(run_id, 0);
	recorded_free(&rec);
	assert_int_equal(count_runs(s), 0);
	store_close(s);
	job_list_free(&jobs);
}

/* A suite point stopped before its end stores nothing (the point runs
 * again on resume); with store_partial it is stored as partial. */
static void test_interrupted_point(void **state)
{
	struct job_list jobs;
	volatile sig_atomic_t stop = 1;
	struct run_options opt = { .stop = &stop };
	struct run_meta meta = { .label = "d", .source = "suite", .command = "c", .target = "" };
	struct store *s;
	int64_t run_id = 0;
	struct record_place place = { .run_id = &run_id, .meta = &meta, .step_per_group = true };
	struct recorded rec;

	(void)state;
	two_groups(&jobs);
	assert_int_equal(store_open(db_path, &s), 0);
	place.db = s;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_true(rec.interrupted);
	assert_false(rec.stored);
	recorded_free(&rec);
	assert_int_equal(count_runs(s), 0);
	store_close(s);
	job_list_free(&jobs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_steps_per_group, setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_merged_with_pass, setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_nothing_stored_on_failure, setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_interrupted_point, setup, tmp_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
