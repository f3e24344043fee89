/* stepparams.c - the step parameters of a suite file (window, points,
 * capacities, checkpoint sizes ...): their values, their ranges and their
 * defaults. Messages carry no file or line; suitefile.c adds them. */
#include "suite/stepparams.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"
#include "util/units.h"
#include "job/options.h"
#include "device/fs_setup.h"

#define NS_PER_SEC 1000000000ull

/* The ranges of the step parameters (docs/suites.md). */
#define STEP_CAPACITIES_MAX 100.0
#define STEP_REGIONS_MAX 1024u
#define STEP_ROUNDS_MAX 10000u
#define STEP_TIME_MAX (86400 * NS_PER_SEC)
#define STEP_RANKS_MAX 65536u
#define STEP_PASSES_MAX 10000u
#define STEP_COUNT_MAX 1000000u
#define STEP_IU_MAX (4ull << 30)
#define STEP_CHECKPOINT_MAX (1ull << 60)
#define STEP_REPEAT_MAX 1000000u

/* ---- values (messages without file:line; suitefile.c adds them) ------- */

/* A whole number within [min, max] (units_parse_count), in the suite's
 * words: "not a whole number: 'x'", "N is too large, the range is ..". */
static int parse_unsigned(const char *text, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int rc = units_parse_count(text, min, max, &v);
	/* digits past 2^64 are a number too, and too large */
	bool digits = text && *text && strspn(text, "0123456789") == strlen(text);

	if (rc == -1 && !digits)
		return err_set("not a whole number: '%s'", text ? text : "");
	if (rc)
		return err_set("%s is too %s, the range is %u..%u", text,
			       rc == -2 && strtoull(text, NULL, 10) < min ? "small" : "large",
			       min, max);
	*out = (unsigned)v;
	return 0;
}

static int parse_positive_double(const char *text, double *out)
{
	char *end;
	double v;

	if (!text || !*text)
		return err_set("needs a value");
	errno = 0;
	v = strtod(text, &end);
	if (errno || *end || !isfinite(v) || v <= 0)
		return err_set("not a positive number: '%s'", text);
	*out = v;
	return 0;
}

/* "180s", "3m"; a bare number is seconds. */
static int parse_duration(const char *text, uint64_t *ns)
{
	if (!text || parse_time_ns(text, NS_PER_SEC, ns))
		return err_set("bad time '%s'", text ? text : "");
	return 0;
}

/* A step parameter's decimal number within (0, max]. */
static int parse_bounded_double(const char *text, double max, double *out)
{
	if (parse_positive_double(text, out))
		return -1;
	if (*out > max)
		return err_set("%s is too large, the range is 0 < N <= %g", text, max);
	return 0;
}

/* A duration within [0, max], "180s" or seconds. */
static int parse_bounded_duration(const char *text, uint64_t max_ns, uint64_t *ns)
{
	if (parse_duration(text, ns))
		return -1;
	if (*ns > max_ns)
		return err_set("%s is too large, the range is 0..%llud", text,
			       (unsigned long long)(max_ns / (86400 * NS_PER_SEC)));
	return 0;
}

/* "7%" -> 0.07, "0.07" -> 0.07; a fraction must be in (0, 1). */
static int parse_fraction(const char *text, double *out)
{
	char buf[64];
	size_t len = text ? strlen(text) : 0;
	double v;

	if (!len || len >= sizeof(buf))
		return err_set("bad fraction '%s' (write 7%% or 0.07)", text ? text : "");
	memcpy(buf, text, len + 1);
	if (buf[len - 1] == '%') {
		buf[len - 1] = '\0';
		if (parse_positive_double(text_trim(buf), &v) || v >= 100)
			return err_set("bad percentage '%s' (between 0%% and 100%%)", text);
		*out = v / 100.0;
		return 0;
	}
	if (parse_positive_double(buf, &v) || v >= 1)
		return err_set("bad fraction '%s' (write 7%% or 0.07)", text);
	*out = v;
	return 0;
}

static int parse_bool(const char *text, bool *out)
{
	if (!units_parse_bool(text, out))
		return err_set("not a boolean: '%s' (0 or 1)", text);
	return 0;
}

/* A point sets the job's iodepth and numjobs, so those options' limits
 * apply (points = 4294967295/4294967295 used to pass; see docs/fuzzing.md). */
static int check_point_limits(unsigned iodepth, unsigned numjobs)
{
	struct job_spec *probe = malloc(sizeof(*probe));
	char value[16];
	int rc = 0;

	if (!probe)
		return err_set("out of memory");
	job_spec_defaults(probe);
	snprintf(value, sizeof(value), "%u", iodepth);
	if (job_option_set(probe, "iodepth", value)) {
		rc = err_prefix("point %u/%u", iodepth, numjobs);
	} else {
		snprintf(value, sizeof(value), "%u", numjobs);
		if (job_option_set(probe, "numjobs", value))
			rc = err_prefix("point %u/%u", iodepth, numjobs);
	}
	free(probe);
	return rc;
}

int step_point_add(struct suite_step *step, unsigned iodepth, unsigned numjobs)
{
	if (step->nr_points == SUITE_POINTS_MAX)
		return err_set("more than %d points", SUITE_POINTS_MAX);
	if (check_point_limits(iodepth, numjobs))
		return -1;
	step->points[step->nr_points].iodepth = iodepth;
	step->points[step->nr_points].numjobs = numjobs;
	step->nr_points++;
	return 0;
}

/* "1/1 2/1 4/1" (blanks or commas between points): QD/jobs. */
static int parse_points(const char *text, struct suite_step *step)
{
	char *copy = strdup(text ? text : ""), *save = NULL, *token;
	int rc = 0;

	if (!copy)
		return err_set("out of memory");
	for (token = strtok_r(copy, " \t,", &save); token && !rc;
	     token = strtok_r(NULL, " \t,", &save)) {
		char *slash = strchr(token, '/');
		unsigned qd, jobs;

		if (!slash) {
			rc = err_set("bad point '%s' (write QD/jobs, e.g. 4/1)", token);
			break;
		}
		*slash = '\0';
		if (parse_unsigned(token, 1, UINT_MAX, &qd) ||
		    parse_unsigned(slash + 1, 1, UINT_MAX, &jobs)) {
			*slash = '/';
			rc = err_prefix("bad point '%s' (write QD/jobs, both at least 1)", token);
			break;
		}
		rc = step_point_add(step, qd, jobs);
	}
	free(copy);
	if (!rc && step->nr_points == 0)
		rc = err_set("no points given");
	return rc;
}

/* "1,2,4,8" -> values; at least one. */
static int parse_list(const char *text, unsigned limit, unsigned *values, unsigned max,
		      unsigned *nr)
{
	char *copy = strdup(text ? text : ""), *save = NULL, *token;
	int rc = 0;

	if (!copy)
		return err_set("out of memory");
	*nr = 0;
	for (token = strtok_r(copy, " \t,", &save); token && !rc;
	     token = strtok_r(NULL, " \t,", &save)) {
		if (*nr == max)
			rc = err_set("more than %u values", max);
		else
			rc = parse_unsigned(token, 1, limit, &values[(*nr)++]);
	}
	free(copy);
	if (!rc && *nr == 0)
		rc = err_set("no values given");
	return rc;
}


static int parse_precondition(const char *v, enum precondition_mode *out)
{
	if (v && !strcmp(v, "sequential"))
		*out = PRECOND_SEQUENTIAL;
	else if (v && !strcmp(v, "random"))
		*out = PRECOND_RANDOM;
	else if (v && !strcmp(v, "sprandom"))
		*out = PRECOND_SPRANDOM;
	else
		return err_set("unknown mode '%s' (sequential, random, sprandom)", v ? v : "");
	return 0;
}

static int parse_metric(const char *v, enum steady_metric *out)
{
	if (v && !strcmp(v, "iops"))
		*out = STEADY_IOPS;
	else if (v && !strcmp(v, "bw"))
		*out = STEADY_BW;
	else if (v && !strcmp(v, "lat"))
		*out = STEADY_LAT_MEAN;
	else
		return err_set("unknown metric '%s' (iops, bw, lat)", v ? v : "");
	return 0;
}

/* sprandom's indirection unit, in the step's kb_base. */
static int parse_iu(const char *v, struct suite_step *step)
{
	if (!v || parse_size(v, step->spec.kb_base, &step->iu))
		return err_set("bad size '%s'", v ? v : "");
	if (step->iu == 0 || step->iu > STEP_IU_MAX)
		return err_set("%s is too %s, the range is 1 byte..4 GiB", v,
			       step->iu ? "large" : "small");
	return 0;
}

static int parse_model(const char *v, struct suite_step *step)
{
	if (!v || !v[0] || strlen(v) >= sizeof(step->checkpoint_model))
		return err_set("bad model name '%s'", v ? v : "");
	snprintf(step->checkpoint_model, sizeof(step->checkpoint_model), "%s", v);
	return 0;
}

static int parse_checkpoint_size(const char *v, uint64_t *size)
{
	/* decimal units, as the reviews quote checkpoint sizes */
	if (!v || parse_size(v, 1000, size) || !*size)
		return err_set("bad size '%s'", v ? v : "");
	if (*size > STEP_CHECKPOINT_MAX)
		return err_set("%s is too large, the range is 1 byte..1 EiB", v);
	return 0;
}

/* A filesystem made on the block device for the checkpoints (DLIO on
 * XFS): the name is checked here, the target when the suite starts. */
static int parse_checkpoint_fs(const char *v, struct suite_step *step)
{
	if (!v || !fs_setup_known(v))
		return err_set("checkpoint_fs = %s: unknown filesystem (supported: %s)",
			       v ? v : "", FS_SETUP_TYPES);
	snprintf(step->checkpoint_fs, sizeof(step->checkpoint_fs), "%s", v);
	return 0;
}

/* "iops", "hir": a test's name, as a step's (letters, digits, - and _). */
static int parse_test(const char *v, struct suite_step *step)
{
	size_t len = v ? strlen(v) : 0;

	if (!len || len >= sizeof(step->test) || strspn(v, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != len)
		return err_set("bad test name '%s' (letters, digits, - and _, at most %zu)",
			       v ? v : "", sizeof(step->test) - 1);
	snprintf(step->test, sizeof(step->test), "%s", v);
	return 0;
}

/* "100,95,65": read percentages of a round's mixes, 0..100 each. */
static int parse_mixes(const char *text, struct suite_step *step)
{
	char *copy = strdup(text ? text : ""), *save = NULL, *token;
	int rc = 0;

	if (!copy)
		return err_set("out of memory");
	step->nr_mixes = 0;
	for (token = strtok_r(copy, " \t,", &save); token && !rc;
	     token = strtok_r(NULL, " \t,", &save)) {
		if (step->nr_mixes == SUITE_MIXES_MAX)
			rc = err_set("more than %d mixes", SUITE_MIXES_MAX);
		else
			rc = parse_unsigned(token, 0, 100, &step->mixes[step->nr_mixes++]);
	}
	free(copy);
	if (!rc && step->nr_mixes == 0)
		rc = err_set("no mixes given");
	return rc;
}

/* One block size, in the step's kb_base, held to the bs option's range. */
static int parse_block_size(const char *text, struct suite_step *step, uint64_t *bs)
{
	struct job_spec *probe;
	int rc = 0;

	if (!text || parse_size(text, step->spec.kb_base, bs) || !*bs)
		return err_set("bad size '%s'", text ? text : "");
	if (!(probe = malloc(sizeof(*probe))))
		return err_set("out of memory");
	job_spec_defaults(probe);
	if (job_option_set(probe, "bs", text))
		rc = -1;
	free(probe);
	return rc;
}

/* "1m,128k,4k,512": a round's block sizes. */
static int parse_block_sizes(const char *text, struct suite_step *step)
{
	char *copy = strdup(text ? text : ""), *save = NULL, *token;
	int rc = 0;

	if (!copy)
		return err_set("out of memory");
	step->nr_block_sizes = 0;
	for (token = strtok_r(copy, " \t,", &save); token && !rc;
	     token = strtok_r(NULL, " \t,", &save)) {
		if (step->nr_block_sizes == SUITE_BLOCK_SIZES_MAX)
			rc = err_set("more than %d block sizes", SUITE_BLOCK_SIZES_MAX);
		else
			rc = parse_block_size(token, step,
					      &step->block_sizes[step->nr_block_sizes++]);
	}
	free(copy);
	if (!rc && step->nr_block_sizes == 0)
		rc = err_set("no block sizes given");
	return rc;
}

/* "32/32": the one QD/jobs point tracked. */
static int parse_track_point(const char *text, struct suite_step *step)
{
	const char *slash = text ? strchr(text, '/') : NULL;
	char qd[32];

	if (!slash || (size_t)(slash - text) >= sizeof(qd))
		return err_set("bad point '%s' (write QD/jobs, e.g. 32/32)", text ? text : "");
	memcpy(qd, text, (size_t)(slash - text));
	qd[slash - text] = '\0';
	if (parse_unsigned(qd, 1, UINT_MAX, &step->track_point.iodepth) ||
	    parse_unsigned(slash + 1, 1, UINT_MAX, &step->track_point.numjobs))
		return err_prefix("bad point '%s' (write QD/jobs, both at least 1)", text);
	step->has_track_point = true;
	return check_point_limits(step->track_point.iodepth, step->track_point.numjobs);
}

static int parse_operating_point(const char *v, enum operating_point *out)
{
	if (v && !strcmp(v, "max"))
		*out = OPERATING_MAX;
	else if (v && !strcmp(v, "mid"))
		*out = OPERATING_MID;
	else if (v && !strcmp(v, "min"))
		*out = OPERATING_MIN;
	else
		return err_set("unknown operating point '%s' (max, mid, min)", v ? v : "");
	return 0;
}

/* The step an operating point is chosen from: a step's name. */
static int parse_from(const char *v, struct suite_step *step)
{
	if (!v || !v[0] || strlen(v) >= sizeof(step->operating_from))
		return err_set("bad step name '%s'", v ? v : "");
	snprintf(step->operating_from, sizeof(step->operating_from), "%s", v);
	return 0;
}

/* A latency ceiling, "5ms" (a bare number is seconds): 1 ns .. 1 day. */
static int parse_lat_ceiling(const char *v, uint64_t *ns)
{
	if (parse_bounded_duration(v, STEP_TIME_MAX, ns))
		return -1;
	if (!*ns)
		return err_set("%s is too small, the range is 1ns..1d", v);
	return 0;
}

static int set_flag(bool *flag, int rc)
{
	if (rc == 0)
		*flag = true;
	return rc;
}

/* ---- the table: every step parameter, the step kinds it applies to, and
 * how its value is read ---------------------------------------------- */

#define SETTER(name, call)                                                      \
	static int set_##name(struct suite_step *step, struct step_lists *l,    \
			      const char *v)                                    \
	{                                                                       \
		(void)step;                                                     \
		(void)l;                                                        \
		return call;                                                    \
	}

SETTER(precondition, parse_precondition(v, &step->precondition))
SETTER(capacities, parse_bounded_double(v, STEP_CAPACITIES_MAX, &step->capacities))
SETTER(op, parse_fraction(v, &step->op))
SETTER(regions, parse_unsigned(v, 1, STEP_REGIONS_MAX, &step->regions))
SETTER(iu, parse_iu(v, step))
SETTER(metric, parse_metric(v, &step->metric))
SETTER(window, parse_unsigned(v, 2, STEP_ROUNDS_MAX, &step->window))
SETTER(max_rounds, parse_unsigned(v, 1, STEP_ROUNDS_MAX, &step->max_rounds))
SETTER(range_limit, parse_fraction(v, &step->range_limit))
SETTER(slope_limit, parse_fraction(v, &step->slope_limit))
SETTER(points, parse_points(v, step))
SETTER(iodepths, parse_list(v, 65536, l->iodepths, SUITE_POINTS_MAX, l->nr_iodepths))
SETTER(numjobs, parse_list(v, 4096, l->jobs, SUITE_POINTS_MAX, l->nr_jobs))
SETTER(pause, parse_bounded_duration(v, STEP_TIME_MAX, &step->pause_ns))
SETTER(idle, parse_bounded_duration(v, STEP_TIME_MAX, &step->idle_ns))
/* nvme_format = 1 is the older spelling of purge = format; 0 a discard */
static int parse_nvme_format(const char *v, enum purge_method *m)
{
	bool on;

	if (parse_bool(v, &on))
		return -1;
	*m = on ? PURGE_FORMAT : PURGE_DISCARD;
	return 0;
}

SETTER(nvme_format, parse_nvme_format(v, &step->purge))
SETTER(purge, purge_method_parse(v, &step->purge))
SETTER(model, parse_model(v, step))
SETTER(checkpoint_size, parse_checkpoint_size(v, &step->checkpoint_size))
SETTER(ranks, parse_unsigned(v, 1, STEP_RANKS_MAX, &step->checkpoint_ranks))
SETTER(passes, parse_unsigned(v, 1, STEP_PASSES_MAX, &step->checkpoint_passes))
SETTER(count, parse_unsigned(v, 1, STEP_COUNT_MAX, &step->checkpoint_count))
SETTER(fill, parse_fraction(v, &step->checkpoint_fill))
SETTER(record_series, parse_bool(v, &step->record_series))
SETTER(checkpoint_fs, parse_checkpoint_fs(v, step))
SETTER(test, parse_test(v, step))
SETTER(mixes, parse_mixes(v, step))
SETTER(block_sizes, parse_block_sizes(v, step))
SETTER(track_mix, set_flag(&step->has_track_mix, parse_unsigned(v, 0, 100, &step->track_mix)))
SETTER(track_bs, set_flag(&step->has_track_bs, parse_block_size(v, step, &step->track_bs)))
SETTER(track_point, parse_track_point(v, step))
SETTER(write_capacities, parse_bounded_double(v, STEP_CAPACITIES_MAX, &step->write_capacities))
SETTER(repeat, parse_unsigned(v, 1, STEP_REPEAT_MAX, &step->repeat))
SETTER(operating_point, parse_operating_point(v, &step->operating_point))
SETTER(from, parse_from(v, step))
SETTER(lat_ceiling, parse_lat_ceiling(v, &step->lat_ceiling_ns))

#define KIND(k) (1u << (k))
#define ANY_KIND (~0u)

static const struct step_parameter step_parameters[] = {
	{ "step", ANY_KIND, NULL },   /* the step's kind: suitefile.c reads it */
	{ "precondition", KIND(STEP_PRECONDITION), set_precondition },
	{ "capacities", KIND(STEP_PRECONDITION), set_capacities },
	{ "op", KIND(STEP_PRECONDITION), set_op },
	{ "regions", KIND(STEP_PRECONDITION), set_regions },
	{ "iu", KIND(STEP_PRECONDITION), set_iu },
	{ "metric", KIND(STEP_STEADY), set_metric },
	{ "window", KIND(STEP_STEADY), set_window },
	{ "max_rounds", KIND(STEP_STEADY), set_max_rounds },
	{ "range_limit", KIND(STEP_STEADY), set_range_limit },
	{ "slope_limit", KIND(STEP_STEADY), set_slope_limit },
	{ "mixes", KIND(STEP_STEADY), set_mixes },
	{ "block_sizes", KIND(STEP_STEADY), set_block_sizes },
	{ "track_mix", KIND(STEP_STEADY), set_track_mix },
	{ "track_bs", KIND(STEP_STEADY), set_track_bs },
	{ "track_point", KIND(STEP_STEADY), set_track_point },
	{ "write_capacities", KIND(STEP_STEADY), set_write_capacities },
	{ "points", KIND(STEP_SWEEP) | KIND(STEP_STEADY), set_points },
	{ "iodepths", KIND(STEP_SWEEP) | KIND(STEP_STEADY), set_iodepths },
	/* a step parameter only next to iodepths; otherwise fio's numjobs */
	{ "numjobs", KIND(STEP_SWEEP) | KIND(STEP_STEADY), set_numjobs, true },
	{ "pause", KIND(STEP_SWEEP), set_pause },
	{ "repeat", KIND(STEP_SWEEP), set_repeat },
	{ "operating_point", KIND(STEP_MEASURE), set_operating_point },
	{ "from", KIND(STEP_MEASURE), set_from },
	{ "lat_ceiling", KIND(STEP_MEASURE), set_lat_ceiling },
	{ "idle", KIND(STEP_IDLE), set_idle },
	{ "nvme_format", KIND(STEP_PURGE), set_nvme_format },
	{ "purge", KIND(STEP_PURGE), set_purge },
	{ "model", KIND(STEP_CHECKPOINT), set_model },
	{ "checkpoint_size", KIND(STEP_CHECKPOINT), set_checkpoint_size },
	{ "ranks", KIND(STEP_CHECKPOINT), set_ranks },
	{ "passes", KIND(STEP_CHECKPOINT), set_passes },
	{ "count", KIND(STEP_CHECKPOINT), set_count },
	{ "fill", KIND(STEP_CHECKPOINT), set_fill },
	{ "checkpoint_fs", KIND(STEP_CHECKPOINT), set_checkpoint_fs },
	{ "record_series", ANY_KIND, set_record_series },
	{ "test", ANY_KIND, set_test },
};

const struct step_parameter *step_parameter_find(const char *key, bool has_iodepths)
{
	for (size_t i = 0; i < sizeof(step_parameters) / sizeof(step_parameters[0]); i++)
		if (!strcmp(key, step_parameters[i].key))
			return !step_parameters[i].with_iodepths || has_iodepths
				? &step_parameters[i] : NULL;
	return NULL;
}

void step_parameter_defaults(struct suite_step *step)
{
	step->capacities = 1;
	step->op = 0.07;
	step->regions = 16;
	step->iu = 0;           /* 0 until the end: then the write block size */
	step->metric = STEADY_IOPS;
	step->window = 5;
	step->max_rounds = 25;
	step->range_limit = 0.20;
	step->slope_limit = 0.10;
	step->checkpoint_passes = 3;
	step->checkpoint_fill = 0.9;
}
