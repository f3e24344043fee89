/* suitesweep.c - measure and sweep steps: a measure step runs the
 * workload once, or at an operating point chosen from an earlier step's
 * points (operating.c); a sweep at each QD/jobs point, its points run
 * `repeat` times over (PTS HIR's bursts, XSR's minutes) with a pause after
 * every run, a sequential stream of one job going on where the run before
 * it ended. Each run is a stored point; a resume goes on at the first one
 * missing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "suite/steadyround.h"
#include "suite/suitectx.h"
#include "util/error.h"

/* A sequential stream cut into runs: where the next one starts, past the
 * range's start (start, len: the job's range on the target). */
struct stream {
	bool on;
	uint64_t start, len, at;
};

/* A repeated sequential workload of one job (a sweep of one point with
 * one job) is one stream: the runs continue across the range instead of
 * starting over at its start. */
static int stream_init(struct suite_ctx *c, const struct suite_step *st, struct stream *s)
{
	struct job_spec spec;

	s->on = (st->repeat > 1 && !job_spec_random(&st->spec) && st->nr_points == 1 &&
		 st->points[0].numjobs == 1 && !st->spec.offset_increment &&
		 !st->spec.offset_increment_pct);
	if (!s->on)
		return 0;
	suite_step_spec(c, st, "", &spec);
	return suite_spec_range(c, &spec, &s->start, &s->len);
}

/* The run's region: from where the stream is to the range's end, cut at
 * its runtime (the next run starts at the range's start when it got
 * there). */
static int stream_apply(const struct stream *s, struct job_spec *spec)
{
	char value[32];

	if (!s->on)
		return 0;
	spec->offset = s->start + s->at;
	spec->size = s->len - s->at;
	spec->offset_pct = spec->size_pct = 0;
	spec->io_size = 0;
	spec->time_based = false;   /* its runtime still ends it */
	snprintf(value, sizeof(value), "%" PRIu64, spec->offset);
	if (suite_spec_note(spec, "offset", value))
		return -1;
	snprintf(value, sizeof(value), "%" PRIu64, spec->size);
	if (suite_spec_note(spec, "size", value))
		return -1;
	return suite_spec_note(spec, "time_based", "0");
}

static void stream_advance(struct stream *s, uint64_t bytes, uint64_t bs)
{
	if (!s->on || !s->len)
		return;
	s->at = (s->at + bytes) % s->len;
	if (bs)
		s->at = s->at / bs * bs;
	if (s->len - s->at < bs)
		s->at = 0;
}

/* Bytes the results of a point a resume kept moved. */
static uint64_t kept_bytes(const struct suite_ctx *c, int64_t step_id, unsigned point)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < c->resume.nr_kept; i++) {
		const struct result_record *rec = &c->resume.kept[i];

		if (rec->step_id == step_id && rec->has_point && rec->point == point)
			bytes += rec->dir[DIR_READ].bytes + rec->dir[DIR_WRITE].bytes;
	}
	return bytes;
}

void suite_sweep_suffix(const struct suite_step *st, const struct sweep_point *at,
			unsigned rep, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (at)
		n = snprintf(buf, len, "-qd%u-j%u", at->iodepth, at->numjobs);
	if (st->repeat > 1 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "-%u", rep + 1);
}

/* The operating point, once per step: chosen from the stored results of
 * the `from` step and recorded in the step's detail. */
static int choose_point(struct suite_ctx *c, int64_t step_id, struct sweep_point *at)
{
	char *detail = NULL;
	int rc;

	if (suite_operating_point(c, at, &detail))
		return -1;
	suite_log(c, "operating point %u/%u (QD/jobs)", at->iodepth, at->numjobs);
	rc = store_step_detail_set(c->db, step_id, detail);
	free(detail);
	if (rc)
		c->exit_code = EXIT_RUN_FAILED;
	return rc;
}

/* A sweep that repeats or pauses says so in its detail: the report lays
 * its runs out in time (PTS HIR: each burst and the idle after it). */
static int repeat_detail(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	char detail[128];

	if (st->kind != STEP_SWEEP || (st->repeat <= 1 && !st->pause_ns))
		return 0;
	snprintf(detail, sizeof(detail), "{\"repeat\":%u,\"pause_ns\":%" PRIu64 "}",
		 st->repeat ? st->repeat : 1, st->pause_ns);
	if (store_step_detail_set(c->db, step_id, detail)) {
		c->exit_code = EXIT_RUN_FAILED;
		return -1;
	}
	return 0;
}

int suite_do_sweep(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	unsigned np = st->nr_points ? st->nr_points : 1, reps = st->repeat ? st->repeat : 1;
	bool single = !st->nr_points && !st->operating_point;   /* a plain measure step */
	struct sweep_point chosen;
	struct stream stream = { 0 };
	struct job_spec spec;
	char suffix[64];
	bool chose = false;

	if (stream_init(c, st, &stream) || repeat_detail(c, step_id))
		return -1;
	for (unsigned r = 0; r < reps; r++)
		for (unsigned p = 0; p < np; p++) {
			unsigned point = r * np + p;
			const struct sweep_point *at = st->nr_points ? &st->points[p] : NULL;
			uint64_t before = c->step_bytes;

			if (suite_point_kept(c, step_id, point)) {
				/* a resume kept it: the step goes on after it */
				stream_advance(&stream, kept_bytes(c, step_id, point),
					       job_spec_max_bs(&st->spec));
				continue;
			}
			/* the pause after the point before may not have happened:
			 * the point starts from an idle drive, as in an
			 * uninterrupted step */
			if (point && suite_point_kept(c, step_id, point - 1) && st->pause_ns &&
			    suite_idle_for(c, st->pause_ns))
				return -1;
			if (st->operating_point && !chose) {
				if (choose_point(c, step_id, &chosen))
					return -1;
				chose = true;
			}
			if (st->operating_point)
				at = &chosen;
			suite_sweep_suffix(st, st->nr_points ? at : NULL, r, suffix, sizeof(suffix));
			suite_step_spec(c, st, suffix, &spec);
			if (at && suite_spec_qd(&spec, at->iodepth, at->numjobs)) {
				c->exit_code = EXIT_BAD_INPUT;
				return -1;
			}
			if (!single)
				spec.group_reporting = true;   /* one result per point */
			if (stream_apply(&stream, &spec) || job_spec_validate(&spec)) {
				c->exit_code = EXIT_BAD_INPUT;
				return -1;
			}
			if (suite_run_one(c, &spec, step_id, point, NULL))
				return -1;
			stream_advance(&stream, c->step_bytes - before, job_spec_max_bs(&spec));
			/* pause = 180s: the drive idles after every point (CDN,
			 * the PTS HIR's wait states) */
			if (st->pause_ns && suite_idle_for(c, st->pause_ns))
				return -1;
		}
	return 0;
}
