/* sprandom_job.c - the sprandom offset sequence, as fio's sprandom.c
 * produces it (written here from its description): the physical size
 * (logical + ceil(logical x op), in whole blocks) cut into equal regions
 * of writes; each region writes fresh blocks of a full-period permutation
 * of the range and keeps each with its region's invalid share; the next
 * region first writes the kept ones again (with spr_cs: last), which
 * invalidates them where they were. The number of writes depends on the
 * draws, so the plan runs the sequence once to count it; the job then
 * writes exactly that many (fio stops where the sequence ends). */
#include "job/sprandom_job.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/offsets.h"

double spr_model_waf(double op)
{
	return 0.5 / op + 0.7;
}

double spr_gc_validity(double op)
{
	return 1.0 - 1.0 / spr_model_waf(op);
}

/* n values from a to b, both included (a alone for n = 1). */
static void linspace(double a, double b, unsigned n, double *out)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = n == 1 ? a : a + (b - a) * i / (n - 1);
}

/* y at x on the polyline (xs, ys), xs increasing; the ends outside. */
static double interpolate(double x, const double *xs, const double *ys, unsigned n)
{
	if (x <= xs[0])
		return ys[0];
	for (unsigned i = 0; i + 1 < n; i++)
		if (x <= xs[i + 1]) {
			double span = xs[i + 1] - xs[i];

			return span < 1e-9 ? ys[i] :
				ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / span;
		}
	return ys[n - 1];
}

int spr_validity(unsigned n, double op, double *out)
{
	double *v = calloc(n, sizeof(*v)), *x = calloc(n, sizeof(*x));
	double *grid = calloc(n, sizeof(*grid)), acc = 0;

	if (!v || !x || !grid) {
		free(v);
		free(x);
		free(grid);
		return err_set("sprandom: out of memory for %u regions", n);
	}
	/* validity from 1 down to the collected block's, equally spaced; the
	 * space blocks of validity v take is 1/v (Desnoyers: v x space is
	 * constant): accumulated, it is the curve's x */
	linspace(1.0, spr_gc_validity(op), n, v);
	for (unsigned i = 0; i < n; i++) {
		acc += 1.0 / v[i];
		x[i] = acc;
	}
	/* resampled at equal steps of space: equal regions */
	linspace(x[0], x[n - 1], n, grid);
	for (unsigned i = 0; i < n; i++)
		out[n - 1 - i] = interpolate(grid[i], x, v, n);
	free(v);
	free(x);
	free(grid);
	return 0;
}

/* ---- the sequence ---------------------------------------------------------- */

/* fio's two-phase ring: pushed offsets are staged until a commit makes
 * them readable. */
struct phase_ring {
	uint64_t *buf;
	uint64_t cap, read, commit, stage;
};

struct spr_gen {
	struct offset_gen fresh;     /* every block once */
	uint64_t fresh_left;
	struct rng draws;            /* keep-or-not per write */
	const uint32_t *invalid;
	unsigned regions, region;
	uint64_t region_writes, writes_left;
	uint64_t kept[2];            /* fio's invalid_count per phase */
	unsigned phase;
	bool deferred;               /* spr_cs: replays at the region's end */
	bool done;
	struct phase_ring ring;
};

static bool ring_pop(struct phase_ring *r, uint64_t *out)
{
	if (r->read == r->commit)
		return false;
	*out = r->buf[r->read];
	r->read = (r->read + 1) % r->cap;
	return true;
}

static bool ring_push(struct phase_ring *r, uint64_t v)
{
	if ((r->stage + 1) % r->cap == r->read)
		return false;   /* fio asserts here; beyond 6 sigma */
	r->buf[r->stage] = v;
	r->stage = (r->stage + 1) % r->cap;
	return true;
}

/* Keeps block b for the next region with the current region's share. */
static void maybe_keep(struct spr_gen *g, uint64_t b)
{
	uint64_t draw = rng_below(&g->draws, SPR_PCT_PRECISION + 1);
	unsigned r = g->region < g->regions ? g->region : g->regions - 1;

	if (draw <= g->invalid[r] && ring_push(&g->ring, b))
		g->kept[g->phase ^ 1]++;
}

/* The next write of the planned sequence; false at its end. */
static bool planned_next(struct spr_gen *g, uint64_t *b)
{
	if (!g->deferred && ring_pop(&g->ring, b)) {
		maybe_keep(g, *b);
		return true;
	}
	if (g->writes_left == 0) {
		if (g->deferred && ring_pop(&g->ring, b)) {
			maybe_keep(g, *b);
			return true;
		}
		if (g->region >= g->regions)
			return false;
		g->kept[g->phase] = 0;
		g->region++;
		g->phase ^= 1;
		g->writes_left = g->region_writes > g->kept[g->phase] ?
			g->region_writes - g->kept[g->phase] : 0;
		g->ring.commit = g->ring.stage;
	}
	if (!g->fresh_left)
		return g->deferred && ring_pop(&g->ring, b);
	*b = offset_gen_next(&g->fresh);
	g->fresh_left--;
	if (g->writes_left)
		g->writes_left--;
	maybe_keep(g, *b);
	return true;
}

uint64_t spr_gen_next(struct spr_gen *g)
{
	uint64_t b;

	if (!g->done && planned_next(g, &b))
		return b;
	g->done = true;
	return offset_gen_next(&g->fresh);
}

/* fio's estimate of a region's kept blocks, 6 sigma above the mean. */
static uint64_t ring_capacity(uint64_t writes, double validity, bool deferred)
{
	double sigma = sqrt((double)writes * validity * (1.0 - validity));
	uint64_t cap = (uint64_t)ceil((double)writes * (1.0 - validity) + 6.0 * sigma);

	return (deferred ? 2 * cap : cap) + 2;
}

static int gen_init(struct spr_gen *g, const struct job_spec *spec, uint64_t nr_blocks,
		    uint64_t seed, const struct sprandom_report *r, double first_validity)
{
	struct job_spec perm = *spec;

	perm.norandommap = false;
	perm.random_generator = RANDGEN_LFSR;
	perm.distribution.kind = DIST_RANDOM;
	memset(g, 0, sizeof(*g));
	if (offset_gen_init(&g->fresh, &perm, nr_blocks, seed))
		return -1;
	rng_seed(&g->draws, mix64(seed ^ 0x5350524e44ull));
	g->fresh_left = nr_blocks;
	g->invalid = r->invalid;
	g->regions = r->regions;
	g->region_writes = g->writes_left = r->region_writes;
	g->deferred = r->cache_bytes != 0;
	g->ring.cap = ring_capacity(r->region_writes, first_validity, g->deferred);
	g->ring.buf = malloc(g->ring.cap * sizeof(*g->ring.buf));
	if (!g->ring.buf)
		return err_set("sprandom: out of memory for %llu kept offsets",
			       (unsigned long long)g->ring.cap);
	return 0;
}

static int plan(struct sprandom_report *r, const struct job_spec *spec, uint64_t nr_blocks,
		uint64_t block_bytes, double *validity)
{
	const struct job_checks *c = &spec->checks;
	uint64_t physical;

	r->op = c->spr_op;
	r->regions = c->spr_num_regions;
	r->cache_bytes = c->spr_cs;
	r->block_bytes = block_bytes;
	r->logical_bytes = nr_blocks * block_bytes;
	physical = r->logical_bytes + (uint64_t)ceil((double)r->logical_bytes * r->op);
	r->physical_bytes = physical - physical % block_bytes;
	r->region_bytes = r->physical_bytes / r->regions;
	r->region_writes = r->region_bytes / block_bytes;
	if (!r->region_writes)
		return err_set("option 'spr_num_regions': %u regions of %llu bytes hold no block of %llu",
			       r->regions, (unsigned long long)r->region_bytes,
			       (unsigned long long)block_bytes);
	if (r->cache_bytes > r->region_bytes)
		return err_set("option 'spr_cs': %llu is above the region size %llu (at most %llu regions of the cache's size)",
			       (unsigned long long)r->cache_bytes,
			       (unsigned long long)r->region_bytes,
			       (unsigned long long)(r->physical_bytes / r->cache_bytes));
	r->invalid = calloc(r->regions, sizeof(*r->invalid));
	if (!r->invalid || spr_validity(r->regions, r->op, validity))
		return err_set("sprandom: out of memory for %u regions", r->regions);
	for (unsigned i = 0; i < r->regions; i++)
		r->invalid[i] = (uint32_t)lround((1.0 - validity[i]) * SPR_PCT_PRECISION);
	return 0;
}

int spr_gen_create(struct spr_gen **out, const struct job_spec *spec, uint64_t nr_blocks,
		   uint64_t block_bytes, uint64_t seed, struct sprandom_report **report)
{
	struct sprandom_report *r = calloc(1, sizeof(*r));
	double *validity = calloc(spec->checks.spr_num_regions, sizeof(*validity));
	struct spr_gen *g = calloc(1, sizeof(*g)), counter;
	uint64_t b;
	int rc = -1;

	*out = NULL;
	*report = NULL;
	if (!r || !validity || !g) {
		err_set("sprandom: out of memory");
		goto fail;
	}
	if (plan(r, spec, nr_blocks, block_bytes, validity) ||
	    gen_init(g, spec, nr_blocks, seed, r, validity[0]))
		goto fail;
	/* the same sequence once, to count it */
	if (gen_init(&counter, spec, nr_blocks, seed, r, validity[0])) {
		free(counter.ring.buf);
		goto fail;
	}
	while (planned_next(&counter, &b))
		r->writes++;
	r->replays = r->writes - (nr_blocks - counter.fresh_left);
	free(counter.ring.buf);
	*out = g;
	*report = r;
	g = NULL;
	r = NULL;
	rc = 0;
fail:
	free(validity);
	spr_gen_free(g);
	sprandom_report_free(r);
	return rc;
}

void spr_gen_free(struct spr_gen *g)
{
	if (!g)
		return;
	free(g->ring.buf);
	free(g);
}

void sprandom_report_free(struct sprandom_report *r)
{
	if (!r)
		return;
	free(r->invalid);
	free(r);
}

int sprandom_report_dup(struct sprandom_report **dst, const struct sprandom_report *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = malloc(sizeof(**dst));
	if (!*dst)
		return err_set("out of memory");
	**dst = *src;
	(*dst)->invalid = malloc(src->regions * sizeof(*src->invalid));
	if (!(*dst)->invalid) {
		free(*dst);
		*dst = NULL;
		return err_set("out of memory");
	}
	memcpy((*dst)->invalid, src->invalid, src->regions * sizeof(*src->invalid));
	return 0;
}
