/* operating.c - a measure step's operating point (PTS DIRTH and CBW: the
 * response-time histograms at MaxIOPS, MidIOPS and MinIOPS): the QD/jobs
 * points of the step it names (`from`), read back from this run's stored
 * results, averaged over that step's last window of rounds, and the one
 * chosen (operating_choose). */
#include "suite/operating.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "suite/suitectx.h"
#include "util/error.h"

const char *operating_point_name(enum operating_point which)
{
	switch (which) {
	case OPERATING_MAX: return "max";
	case OPERATING_MID: return "mid";
	case OPERATING_MIN: return "min";
	case OPERATING_NONE: break;
	}
	return "none";
}

static uint64_t outstanding(const struct operating_candidate *c)
{
	return (uint64_t)c->iodepth * c->numjobs;
}

static int pick_max(const struct operating_candidate *c, unsigned n, uint64_t ceiling,
		    unsigned *index)
{
	int best = -1;

	for (unsigned i = 0; i < n; i++) {
		if (ceiling && c[i].lat_mean_ns > (double)ceiling)
			continue;
		if (best < 0 || c[i].iops > c[best].iops ||
		    (c[i].iops == c[best].iops && outstanding(&c[i]) < outstanding(&c[best])))
			best = (int)i;
	}
	if (best < 0)
		return err_set("no point has a mean latency of at most %.3f ms (the lat_ceiling)",
			       (double)ceiling / 1e6);
	*index = (unsigned)best;
	return 0;
}

static unsigned pick_min(const struct operating_candidate *c, unsigned n)
{
	unsigned best = 0;

	for (unsigned i = 1; i < n; i++)
		if (outstanding(&c[i]) < outstanding(&c[best]) ||
		    (outstanding(&c[i]) == outstanding(&c[best]) && c[i].iops < c[best].iops))
			best = i;
	return best;
}

int operating_choose(const struct operating_candidate *c, unsigned n,
		     enum operating_point which, uint64_t lat_ceiling_ns, unsigned *index)
{
	unsigned max = 0, min, best;
	double half;

	if (!n)
		return err_set("no QD/jobs points to choose from");
	if (which == OPERATING_MIN) {
		*index = pick_min(c, n);
		return 0;
	}
	if (pick_max(c, n, lat_ceiling_ns, &max))
		return -1;
	if (which == OPERATING_MAX) {
		*index = max;
		return 0;
	}
	min = pick_min(c, n);
	half = (c[max].iops + c[min].iops) / 2;
	best = max;
	for (unsigned i = 0; i < n; i++) {
		double d = fabs(c[i].iops - half), b = fabs(c[best].iops - half);

		if (d < b || (d == b && outstanding(&c[i]) < outstanding(&c[best])))
			best = i;
	}
	*index = best;
	return 0;
}

/* The from step's row in this run. */
static int from_step_id(struct suite_ctx *c, const char *name, int64_t *id)
{
	struct stored_step *steps = NULL;
	unsigned nr = 0;

	*id = 0;
	if (store_steps_list(c->db, c->run_id, &steps, &nr))
		return -1;
	for (unsigned i = 0; i < nr && !*id; i++)
		if (!strcmp(steps[i].name, name))
			*id = steps[i].id;
	free(steps);
	return 0;
}

/* The first round of the from step's last window: a steady step's
 * rounds hold suite_round_points points each; a sweep's every point. */
static unsigned window_first_point(const struct suite_step *from,
				   const struct result_record *recs, unsigned nr, int64_t id)
{
	unsigned np = suite_round_points(from), last = 0, window;

	if (from->kind != STEP_STEADY)
		return 0;
	for (unsigned i = 0; i < nr; i++)
		if (recs[i].step_id == id && recs[i].has_point && recs[i].point > last)
			last = recs[i].point;
	window = from->window ? from->window : 5;
	return last / np + 1 > window ? (last / np + 1 - window) * np : 0;
}

/* Per QD/jobs point, the means of its results from first_point on. */
static int collect(const struct result_record *recs, unsigned nr, int64_t id,
		   unsigned first_point, struct operating_candidate **out, unsigned *n)
{
	struct operating_candidate *c = calloc(nr ? nr : 1, sizeof(*c));

	*n = 0;
	if (!c)
		return err_set("out of memory");
	for (unsigned i = 0; i < nr; i++) {
		const struct result_record *rec = &recs[i];
		double iops = 0, lat = 0, ios = 0;
		unsigned k = 0;

		if (rec->step_id != id || !rec->has_point || rec->point < first_point ||
		    rec->partial || rec->error)
			continue;
		while (k < *n && (c[k].iodepth != rec->iodepth || c[k].numjobs != rec->numjobs))
			k++;
		if (k == *n) {
			c[k].iodepth = rec->iodepth;
			c[k].numjobs = rec->numjobs;
			(*n)++;
		}
		for (int d = 0; d < DIR_COUNT; d++) {
			iops += rec->dir[d].iops;
			lat += rec->dir[d].lat.mean * (double)rec->dir[d].lat.n;
			ios += (double)rec->dir[d].lat.n;
		}
		/* running means over the window's rounds */
		c[k].samples++;
		c[k].iops += (iops - c[k].iops) / c[k].samples;
		c[k].lat_mean_ns += ((ios ? lat / ios : 0) - c[k].lat_mean_ns) / c[k].samples;
	}
	*out = c;
	return 0;
}

static char *detail_json(const struct suite_step *st, const struct operating_candidate *c,
			 unsigned n, unsigned chosen, unsigned first_point)
{
	cJSON *j = cJSON_CreateObject(), *list;
	char *text;

	cJSON_AddStringToObject(j, "operating_point", operating_point_name(st->operating_point));
	cJSON_AddStringToObject(j, "from", st->operating_from);
	cJSON_AddNumberToObject(j, "from_first_point", first_point);
	if (st->lat_ceiling_ns)
		cJSON_AddNumberToObject(j, "lat_ceiling_ns", (double)st->lat_ceiling_ns);
	cJSON_AddNumberToObject(j, "iodepth", c[chosen].iodepth);
	cJSON_AddNumberToObject(j, "numjobs", c[chosen].numjobs);
	cJSON_AddNumberToObject(j, "iops", c[chosen].iops);
	cJSON_AddNumberToObject(j, "lat_mean_ns", c[chosen].lat_mean_ns);
	list = cJSON_AddArrayToObject(j, "candidates");
	for (unsigned i = 0; list && i < n; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "iodepth", c[i].iodepth);
		cJSON_AddNumberToObject(e, "numjobs", c[i].numjobs);
		cJSON_AddNumberToObject(e, "iops", c[i].iops);
		cJSON_AddNumberToObject(e, "lat_mean_ns", c[i].lat_mean_ns);
		cJSON_AddItemToArray(list, e);
	}
	text = j ? cJSON_PrintUnformatted(j) : NULL;
	cJSON_Delete(j);
	return text;
}

int suite_operating_point(struct suite_ctx *c, struct sweep_point *point, char **detail)
{
	const struct suite_step *st = c->step, *from = NULL;
	struct operating_candidate *cand = NULL;
	struct result_record *recs = NULL;
	unsigned nr = 0, n = 0, chosen, first;
	int64_t id;
	int rc = -1;

	c->exit_code = EXIT_RUN_FAILED;
	for (unsigned i = 0; i < c->s->nr_steps && !from; i++)
		if (!strcmp(c->s->steps[i].name, st->operating_from))
			from = &c->s->steps[i];
	if (!from) {
		c->exit_code = EXIT_BAD_INPUT;
		return err_set("operating_point: the suite has no step '%s'", st->operating_from);
	}
	if (from_step_id(c, from->name, &id) || store_results_load(c->db, c->run_id, &recs, &nr))
		return -1;
	first = window_first_point(from, recs, nr, id);
	if (collect(recs, nr, id, first, &cand, &n))
		goto out;
	if (!id || !n) {
		c->exit_code = EXIT_BAD_INPUT;
		err_set("operating_point: step '%s' has no results in this run (run it first, in "
			"the same run)", from->name);
		goto out;
	}
	if (operating_choose(cand, n, st->operating_point, st->lat_ceiling_ns, &chosen)) {
		c->exit_code = EXIT_RUN_FAILED;
		err_prefix("operating_point = %s from step '%s'",
			   operating_point_name(st->operating_point), from->name);
		goto out;
	}
	point->iodepth = cand[chosen].iodepth;
	point->numjobs = cand[chosen].numjobs;
	if (!(*detail = detail_json(st, cand, n, chosen, first))) {
		err_set("out of memory");
		goto out;
	}
	rc = 0;
out:
	free(cand);
	store_results_free(recs, nr);
	return rc;
}
