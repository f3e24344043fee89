/* distribution.c - the options that take lists of numbers with their own
 * rules: random_distribution (zipf, pareto, normal, zoned, zoned_abs, with
 * the parameters' ranges) and percentile_list (sorted, duplicates
 * dropped). */
#include "job/distribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/options.h"
#include "job/pacing_options.h"
#include "job/values.h"

/* One share of a zone: a percentage, or empty (-1: a share of the rest). */
static int parse_share(const char *text, const char *what, double *out)
{
	if (!*text) {
		*out = -1;
		return 0;
	}
	if (units_parse_double(text, out) || !(*out >= 0 && *out <= 100))
		return err_set("bad %s percentage '%s'", what, text);
	return 0;
}

/* Empty shares split what the others leave, equally (fio: zoned:50/5:30/15:20/
 * gives the last zone the remaining 80% of the range). */
static int fill_missing(struct distribution *d, bool range, const char *text)
{
	double sum = 0;
	unsigned missing = 0;

	for (unsigned i = 0; i < d->nr_zones; i++) {
		double v = range ? d->zones[i].range_pct : d->zones[i].access_pct;

		if (v < 0)
			missing++;
		else
			sum += v;
	}
	if (sum > 100 + PCT_TOLERANCE)
		return err_set("%s percentages in '%s' add up to %g, more than 100",
			       range ? "range" : "access", text, sum);
	for (unsigned i = 0; missing && i < d->nr_zones; i++) {
		double *v = range ? &d->zones[i].range_pct : &d->zones[i].access_pct;

		if (*v < 0)
			*v = (100 - sum) / missing;
	}
	return 0;
}

/* "A/B:A/B:..." zones; absolute zones take a size as B. */
static int parse_zones(const struct job_spec *spec, const char *text, bool absolute,
		       struct distribution *d)
{
	const char *start = text;
	double access = 0, range = 0;

	if (strchr(text, ','))
		return err_set("per-direction zones are not supported");
	d->nr_zones = 0;
	for (;;) {
		const char *end = strchr(start, ':');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char entry[256], *slash;
		struct zone *z;

		if (len == 0 || len >= sizeof(entry))
			return err_set("bad zone in '%s'", text);
		if (d->nr_zones == ZONES_MAX)
			return err_set("more than %d zones", ZONES_MAX);
		memcpy(entry, start, len);
		entry[len] = '\0';
		slash = strchr(entry, '/');
		if (!slash)
			return err_set("bad zone '%s' (want access/%s)", entry,
				       absolute ? "size" : "range");
		*slash = '\0';
		z = &d->zones[d->nr_zones++];
		memset(z, 0, sizeof(*z));
		if (parse_share(entry, "access", &z->access_pct))
			return -1;
		if (absolute) {
			if (parse_size(slash + 1, spec->kb_base, &z->size))
				return -1;
			if (units_check_range(z->size, 1, SIZE_LIMIT, UNITS_BYTES, slash + 1))
				return err_prefix("zone size");
		} else if (parse_share(slash + 1, "range", &z->range_pct)) {
			return -1;
		}
		if (!end)
			break;
		start = end + 1;
	}
	if (fill_missing(d, false, text) || (!absolute && fill_missing(d, true, text)))
		return -1;
	for (unsigned i = 0; i < d->nr_zones; i++) {
		access += d->zones[i].access_pct;
		range += d->zones[i].range_pct;
	}
	if (fabs(access - 100) > PCT_TOLERANCE)
		return err_set("access percentages add up to %g, not 100", access);
	if (!absolute && fabs(range - 100) > PCT_TOLERANCE)
		return err_set("range percentages add up to %g, not 100", range);
	return 0;
}

int distribution_option_set(struct job_spec *spec, const char *value)
{
	struct distribution d;
	const char *colon = strchr(value, ':');
	size_t kind_len = colon ? (size_t)(colon - value) : strlen(value);
	const char *arg = colon ? colon + 1 : NULL;

	memset(&d, 0, sizeof(d));
#define KIND_IS(s) (kind_len == strlen(s) && !strncmp(value, s, kind_len))
	if (KIND_IS("random")) {
		if (arg)
			return err_set("'random' takes no parameter");
		d.kind = DIST_RANDOM;
	} else if (KIND_IS("zoned") || KIND_IS("zoned_abs")) {
		bool absolute = KIND_IS("zoned_abs");

		d.kind = absolute ? DIST_ZONED_ABS : DIST_ZONED;
		if (!arg || !*arg)
			return err_set("'%s' needs zones", value);
		if (parse_zones(spec, arg, absolute, &d))
			return -1;
	} else if (KIND_IS("sequence")) {
		d.kind = DIST_SEQUENCE;
		if (pacing_sequence_set(spec, arg))
			return -1;
	} else if (KIND_IS("zipf") || KIND_IS("pareto") || KIND_IS("normal") ||
		   KIND_IS("gauss")) {
		if (!arg || units_parse_double(arg, &d.param))
			return err_set("'%s' needs a number (e.g. zipf:1.2)", value);
		if (KIND_IS("zipf")) {
			d.kind = DIST_ZIPF;
			if (!(d.param > 0 && d.param <= ZIPF_THETA_LIMIT) || d.param == 1)
				return err_set("zipf theta %s is out of range: 0 < theta <= %g, not 1",
					       arg, ZIPF_THETA_LIMIT);
		} else if (KIND_IS("pareto")) {
			d.kind = DIST_PARETO;
			if (!(d.param > 0 && d.param < 1))
				return err_set("pareto h must be between 0 and 1");
		} else {
			d.kind = DIST_NORMAL;
			if (!(d.param > 0 && d.param <= NORMAL_SIGMA_LIMIT))
				return err_set("normal sigma %s is out of range: 0 < sigma <= %g (percent of the range)",
					       arg, NORMAL_SIGMA_LIMIT);
		}
	} else {
		return err_set("unknown distribution '%s'", value);
	}
#undef KIND_IS
	spec->distribution = d;
	return 0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int percentile_option_set(struct job_spec *spec, const char *value)
{
	double list[PERCENTILE_MAX];
	unsigned count = 0, kept = 0;
	const char *start = value;

	for (;;) {
		const char *end = strchr(start, ':');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char number[64];

		if (count == PERCENTILE_MAX)
			return err_set("more than %d percentiles", PERCENTILE_MAX);
		if (len == 0 || len >= sizeof(number))
			return err_set("bad percentile list '%s'", value);
		memcpy(number, start, len);
		number[len] = '\0';
		if (units_parse_double(number, &list[count]) ||
		    !(list[count] > 0 && list[count] <= 100))
			return err_set("bad percentile '%s' (0 < p <= 100)", number);
		count++;
		if (!end)
			break;
		start = end + 1;
	}
	qsort(list, count, sizeof(list[0]), compare_doubles);
	for (unsigned i = 0; i < count; i++)
		if (kept == 0 || list[i] != list[kept - 1])
			list[kept++] = list[i];
	memcpy(spec->percentiles, list, kept * sizeof(list[0]));
	spec->nr_percentiles = kept;
	return 0;
}
