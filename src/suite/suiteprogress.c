/* suiteprogress.c - what a running suite shows: the ETA of a step and of
 * the suite (time-based steps from their nominal time, size-based ones at
 * the throughput seen so far), the terminal status line redrawn about once
 * a second from the runner's progress hook, and plain log lines. */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "suite/sprandom.h"
#include "suite/steadyround.h"
#include "suite/suitectx.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/units.h"

/* --- estimates ------------------------------------------------------------ */

static unsigned step_repeats(const struct suite_step *st)
{
	unsigned repeat = st->repeat ? st->repeat : 1;

	if (st->kind == STEP_SWEEP)
		return (st->nr_points ? st->nr_points : 1) * repeat;
	if (st->kind == STEP_STEADY)   /* an upper bound */
		return (st->max_rounds ? st->max_rounds : 25) * suite_round_points(st);
	return repeat;
}

/* What a step will take: *seconds for time-based work, *bytes for
 * size-based work (either may be 0). */
void suite_step_estimate(const struct suite_ctx *c, const struct suite_step *st,
			  double *seconds, uint64_t *bytes)
{
	uint64_t size = st->spec.size ? st->spec.size : c->target.size;

	*seconds = 0;
	*bytes = 0;
	switch (st->kind) {
	case STEP_PURGE:
		return;
	case STEP_IDLE:
		*seconds = (double)st->idle_ns / 1e9;
		return;
	case STEP_PRECONDITION:
		if (st->precondition == PRECOND_SPRANDOM) {
			struct sprandom_plan plan;

			if (sprandom_plan(st->iu ? size / st->iu * st->iu : size, st->op,
					  st->regions, st->iu, &plan) == 0) {
				*bytes = plan.total_bytes;
				sprandom_plan_free(&plan);
			}
			err_clear();
			return;
		}
		*bytes = (uint64_t)((st->capacities > 0 ? st->capacities : 1) * (double)size);
		return;
	default:
		break;
	}
	if (st->spec.time_based || st->spec.runtime_ns)
		*seconds = (double)(st->spec.ramp_ns + st->spec.runtime_ns) / 1e9 * step_repeats(st);
	if (st->kind == STEP_SWEEP || st->kind == STEP_MEASURE)
		*seconds += (double)st->pause_ns / 1e9 * step_repeats(st);
	/* time_based: the runtime, whatever the size (fio's rule) */
	if (st->kind != STEP_SWEEP && !st->spec.time_based)
		*bytes = (st->spec.io_size ? st->spec.io_size : size) * step_repeats(st);
}

/* Seconds a step will take, or -1 when unknown (size-based work before
 * any throughput was seen). */
static double step_seconds(const struct suite_ctx *c, const struct suite_step *st)
{
	double seconds;
	uint64_t bytes;

	suite_step_estimate(c, st, &seconds, &bytes);
	if (!bytes)
		return seconds;
	if (c->work_seconds <= 0 || c->work_bytes <= 0)
		return -1;
	return seconds + (double)bytes * c->work_seconds / c->work_bytes;
}

/* --- progress ------------------------------------------------------------- */

void suite_log(const struct suite_ctx *c, const char *fmt, ...)
{
	char stamp[16], text[1024];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "?");
	fprintf(stderr, "%s[%s] step %u/%u %s %s: %s\n",
		c->o->progress_tty ? "\r\033[K" : "", stamp, c->position + 1,
		c->nr_selected, c->step->name, step_kind_name(c->step->kind), text);
}

void suite_eta(const struct suite_ctx *c, uint64_t now, double *step_left, double *suite_left)
{
	double elapsed = (double)(now - c->step_start_ns) / 1e9;
	double seconds;
	uint64_t bytes;

	*step_left = -1;
	suite_step_estimate(c, c->step, &seconds, &bytes);
	if (c->step_planned_bytes && c->rate_bps > 0) {
		uint64_t done = c->step_bytes + c->phase_bytes;

		*step_left = done < c->step_planned_bytes ?
			(double)(c->step_planned_bytes - done) / c->rate_bps : 0;
	} else if (!bytes) {
		*step_left = seconds > elapsed ? seconds - elapsed : 0;
	}
	*suite_left = *step_left;
	if (*suite_left >= 0) {
		double after = suite_eta_from(c, c->position + 1);

		*suite_left = after < 0 ? -1 : *suite_left + after;
	}
}

double suite_eta_from(const struct suite_ctx *c, unsigned from)
{
	double left = 0;

	for (unsigned i = from; i < c->nr_selected && left >= 0; i++) {
		double more = step_seconds(c, &c->s->steps[c->selected[i]]);

		left = more < 0 ? -1 : left + more;
	}
	return left;
}

void suite_write_metrics(struct suite_ctx *c, const struct job_result *entries, unsigned nr)
{
	uint64_t now = clock_now_ns();
	double step_left, suite_left, elapsed = (double)(now - c->step_start_ns) / 1e9;
	struct metrics_context ctx = {
		.command = c->o->command_name ? c->o->command_name : "suite",
		.step = c->step->name, .step_index = c->position + 1, .nr_steps = c->nr_selected,
		.point = c->point, .drive = c->drive, .drive_delta = c->drive_delta,
	};

	if (!c->o->metrics_file)
		return;
	suite_eta(c, now, &step_left, &suite_left);
	ctx.eta_s = suite_left;
	ctx.progress = step_left < 0 ? 0 : step_left + elapsed > 0 ? elapsed / (step_left + elapsed) : 1;
	if (metrics_write(c->o->metrics_file, entries, nr, &ctx, &c->metrics, now))
		fprintf(stderr, "%sdrivebench: %s\n", c->o->progress_tty ? "\r\033[K" : "", err_msg());
}

/* Redraws the terminal status line: step, elapsed, ETAs, current rate. */
void suite_draw_status(struct suite_ctx *c, uint64_t now)
{
	double elapsed = (double)(now - c->step_start_ns) / 1e9;
	double step_left, suite_left;
	char took[32], eta_step[32] = "?", eta_suite[32] = "?", rate[32] = "-";

	if (!c->o->progress_tty)
		return;
	c->last_draw_ns = now;
	suite_eta(c, now, &step_left, &suite_left);
	units_format_clock(elapsed, took, sizeof(took));
	if (step_left >= 0)
		units_format_clock(step_left, eta_step, sizeof(eta_step));
	if (suite_left >= 0)
		units_format_clock(suite_left, eta_suite, sizeof(eta_suite));
	if (c->rate_bps > 0)
		units_format_rate(c->rate_bps, UNITS_RATE_MB_GB, 0, rate, sizeof(rate));
	fprintf(stderr, "\r\033[Kstep %u/%u %s %s  %s  ETA step %s  suite %s  %s",
		c->position + 1, c->nr_selected, c->step->name,
		step_kind_name(c->step->kind), took, eta_step, eta_suite, rate);
	fflush(stderr);
}

/* The runner's progress hook: bytes the running phase has measured. */
void suite_on_progress(void *arg, uint64_t bytes)
{
	struct suite_ctx *c = arg;
	uint64_t now = clock_now_ns();

	if (c->sample_ns && now > c->sample_ns) {
		/* a new phase or the end of a ramp restarts the count */
		uint64_t moved = bytes >= c->sample_bytes ? bytes - c->sample_bytes : bytes;

		c->rate_bps = (double)moved * 1e9 / (double)(now - c->sample_ns);
	}
	c->sample_bytes = bytes;
	c->sample_ns = now;
	c->phase_bytes = bytes;
	suite_draw_status(c, now);
}
