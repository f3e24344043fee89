/* pts_load.c - what the PTS report reads from the store for one run: the
 * run and its host, the drive snapshot it began with, every step with
 * its detail (test, steady-state rounds and window, purge method,
 * operating point) and each step's results in point order. */
#include "report/pts/pts.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/error.h"

static void copy_string(const cJSON *obj, const char *key, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (cJSON_IsString(v) && v->valuestring)
		snprintf(out, len, "%s", v->valuestring);
}

static double number(const cJSON *obj, const char *key, double fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* The device's identity from the run's drive snapshot (target/snapshot.h). */
static void device_from_json(const char *text, struct pts_device *dev)
{
	cJSON *j = text ? cJSON_Parse(text) : NULL;

	if (!j)
		return;
	copy_string(j, "model", dev->model, sizeof(dev->model));
	copy_string(j, "serial", dev->serial, sizeof(dev->serial));
	copy_string(j, "firmware", dev->firmware, sizeof(dev->firmware));
	copy_string(j, "kind", dev->kind, sizeof(dev->kind));
	dev->size_bytes = (uint64_t)number(j, "size_bytes", 0);
	dev->logical_block = (unsigned)number(j, "logical_block_size", 0);
	dev->physical_block = (unsigned)number(j, "physical_block_size", 0);
	cJSON_Delete(j);
}

static int load_device(struct store *db, int64_t run_id, struct pts_device *dev)
{
	struct stored_run run;
	char *drive = NULL;

	if (store_run_get(db, run_id, &run) || store_run_drive_json(db, run_id, &drive))
		return -1;
	snprintf(dev->label, sizeof(dev->label), "%s", run.label);
	snprintf(dev->target, sizeof(dev->target), "%s", run.target);
	snprintf(dev->command, sizeof(dev->command), "%s", run.command);
	snprintf(dev->host, sizeof(dev->host), "%s", run.host_name);
	snprintf(dev->os, sizeof(dev->os), "%s", run.host_os);
	snprintf(dev->kernel, sizeof(dev->kernel), "%s", run.host_kernel);
	snprintf(dev->cpu, sizeof(dev->cpu), "%s", run.host_cpu);
	snprintf(dev->server, sizeof(dev->server), "%s", run.host_server);
	dev->cores = run.host_cores;
	dev->memory_bytes = run.host_memory_bytes;
	dev->started_ms = run.started_ms;
	dev->finished_ms = run.finished_ms;
	dev->partial = run.partial;
	device_from_json(drive, dev);
	free(drive);
	return store_run_suite(db, run_id, dev->suite, sizeof(dev->suite));
}

/* A step's detail (JSON) into its fields. */
static int detail_into(const char *text, struct pts_step *st)
{
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	const cJSON *rounds;

	if (!j)
		return 0;
	copy_string(j, "test", st->test, sizeof(st->test));
	copy_string(j, "method", st->purge_method, sizeof(st->purge_method));
	if (st->purge_method[0])
		st->purge_bytes = (uint64_t)number(j, "bytes", 0);
	copy_string(j, "operating_point", st->operating_point, sizeof(st->operating_point));
	copy_string(j, "from", st->operating_from, sizeof(st->operating_from));
	st->lat_ceiling_ns = number(j, "lat_ceiling_ns", 0);
	st->pause_ns = number(j, "pause_ns", 0);
	rounds = cJSON_GetObjectItemCaseSensitive(j, "rounds");
	if (cJSON_IsArray(rounds)) {
		unsigned n = (unsigned)cJSON_GetArraySize(rounds), i = 0;
		const cJSON *v;

		st->steady = true;
		st->rounds = calloc(n + 1, sizeof(*st->rounds));
		if (!st->rounds) {
			cJSON_Delete(j);
			return err_set("out of memory");
		}
		cJSON_ArrayForEach(v, rounds)
			st->rounds[i++] = cJSON_IsNumber(v) ? v->valuedouble : 0;
		st->nr_rounds = i;
		copy_string(j, "metric", st->metric, sizeof(st->metric));
		st->reached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "reached"));
		st->window = (unsigned)number(j, "window", 5);
		st->max_rounds = (unsigned)number(j, "max_rounds", 25);
		st->window_start = (unsigned)number(j, "window_start", 0);
		st->points_per_round = (unsigned)number(j, "points_per_round", 1);
		st->tracked_point = (unsigned)number(j, "tracked_point", 0);
		st->steady_round = (unsigned)number(j, "steady_round", 0);
		st->has_window = cJSON_GetObjectItemCaseSensitive(j, "mean") != NULL;
		st->mean = number(j, "mean", 0);
		st->range = number(j, "range", 0);
		st->slope = number(j, "slope", 0);
		st->slope_excursion = number(j, "slope_excursion", 0);
		st->range_limit = number(j, "range_limit", 0.2);
		st->slope_limit = number(j, "slope_limit", 0.1);
		st->write_limit = (uint64_t)number(j, "write_limit_bytes", 0);
		st->written = (uint64_t)number(j, "written_bytes", 0);
		if (!st->points_per_round)
			st->points_per_round = 1;
	}
	cJSON_Delete(j);
	return 0;
}

static int by_point(const void *a, const void *b)
{
	const struct result_record *x = *(const struct result_record *const *)a;
	const struct result_record *y = *(const struct result_record *const *)b;

	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Each step's results, in point order. */
static int attach_results(struct pts_run *run, const struct stored_step *steps)
{
	for (unsigned i = 0; i < run->nr_steps; i++) {
		struct pts_step *st = &run->steps[i];
		unsigned n = 0;

		for (unsigned r = 0; r < run->nr; r++)
			n += run->recs[r].step_id == steps[i].id;
		st->recs = calloc(n + 1, sizeof(*st->recs));
		if (!st->recs)
			return err_set("out of memory");
		for (unsigned r = 0; r < run->nr; r++)
			if (run->recs[r].step_id == steps[i].id)
				st->recs[st->nr_recs++] = &run->recs[r];
		qsort(st->recs, st->nr_recs, sizeof(*st->recs), by_point);
	}
	return 0;
}

int pts_load(struct store *db, int64_t run_id, struct pts_run *run)
{
	struct stored_step *steps = NULL;
	unsigned nr = 0;
	int rc = -1;

	memset(run, 0, sizeof(*run));
	run->id = run_id;
	if (load_device(db, run_id, &run->dev) || store_steps_list(db, run_id, &steps, &nr) ||
	    store_results_load(db, run_id, &run->recs, &run->nr))
		goto out;
	run->steps = calloc(nr + 1, sizeof(*run->steps));
	if (!run->steps) {
		err_set("out of memory");
		goto out;
	}
	run->nr_steps = nr;
	for (unsigned i = 0; i < nr; i++) {
		struct pts_step *st = &run->steps[i];
		char *detail = NULL;
		int failed;

		snprintf(st->name, sizeof(st->name), "%s", steps[i].name);
		snprintf(st->kind, sizeof(st->kind), "%s", steps[i].kind);
		snprintf(st->status, sizeof(st->status), "%s", steps[i].status);
		if (store_step_detail_get(db, steps[i].id, &detail))
			goto out;
		failed = detail_into(detail, st);
		free(detail);
		if (failed)
			goto out;
	}
	rc = attach_results(run, steps);
out:
	free(steps);
	if (rc)
		pts_run_free(run);
	return rc;
}

bool pts_run_has_tests(const struct pts_run *run)
{
	for (unsigned i = 0; i < run->nr_steps; i++)
		if (run->steps[i].test[0])
			return true;
	return false;
}

void pts_run_free(struct pts_run *run)
{
	for (unsigned i = 0; run->steps && i < run->nr_steps; i++) {
		free(run->steps[i].rounds);
		free(run->steps[i].recs);
	}
	free(run->steps);
	store_results_free(run->recs, run->nr);
	memset(run, 0, sizeof(*run));
}
