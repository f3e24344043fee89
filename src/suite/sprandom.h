/* sprandom.h - fast random preconditioning (the `sprandom` method fio 3.41
 * introduced): instead of writing the device randomly several times over,
 * write it once, region by region, so that each region ends up holding the
 * share of invalidated blocks it would have in random-write steady state
 * under greedy garbage collection with the given over-provisioning
 * (Desnoyers' model: WAF ~ 0.5 / OP + 0.7). docs/preconditioning.md gives
 * the model and the arithmetic. */
#ifndef DRIVEBENCH_SPRANDOM_H
#define DRIVEBENCH_SPRANDOM_H

#include <stdint.h>

struct sprandom_region {
	uint64_t offset, length;     /* the region's byte range on the target */
	double invalid_fraction;     /* steady-state share of invalid blocks */
	uint64_t overwrite_bytes;    /* random overwrites of IU blocks inside
				      * the region after its sequential write */
};

struct sprandom_plan {
	struct sprandom_region *regions;
	unsigned nr;
	uint64_t iu;
	uint64_t total_bytes;        /* everything the plan writes */
	double waf;                  /* the model's steady-state WAF for op */
};

/* Plans the preconditioning of capacity bytes with over-provisioning op
 * (0 < op < 1, e.g. 0.07), nr_regions regions and indirection unit iu.
 * Errors (-1, err_msg) name the bad parameter. */
int sprandom_plan(uint64_t capacity, double op, unsigned nr_regions,
		  uint64_t iu, struct sprandom_plan *out);
void sprandom_plan_free(struct sprandom_plan *p);

/* The model's steady-state write amplification for over-provisioning op. */
double sprandom_model_waf(double op);

/* The k-th overwrite of region r (0 <= k < r->overwrite_bytes / iu): the
 * byte offset of an IU block inside the region. The overwrites of one
 * region are distinct blocks (a seeded pseudo-random permutation of the
 * region's blocks), so the region's share of invalidated blocks is exactly
 * invalid_fraction. Returns r->offset for k out of range. */
uint64_t sprandom_overwrite_offset(const struct sprandom_region *r,
				   uint64_t iu, uint64_t k, uint64_t seed);

#endif
