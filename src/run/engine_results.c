/* engine_results.c - what happens to a clone's result around its loop
 * (job_env.h): the count of running clones that move data (for cpuio's
 * exit_on_io_done), no bytes for an engine that moves none (fio's
 * FIO_NOIO engines report I/Os of 0 bytes), the latencies fio's
 * gtod_reduce and disable_lat / disable_clat / disable_slat leave out,
 * and the engine's own figures. Done once per clone, never per I/O. */
#include "run/job_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static bool moves_data(const struct worker *w)
{
	return !engine_has(w->ops, ENGINE_NO_IO);
}

void engine_results_start(struct worker *w)
{
	if (moves_data(w))
		engine_io_jobs_add(1);
}

static void clear_bytes(struct job_result *r)
{
	for (int d = 0; d < DIR_COUNT; d++)
		r->dir[d].bytes = 0;
	for (unsigned i = 0; i < r->series.nr; i++)
		memset(r->series.points[i].bytes, 0, sizeof(r->series.points[i].bytes));
}

/* The engine ended the job (exit_on_io_done): the I/O it handed back
 * with -ECANCELED to stop the loop is no failure. */
static void clear_ended(struct worker *w)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (w->result.dir[d].first_error == -ECANCELED) {
			w->result.dir[d].errors = 0;
			w->result.dir[d].first_error = 0;
			w->result.dir[d].first_error_offset = 0;
		}
	if (w->result.error == -ECANCELED)
		w->result.error = 0;
}

static void drop_latencies(struct worker *w)
{
	const struct engine_opts *o = &w->spec->eng;

	for (int d = 0; d < DIR_COUNT; d++) {
		if (o->disable_slat)
			lat_stat_init(&w->result.dir[d].slat);
		if (o->disable_clat)
			lat_stat_init(&w->result.dir[d].clat);
		if (o->disable_lat)
			lat_stat_init(&w->result.dir[d].lat);
		if (o->disable_clat) {
			free(w->result.prio_clat[d]);
			w->result.prio_clat[d] = NULL;
			w->result.nr_prio_clat[d] = 0;
		}
	}
}

void engine_results_finish(struct worker *w)
{
	if (moves_data(w))
		engine_io_jobs_add(-1);
	else
		clear_bytes(&w->result);
	if (w->engine.ended)
		clear_ended(w);
	if (w->ops->collect && w->engine.priv && !w->run_failed &&
	    w->ops->collect(&w->engine, &w->result)) {
		w->run_failed = true;
		snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
	}
	drop_latencies(w);
}
