/* plan.c - the cost of a suite before it runs: per step the bytes written
 * and read and the duration, from the target's capacity and sequential
 * (and optionally random) throughput; and what sprandom would save over the
 * suite's full fills. Pure arithmetic, no I/O. docs/suites.md gives the
 * rules each figure follows. */
#include "suite/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "suite/sprandom.h"
#include "util/error.h"
#include "workload/checkpoint.h"

static double ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* The bytes a step's job covers: size / size% / the rest past offset. */
static uint64_t region_bytes(const struct job_spec *spec, uint64_t capacity)
{
	uint64_t offset = spec->offset < capacity ? spec->offset : capacity;

	if (spec->size_pct > 0)
		return (uint64_t)((double)capacity * spec->size_pct / 100.0);
	if (spec->size > 0)
		return spec->size < capacity - offset ? spec->size : capacity - offset;
	return capacity - offset;
}

static double write_rate(const struct job_spec *spec, const struct plan_inputs *in)
{
	if (job_spec_random(spec) && in->random_write_bps > 0)
		return in->random_write_bps;
	return in->write_bps;
}

/* Shares of the transferred bytes that read and write (mixed: rwmixread). */
static void direction_shares(const struct job_spec *spec, double *read_share,
			     double *write_share)
{
	bool reads = job_spec_reads(spec), writes = job_spec_writes(spec);

	if (reads && writes) {
		*read_share = spec->rwmixread / 100.0;
		*write_share = 1.0 - *read_share;
	} else {
		*read_share = reads ? 1.0 : 0.0;
		*write_share = writes ? 1.0 : 0.0;
	}
}

/* One run of the step's workload (a point, a round): seconds and bytes.
 * Time-based: ramp + runtime, transferring at the sequential rate the whole
 * time (an upper bound on bytes). Otherwise io_size (or the region) at
 * those rates, cut at runtime when one is set. */
static double one_run(const struct job_spec *spec, const struct plan_inputs *in,
		      double *written, double *read)
{
	double read_share, write_share, seconds, bytes_per_s;
	double wrate = write_rate(spec, in);

	direction_shares(spec, &read_share, &write_share);
	/* bytes/s of the mix: time per byte is the weighted sum */
	bytes_per_s = 1.0 / (read_share / in->read_bps + write_share / wrate);
	if (spec->time_based && spec->runtime_ns > 0) {
		seconds = ns_to_s(spec->ramp_ns + spec->runtime_ns);
	} else {
		/* each clone moves its own bytes; the drive's rate is shared */
		double bytes = (double)(spec->io_size ? spec->io_size
					: region_bytes(spec, in->capacity)) *
			       (spec->numjobs ? spec->numjobs : 1);

		seconds = bytes / bytes_per_s;
		if (spec->runtime_ns > 0 && seconds > ns_to_s(spec->runtime_ns))
			seconds = ns_to_s(spec->runtime_ns);
		seconds += ns_to_s(spec->ramp_ns);
	}
	*written = seconds * bytes_per_s * write_share;
	*read = seconds * bytes_per_s * read_share;
	return seconds;
}

static void put_bytes(double bytes, uint64_t *out)
{
	*out = bytes > 0 ? (uint64_t)(bytes + 0.5) : 0;
}

/* A sprandom pass over region: its bytes and seconds (the sequential write
 * at write_bps, the overwrites at the random rate). */
static int sprandom_cost(uint64_t region, double op, unsigned regions, uint64_t iu,
			 const struct plan_inputs *in, uint64_t *bytes, double *seconds)
{
	struct sprandom_plan sp;
	double random_bps = in->random_write_bps > 0 ? in->random_write_bps : in->write_bps;
	uint64_t aligned = iu ? region / iu * iu : region;

	if (sprandom_plan(aligned, op, regions, iu, &sp))
		return -1;
	*bytes = sp.total_bytes;
	*seconds = (double)aligned / in->write_bps;
	if (sp.total_bytes > aligned)
		*seconds += (double)(sp.total_bytes - aligned) / random_bps;
	sprandom_plan_free(&sp);
	return 0;
}

static int plan_precondition(const struct suite_step *st, const struct plan_inputs *in,
			     struct plan_step *out)
{
	uint64_t region = region_bytes(&st->spec, in->capacity);
	double bytes = st->capacities * (double)region;

	switch (st->precondition) {
	case PRECOND_SEQUENTIAL:
		put_bytes(bytes, &out->bytes_written);
		out->seconds = bytes / in->write_bps;
		snprintf(out->basis, sizeof(out->basis),
			 "%g x %.2f TB sequential at %.0f MB/s", st->capacities,
			 (double)region / 1e12, in->write_bps / 1e6);
		return 0;
	case PRECOND_RANDOM: {
		double rate = in->random_write_bps > 0 ? in->random_write_bps : in->write_bps;

		put_bytes(bytes, &out->bytes_written);
		out->seconds = bytes / rate;
		snprintf(out->basis, sizeof(out->basis),
			 "%g x %.2f TB random at %.0f MB/s", st->capacities,
			 (double)region / 1e12, rate / 1e6);
		return 0;
	}
	case PRECOND_SPRANDOM:
		if (sprandom_cost(region, st->op, st->regions, st->iu, in,
				  &out->bytes_written, &out->seconds))
			return err_prefix("step '%s'", st->name);
		snprintf(out->basis, sizeof(out->basis),
			 "sprandom: %.2f TB once + overwrites (op %.0f%%, %u regions)",
			 (double)region / 1e12, st->op * 100, st->regions);
		return 0;
	}
	return err_set("step '%s': unknown precondition mode", st->name);
}

/* Checkpoint passes: count (or as many as fit in the capacity x fill)
 * checkpoints per pass, written at the sequential rate. */
static int plan_checkpoint(const struct suite_step *st, const struct plan_inputs *in,
			   struct plan_step *out)
{
	struct dlio_plan plan;
	unsigned count;
	double written;

	if (checkpoint_plan_for(st->checkpoint_model, st->checkpoint_size,
				st->checkpoint_ranks, &plan))
		return err_prefix("step '%s'", st->name);
	count = st->checkpoint_count ? st->checkpoint_count :
		checkpoint_count_for_space(in->capacity, st->checkpoint_fill, plan.total_bytes);
	written = (double)plan.total_bytes * count * st->checkpoint_passes;
	put_bytes(written, &out->bytes_written);
	out->seconds = written / in->write_bps;
	snprintf(out->basis, sizeof(out->basis),
		 "%u passes x %u checkpoints of %.2f GB at sequential rate",
		 st->checkpoint_passes, count, (double)plan.total_bytes / 1e9);
	dlio_plan_free(&plan);
	return 0;
}

/* Steady rounds: an upper bound of max_rounds rounds of every point of
 * the round (PTS IOPS: 25 x 56 one-minute points; at least `window` of
 * them run); with write_capacities, the rounds until that many capacities
 * are written at the random write rate, when that comes first. */
static int plan_steady(const struct suite_step *st, const struct plan_inputs *in,
		       struct plan_step *out)
{
	unsigned points = suite_round_points(st);
	double written, read, seconds = one_run(&st->spec, in, &written, &read);
	double rounds = st->max_rounds;
	char each[48];

	if (points > 1)
		snprintf(each, sizeof(each), "%u points x %.3g s", points, seconds);
	else
		snprintf(each, sizeof(each), "%.3g s", seconds);
	if (st->write_capacities > 0) {
		double bytes = st->write_capacities * (double)region_bytes(&st->spec, in->capacity);
		double needs = bytes / write_rate(&st->spec, in) / (seconds * points);

		if (needs < rounds) {
			rounds = ceil(needs);
			out->seconds = bytes / write_rate(&st->spec, in);
			put_bytes(bytes, &out->bytes_written);
			snprintf(out->basis, sizeof(out->basis),
				 "%g x %.2f TB at %.0f MB/s: about %.0f rounds of %s (at most %u)",
				 st->write_capacities, (double)region_bytes(&st->spec, in->capacity) / 1e12,
				 write_rate(&st->spec, in) / 1e6, rounds, each, st->max_rounds);
			return 0;
		}
	}
	out->seconds = seconds * points * rounds;
	if (st->write_capacities <= 0)   /* those rounds go on, steady or not */
		out->least_seconds = seconds * points *
			(st->window < st->max_rounds ? st->window : st->max_rounds);
	put_bytes(written * points * rounds, &out->bytes_written);
	put_bytes(read * points * rounds, &out->bytes_read);
	snprintf(out->basis, sizeof(out->basis), "upper bound: %u rounds x %s (at least %u)",
		 st->max_rounds, each, st->window);
	return 0;
}

static int plan_one(const struct suite_step *st, const struct plan_inputs *in,
		    struct plan_step *out)
{
	double written = 0, read = 0, seconds;

	memset(out, 0, sizeof(*out));
	out->least_seconds = -1;   /* unless the step's kind says less: seconds */
	out->step = st;
	switch (st->kind) {
	case STEP_PURGE:
		if (in->purge_instant && (st->purge == PURGE_DISCARD ||
					  st->purge == PURGE_STRONGEST)) {
			snprintf(out->basis, sizeof(out->basis), "a file's hole punch or a model's "
				 "format: no wait");
			return 0;
		}
		/* the strongest a drive offers is not known here: a format's time */
		out->seconds = st->purge == PURGE_DISCARD ? PLAN_PURGE_SECONDS
			: PLAN_FORMAT_SECONDS;
		snprintf(out->basis, sizeof(out->basis), "%s: fixed estimate",
			 st->purge == PURGE_DISCARD ? "discard" : purge_method_name(st->purge));
		return 0;
	case STEP_PRECONDITION:
		return plan_precondition(st, in, out);
	case STEP_STEADY:
		return plan_steady(st, in, out);
	case STEP_MEASURE:
	case STEP_SWEEP: {
		unsigned points = st->kind == STEP_SWEEP ? st->nr_points * (st->repeat ? st->repeat : 1)
			: 1;

		seconds = one_run(&st->spec, in, &written, &read);
		out->seconds = (seconds + ns_to_s(st->pause_ns)) * points;
		put_bytes(written * points, &out->bytes_written);
		put_bytes(read * points, &out->bytes_read);
		if (st->pause_ns)
			snprintf(out->basis, sizeof(out->basis),
				 "%u point%s x (%.3g s + %.3g s pause); bytes at sequential "
				 "rate (upper bound)", points, points == 1 ? "" : "s",
				 seconds, ns_to_s(st->pause_ns));
		else
			snprintf(out->basis, sizeof(out->basis),
				 "%u point%s x %.3g s; bytes at sequential rate (upper bound)",
				 points, points == 1 ? "" : "s", seconds);
		return 0;
	}
	case STEP_IDLE:
		out->seconds = ns_to_s(st->idle_ns);
		snprintf(out->basis, sizeof(out->basis), "pause");
		return 0;
	case STEP_CHECKPOINT:
		return plan_checkpoint(st, in, out);
	}
	return err_set("step '%s': unknown kind", st->name);
}

static int check_inputs(const struct plan_inputs *in)
{
	if (in->capacity == 0)
		return err_set("plan: capacity must be above 0");
	if (!(in->write_bps > 0))
		return err_set("plan: write throughput must be above 0");
	if (!(in->read_bps > 0))
		return err_set("plan: read throughput must be above 0");
	if (!(in->random_write_bps >= 0))
		return err_set("plan: random write throughput must not be negative");
	return 0;
}

int suite_plan(const struct suite *s, const struct plan_inputs *in,
	       struct plan_step *out, uint64_t *total_written, double *total_seconds)
{
	uint64_t written = 0;
	double seconds = 0;

	if (check_inputs(in))
		return -1;
	for (unsigned i = 0; i < s->nr_steps; i++) {
		if (plan_one(&s->steps[i], in, &out[i]))
			return -1;
		if (out[i].least_seconds < 0)
			out[i].least_seconds = out[i].seconds;
		written += out[i].bytes_written;
		seconds += out[i].seconds;
	}
	*total_written = written;
	*total_seconds = seconds;
	return 0;
}

int plan_sprandom_saving(const struct suite *s, const struct plan_inputs *in,
			 const struct plan_step *steps, struct plan_fill_saving *out)
{
	memset(out, 0, sizeof(*out));
	if (check_inputs(in))
		return -1;
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct suite_step *st = &s->steps[i];
		uint64_t bytes;
		double seconds;

		if (st->kind != STEP_PRECONDITION || st->precondition == PRECOND_SPRANDOM)
			continue;
		if (sprandom_cost(region_bytes(&st->spec, in->capacity), st->op, st->regions,
				  st->iu, in, &bytes, &seconds))
			return err_prefix("step '%s'", st->name);
		out->nr_fills++;
		out->fill_bytes += steps[i].bytes_written;
		out->fill_seconds += steps[i].seconds;
		out->sprandom_bytes += bytes;
		out->sprandom_seconds += seconds;
	}
	return 0;
}
