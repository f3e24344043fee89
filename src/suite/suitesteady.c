/* suitesteady.c - the steady step: rounds of the workload, each round one
 * or every point of its mixes x block sizes x QD/jobs points (SNIA PTS:
 * the IOPS test's 56, DIRTH's 42), until the tracked point's figure is in
 * steady state (steady.c) or max_rounds; with write_capacities until the
 * rounds wrote that many capacities (PTS WSAT; the last round runs whole),
 * steady or not. Every point
 * is a stored result; the verdict, the rounds and the window are the
 * step's detail. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "suite/steady.h"
#include "suite/steadyround.h"
#include "suite/suitectx.h"
#include "util/error.h"

static const char *metric_name(enum steady_metric m)
{
	return m == STEADY_IOPS ? "iops" : m == STEADY_BW ? "bw_bytes" : "lat_mean_ns";
}

/* A steady step's limits, defaults filled in. */
struct steady_limits {
	unsigned window, max_rounds;
	double range_limit, slope_limit;
};

/* What a step's rounds did, for its detail. */
struct steady_progress {
	const double *values;          /* the tracked figure per round */
	unsigned n;                    /* rounds */
	unsigned window_start;         /* rounds before it ran before an interruption */
	unsigned steady_round;         /* the first round the window passed at; 0 none */
	uint64_t written, write_limit; /* write_capacities: bytes written and the bound */
	struct steady_verdict v;       /* over the last window */
};

/* The round's tracked point, in the detail (the report reads it there). */
static void add_tracked(cJSON *detail, const struct suite_step *st)
{
	struct round_point p = steady_round_point(st, steady_round_tracked(st));
	cJSON *t = cJSON_AddObjectToObject(detail, "tracked");

	if (!t)
		return;
	if (p.has_mix)
		cJSON_AddNumberToObject(t, "rwmixread", p.mix);
	if (p.has_bs)
		cJSON_AddNumberToObject(t, "bs", (double)p.bs);
	if (p.has_qd) {
		cJSON_AddNumberToObject(t, "iodepth", p.iodepth);
		cJSON_AddNumberToObject(t, "numjobs", p.numjobs);
	}
}

/* The step's detail: every round's figure, the verdict over the window
 * (which starts at window_start: rounds before it were measured before an
 * interruption), the round's shape. */
static int steady_detail(struct suite_ctx *c, int64_t step_id, const struct steady_limits *l,
			 const struct steady_progress *pr)
{
	const struct suite_step *st = c->step;
	cJSON *detail = cJSON_CreateObject(), *rounds;
	char *text;
	int rc;

	rounds = cJSON_AddArrayToObject(detail, "rounds");
	for (unsigned i = 0; rounds && i < pr->n; i++)
		cJSON_AddItemToArray(rounds, cJSON_CreateNumber(pr->values[i]));
	cJSON_AddStringToObject(detail, "metric", metric_name(st->metric));
	cJSON_AddBoolToObject(detail, "reached", pr->v.reached);
	cJSON_AddNumberToObject(detail, "window", l->window);
	cJSON_AddNumberToObject(detail, "max_rounds", l->max_rounds);
	cJSON_AddNumberToObject(detail, "range_limit", l->range_limit);
	cJSON_AddNumberToObject(detail, "slope_limit", l->slope_limit);
	cJSON_AddNumberToObject(detail, "window_start", pr->window_start);
	if (pr->n - pr->window_start >= l->window) {
		cJSON_AddNumberToObject(detail, "mean", pr->v.mean);
		cJSON_AddNumberToObject(detail, "range", pr->v.range);
		cJSON_AddNumberToObject(detail, "slope", pr->v.slope);
		cJSON_AddNumberToObject(detail, "slope_excursion", pr->v.slope_excursion);
	}
	cJSON_AddNumberToObject(detail, "points_per_round", suite_round_points(st));
	cJSON_AddNumberToObject(detail, "tracked_point", steady_round_tracked(st));
	add_tracked(detail, st);
	cJSON_AddNumberToObject(detail, "steady_round", pr->steady_round);
	if (pr->write_limit) {
		cJSON_AddNumberToObject(detail, "write_limit_bytes", (double)pr->write_limit);
		cJSON_AddNumberToObject(detail, "written_bytes", (double)pr->written);
	}
	text = detail ? cJSON_PrintUnformatted(detail) : NULL;
	cJSON_Delete(detail);
	rc = text ? store_step_detail_set(c->db, step_id, text) : err_set("out of memory");
	free(text);
	return rc;
}

/* "-round3" for a round of one point; "-round3-rd65-bs4096-qd32-j4" with
 * the values its points vary. */
void suite_round_suffix(const struct suite_step *st, unsigned round, unsigned k, char *buf,
			size_t len)
{
	struct round_point p = steady_round_point(st, k);
	int n = snprintf(buf, len, "-round%u", round + 1);

	if (p.has_mix && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "-rd%u", p.mix);
	if (p.has_bs && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "-bs%" PRIu64, p.bs);
	if (p.has_qd && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "-qd%u-j%u", p.iodepth, p.numjobs);
}

/* Bytes the step's kept results wrote (a resume's). */
static uint64_t kept_written(const struct suite_ctx *c, int64_t step_id)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < c->resume.nr_kept; i++)
		if (c->resume.kept[i].step_id == step_id)
			bytes += c->resume.kept[i].dir[DIR_WRITE].bytes;
	return bytes;
}

/* One round: every point not kept by a resume, in order; the tracked
 * point's figure in *figure (a kept one's from the store). */
static int run_round(struct suite_ctx *c, int64_t step_id, unsigned round, double *figure)
{
	const struct suite_step *st = c->step;
	unsigned np = suite_round_points(st), tracked = steady_round_tracked(st);
	char suffix[96];
	struct job_spec spec;

	for (unsigned k = 0; k < np; k++) {
		unsigned point = round * np + k;

		if (suite_point_kept(c, step_id, point)) {
			if (k == tracked)
				*figure = suite_kept_figure(c, step_id, point);
			continue;
		}
		suite_round_suffix(st, round, k, suffix, sizeof(suffix));
		suite_step_spec(c, st, suffix, &spec);
		spec.group_reporting = true;
		if (steady_round_apply(st, k, &spec) || job_spec_validate(&spec)) {
			c->exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		if (suite_run_one(c, &spec, step_id, point, k == tracked ? figure : NULL))
			return -1;
	}
	return 0;
}

/* Rounds of the workload until steady state (SNIA PTS) or max_rounds;
 * every point of every round is a stored result (point = round x points
 * per round + its index), the verdict is the step's detail. A resume
 * keeps the points stored before the interruption and continues after
 * them, but the window restarts after the last round it touched: the
 * drive idled (and recovered) in between, so a window across the gap
 * proves nothing; at least one window of rounds runs after a resume, even
 * past max_rounds. */
int suite_do_steady(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct steady_limits l = {
		.window = st->window ? st->window : 5,
		.max_rounds = st->max_rounds ? st->max_rounds : 25,
		.range_limit = st->range_limit > 0 ? st->range_limit : 0.20,
		.slope_limit = st->slope_limit > 0 ? st->slope_limit : 0.10,
	};
	unsigned np = suite_round_points(st);
	unsigned kept_points = suite_resume_prefix(&c->resume, step_id);
	unsigned kept = (kept_points + np - 1) / np, full = kept_points / np, n;
	unsigned after = l.window < l.max_rounds ? l.window : l.max_rounds;
	double *values = calloc((size_t)kept + l.max_rounds + l.window, sizeof(*values));
	struct steady_progress pr = { .values = values, .window_start = kept };
	uint64_t start, len;
	struct job_spec spec;
	int rc = 0;

	c->exit_code = EXIT_RUN_FAILED;
	if (!values)
		return err_set("out of memory");
	if (st->write_capacities > 0) {
		suite_step_spec(c, st, "", &spec);
		if (suite_spec_range(c, &spec, &start, &len)) {
			free(values);
			return -1;
		}
		pr.write_limit = (uint64_t)(st->write_capacities * (double)len);
		pr.written = kept_written(c, step_id);
	}
	for (n = 0; n < full; n++)
		values[n] = suite_kept_figure(c, step_id, n * np + steady_round_tracked(st));
	if (kept)
		suite_log(c, "kept %u round%s; the steady-state window starts again at round %u",
			 kept, kept == 1 ? "" : "s", kept + 1);
	while (rc == 0 && (n < l.max_rounds || (kept && n - kept < after))) {
		uint64_t before = c->step_bytes;

		if (pr.write_limit && pr.written >= pr.write_limit)
			break;
		if ((rc = run_round(c, step_id, n, &values[n])))
			break;
		pr.written += c->step_bytes - before;
		n++;
		pr.n = n;
		if (n <= kept)
			continue;   /* a round cut by the interruption, finished */
		if ((rc = steady_check(values + kept, n - kept, l.window, l.range_limit,
				       l.slope_limit, &pr.v))) {
			c->exit_code = EXIT_BAD_INPUT;
			break;
		}
		if (!c->o->progress_tty)
			suite_log(c, "round %u: %s %.6g", n, metric_name(st->metric), values[n - 1]);
		if (pr.v.reached && !pr.steady_round)
			pr.steady_round = n;
		if (pr.v.reached && !pr.write_limit)
			break;
	}
	pr.n = n;
	if (rc == 0)
		rc = steady_detail(c, step_id, &l, &pr);
	if (rc == 0 && pr.write_limit)
		suite_log(c, "wrote %.3f of %.3f GB in %u rounds; steady state %s", pr.written / 1e9,
			  pr.write_limit / 1e9, n, pr.steady_round ? "reached" : "not reached");
	else if (rc == 0)
		suite_log(c, "steady state %s after %u rounds", pr.v.reached ? "reached" : "not reached",
			  n);
	free(values);
	return rc;
}
