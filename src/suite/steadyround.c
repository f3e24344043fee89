/* steadyround.c - a steady step's round as the PTS defines one: every
 * point of its mixes x block sizes x QD/jobs points (each list empty when
 * the spec's one value is meant), the point whose figure the steady-state
 * test tracks, the checks of those lists, and each point's workload with
 * the values noted in its stored options. */
#include "suite/steadyround.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static unsigned count_or_one(unsigned n)
{
	return n ? n : 1;
}

unsigned suite_round_points(const struct suite_step *st)
{
	return count_or_one(st->nr_mixes) * count_or_one(st->nr_block_sizes) *
	       count_or_one(st->nr_points);
}

struct round_point steady_round_point(const struct suite_step *st, unsigned k)
{
	unsigned np = count_or_one(st->nr_points), nb = count_or_one(st->nr_block_sizes);
	struct round_point p = { 0 };

	if (st->nr_points) {
		p.has_qd = true;
		p.iodepth = st->points[k % np].iodepth;
		p.numjobs = st->points[k % np].numjobs;
	}
	if (st->nr_block_sizes) {
		p.has_bs = true;
		p.bs = st->block_sizes[(k / np) % nb];
	}
	if (st->nr_mixes) {
		p.has_mix = true;
		p.mix = st->mixes[(k / np / nb) % st->nr_mixes];
	}
	return p;
}

unsigned steady_round_tracked(const struct suite_step *st)
{
	unsigned n = suite_round_points(st);

	for (unsigned k = 0; k < n; k++) {
		struct round_point p = steady_round_point(st, k);

		if ((!st->has_track_mix || p.mix == st->track_mix) &&
		    (!st->has_track_bs || p.bs == st->track_bs) &&
		    (!st->has_track_point || (p.iodepth == st->track_point.iodepth &&
					      p.numjobs == st->track_point.numjobs)))
			return k;
	}
	return 0;   /* steady_round_check refuses a tracked value not in its list */
}

/* One list's tracked value: required with two values or more, one of them. */
static int check_tracked(const char *list, const char *key, unsigned n, bool has, bool found)
{
	if (has && !n)
		return err_set("%s needs %s (the round's values it picks from)", key, list);
	if (n > 1 && !has)
		return err_set("a round of %u %s needs %s: the one whose figure is tracked", n, list,
			       key);
	if (has && !found)
		return err_set("%s is not one of the %s", key, list);
	return 0;
}

int steady_round_check(const struct suite_step *st)
{
	const struct job_spec *spec = &st->spec;
	bool found;

	if (st->nr_mixes && spec->rw != RW_RANDRW && spec->rw != RW_READWRITE)
		return err_set("mixes set the read share of a mixed workload: rw=randrw or rw=rw, "
			       "not rw=%s", job_spec_rw_name(spec->rw));
	if (st->nr_block_sizes && (spec->bssplit_nr[DIR_READ] || spec->bssplit_nr[DIR_WRITE]))
		return err_set("block_sizes and bssplit exclude each other");
	found = false;
	for (unsigned i = 0; i < st->nr_mixes; i++)
		found = found || st->mixes[i] == st->track_mix;
	if (check_tracked("mixes", "track_mix", st->nr_mixes, st->has_track_mix, found))
		return -1;
	found = false;
	for (unsigned i = 0; i < st->nr_block_sizes; i++)
		found = found || st->block_sizes[i] == st->track_bs;
	if (check_tracked("block_sizes", "track_bs", st->nr_block_sizes, st->has_track_bs, found))
		return -1;
	found = false;
	for (unsigned i = 0; i < st->nr_points; i++)
		found = found || (st->points[i].iodepth == st->track_point.iodepth &&
				  st->points[i].numjobs == st->track_point.numjobs);
	if (check_tracked("points", "track_point", st->nr_points, st->has_track_point, found))
		return -1;
	/* the step counts the bytes its rounds moved: writes only */
	if (st->write_capacities > 0 && (!job_spec_writes(spec) || job_spec_reads(spec)))
		return err_set("write_capacities needs a workload that only writes (rw=write or "
			       "randwrite, not rw=%s)", job_spec_rw_name(spec->rw));
	return 0;
}

int suite_spec_note(struct job_spec *spec, const char *key, const char *value)
{
	char *text = spec->options_text;
	size_t used = strlen(text);
	int n = snprintf(text + used, sizeof(spec->options_text) - used, "%s%s=%s\n",
			 used && text[used - 1] != '\n' ? "\n" : "", key, value);

	if (n < 0 || (size_t)n >= sizeof(spec->options_text) - used) {
		text[used] = '\0';
		return err_set("job '%s': its options and %s= do not fit in %zu bytes",
			       spec->name, key, sizeof(spec->options_text));
	}
	return 0;
}

int suite_spec_qd(struct job_spec *spec, unsigned iodepth, unsigned numjobs)
{
	char value[16];

	spec->iodepth = iodepth;
	spec->numjobs = numjobs;
	snprintf(value, sizeof(value), "%u", iodepth);
	if (suite_spec_note(spec, "iodepth", value))
		return -1;
	snprintf(value, sizeof(value), "%u", numjobs);
	return suite_spec_note(spec, "numjobs", value);
}

int steady_round_apply(const struct suite_step *st, unsigned k, struct job_spec *spec)
{
	struct round_point p = steady_round_point(st, k);
	char value[32];

	if (p.has_mix) {
		spec->rwmixread = p.mix;
		snprintf(value, sizeof(value), "%u", p.mix);
		if (suite_spec_note(spec, "rwmixread", value))
			return -1;
	}
	if (p.has_bs) {
		for (int d = 0; d < DIR_ALL; d++)
			spec->bs[d] = p.bs;
		snprintf(value, sizeof(value), "%" PRIu64, p.bs);
		if (suite_spec_note(spec, "bs", value))
			return -1;
	}
	if (p.has_qd)
		return suite_spec_qd(spec, p.iodepth, p.numjobs);
	return 0;
}
