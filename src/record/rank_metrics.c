/* rank_metrics.c - each other rank's --metrics-file (see the header). */
#include "record/rank_metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranks/ranks.h"
#include "util/clock.h"
#include "util/error.h"

void rank_metrics_pack(struct pack *p, const struct run_metrics_note *note)
{
	pack_u64(p, note && note->path);
	if (!note || !note->path)
		return;
	pack_str(p, note->path);
	pack_u64(p, note->interval_ns);
	pack_str(p, note->command);
	pack_str(p, note->step);
	pack_u64(p, note->step_index);
	pack_u64(p, note->nr_steps);
	pack_u64(p, note->point);
	pack_u64(p, note->nr_points);
}

int rank_metrics_unpack(struct unpack *u, struct rank_metrics *m)
{
	struct run_metrics_note *n = &m->note;

	memset(m, 0, sizeof(*m));
	if (!unpack_u64(u))
		return 0;
	n->path = unpack_str(u);
	n->interval_ns = unpack_u64(u);
	n->command = unpack_str(u);
	n->step = unpack_str(u);
	n->step_index = (unsigned)unpack_u64(u);
	n->nr_steps = (unsigned)unpack_u64(u);
	n->point = (unsigned)unpack_u64(u);
	n->nr_points = (unsigned)unpack_u64(u);
	if (u->failed || !n->path || !n->command)
		return err_set("rank 0's metrics note is short or malformed");
	return 0;
}

static void write_own(struct rank_metrics *m, const struct run_output *out, double progress,
		      double eta_s)
{
	const struct run_metrics_note *n = &m->note;
	struct metrics_context ctx = {
		.command = n->command, .step = n->step, .step_index = n->step_index,
		.nr_steps = n->nr_steps, .point = n->point, .nr_points = n->nr_points,
		.progress = progress, .eta_s = eta_s,
	};
	struct job_result *entries = NULL;
	unsigned nr = 0;

	if (run_output_for_report(out, &entries, &nr) == 0) {
		for (unsigned i = 0; i < nr; i++)
			if (entries[i].drive_after) {   /* the latest snapshot known */
				ctx.drive = entries[i].drive_after;
				ctx.drive_delta = entries[i].drive_delta;
			}
		if (metrics_write(n->path, entries, nr, &ctx, &m->state, clock_now_ns()) == 0)
			goto done;
	}
	if (!m->failed)   /* the run goes on; said once */
		fprintf(stderr, "drivebench: rank %d: %s\n", ranks_rank(), err_msg());
	m->failed = true;
done:
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
}

static void on_status(void *arg, const struct run_status *st)
{
	write_own(arg, st->live, st->fraction,
		  st->eta_ns == UINT64_MAX ? -1 : (double)st->eta_ns / 1e9);
}

int rank_metrics_start(struct rank_metrics *m, struct run_options *opt)
{
	if (!m->note.path)
		return 0;
	if (metrics_check_path(m->note.path))
		return -1;   /* ranks_fail names the rank */
	m->state.interval_ns = m->note.interval_ns;
	opt->status_tick_ns = m->note.interval_ns;
	opt->status = on_status;
	opt->status_arg = m;
	return 0;
}

void rank_metrics_finish(struct rank_metrics *m, const struct run_output *out)
{
	if (m->note.path)
		write_own(m, out, 1.0, 0);
}

void rank_metrics_free(struct rank_metrics *m)
{
	free((char *)m->note.path);
	free((char *)m->note.command);
	free((char *)m->note.step);
	metrics_state_free(&m->state);
	memset(m, 0, sizeof(*m));
}
