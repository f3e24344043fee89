/* file_service.c - the candidate file of each pick for fio's
 * file_service_type: round robin order, uniform draws, zipf and pareto
 * ranks (offsets.c's generators over nrfiles x 1024 ranks) and fio's
 * "normal" (the mean of 12 uniform draws, plus a deviation). */
#include "job/file_service.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"

#define GAUSS_ITERS 12   /* fio's lib/gauss.c */

static int init_ranks(struct file_picker *p, const struct job_files *f, uint64_t nranges,
		      uint64_t seed)
{
	struct job_spec *spec = calloc(1, sizeof(*spec));
	int rc;

	p->ranks = malloc(sizeof(*p->ranks));
	if (!spec || !p->ranks) {
		free(spec);
		return err_set("file_service_type: out of memory");
	}
	job_spec_defaults(spec);
	spec->distribution.kind = f->service == FSERVICE_ZIPF ? DIST_ZIPF : DIST_PARETO;
	spec->distribution.param = f->service_param;
	rc = offset_gen_init(p->ranks, spec, nranges, seed);
	free(spec);
	if (rc)
		return err_prefix("file_service_type");
	/* fio rotates the ranks by a random amount, or to the centre given */
	p->rotate = f->service_center >= 0 ? (uint64_t)((double)nranges * f->service_center) :
		rng_below(&p->rng, nranges);
	return 0;
}

int file_picker_init(struct file_picker *p, const struct job_files *f, unsigned n,
		     uint64_t seed)
{
	uint64_t nranges = (uint64_t)n << FILE_SERVICE_SHIFT;

	memset(p, 0, sizeof(*p));
	p->kind = f->service;
	p->n = n ? n : 1;
	rng_seed(&p->rng, seed);
	switch (p->kind) {
	case FSERVICE_ZIPF:
	case FSERVICE_PARETO:
		return init_ranks(p, f, nranges, seed ^ 0x5bd1e995u);
	case FSERVICE_NORMAL:
		if (f->service_param > 0) {
			p->gauss_dev = (uint64_t)ceil((double)nranges * f->service_param / 100.0);
			if (p->gauss_dev > nranges / 2)
				p->gauss_dev = nranges / 2;
		}
		/* fio: the centre shifts the middle of the ranges */
		if (f->service_center >= 0)
			p->rotate = (uint64_t)((double)nranges * (f->service_center + 0.5));
		return 0;
	default:
		return 0;
	}
}

/* fio's gauss_next without its hash: the mean of 12 draws in [0, N], plus
 * a deviation in [-dev/2, dev/2) halved until it stays below N. */
static uint64_t gauss_rank(struct file_picker *p, uint64_t nranges)
{
	uint64_t sum = 0;

	for (int i = 0; i < GAUSS_ITERS; i++)
		sum += rng_below(&p->rng, nranges + 1);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (p->gauss_dev) {
		int64_t dev = (int64_t)rng_below(&p->rng, p->gauss_dev) - (int64_t)(p->gauss_dev / 2);

		while (dev + (int64_t)sum >= (int64_t)nranges || dev + (int64_t)sum < 0)
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum;
}

unsigned file_picker_next(struct file_picker *p)
{
	uint64_t nranges = (uint64_t)p->n << FILE_SERVICE_SHIFT, rank;
	unsigned k;

	switch (p->kind) {
	case FSERVICE_ROUNDROBIN:
	case FSERVICE_SEQUENTIAL:
		k = p->next;
		p->next = p->next + 1 == p->n ? 0 : p->next + 1;
		return k;
	case FSERVICE_RANDOM:
		return (unsigned)rng_below(&p->rng, p->n);
	case FSERVICE_ZIPF:
	case FSERVICE_PARETO:
		rank = offset_gen_next_rank(p->ranks);
		break;
	case FSERVICE_NORMAL:
	default:
		rank = gauss_rank(p, nranges);
		break;
	}
	rank = (rank + p->rotate) % nranges;
	return (unsigned)(rank >> FILE_SERVICE_SHIFT);
}

void file_picker_free(struct file_picker *p)
{
	free(p->ranks);
	p->ranks = NULL;
}
