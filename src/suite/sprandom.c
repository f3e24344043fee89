/* sprandom.c - the sprandom preconditioning plan: which regions of the
 * target to write sequentially and how many distinct IU blocks to overwrite
 * inside each so that the drive holds the steady-state validity
 * distribution of greedy garbage collection after writing about one
 * physical capacity. docs/preconditioning.md derives the arithmetic. */
#include "suite/sprandom.h"

#include <math.h>
#include <stdlib.h>

#include "util/error.h"
#include "job/random.h"
#include "job/sprandom_job.h"

double sprandom_model_waf(double op)
{
	/* Desnoyers' greedy-GC model under uniform random writes, in the
	 * closed-form approximation fio's sprandom uses: the job option's
	 * (workload/sprandom_job.c), shared. */
	if (!(op > 0))
		return HUGE_VAL;
	return spr_model_waf(op);
}

static int check_parameters(uint64_t capacity, double op, unsigned nr_regions,
			    uint64_t iu, const struct sprandom_plan *out)
{
	if (!out)
		return err_set("sprandom: no plan to fill");
	if (!(op > 0 && op < 1))
		return err_set("sprandom: over-provisioning (spr_op) must be "
			       "between 0 and 1 exclusive, got %g", op);
	if (nr_regions == 0)
		return err_set("sprandom: number of regions (spr_num_regions) "
			       "must be at least 1");
	if (iu == 0)
		return err_set("sprandom: indirection unit (iu) must be positive");
	if (capacity % iu != 0)
		return err_set("sprandom: capacity %llu is not a multiple of the "
			       "indirection unit %llu",
			       (unsigned long long)capacity,
			       (unsigned long long)iu);
	if (capacity / iu < nr_regions)
		return err_set("sprandom: capacity %llu is smaller than %u regions "
			       "of one indirection unit (%llu)",
			       (unsigned long long)capacity, nr_regions,
			       (unsigned long long)iu);
	return 0;
}

/* Share of physical space whose blocks are at most validity v in greedy
 * steady state is ln(v/u) / ln(1/u) on [u, 1] (Desnoyers: the space held by
 * blocks of validity v is proportional to 1/v), so the validity at space
 * quantile q is u^(1 - q). u is the greedy victim's valid fraction. */
static double validity_at_quantile(double victim_validity, double q)
{
	return exp((1 - q) * log(victim_validity));
}

/* Regions tile the capacity; the first blocks % nr regions get one
 * block more. Region r stands for the physical space quantiles its
 * blocks cover, squeezed into the lower 1 / (1 + op) of the physical
 * space: the top op / (1 + op) is taken by the overwrites themselves,
 * which land fully valid. wanted[r] is the region's raw share of invalid
 * blocks; returns their sum. */
static double tile_regions(struct sprandom_region *regions, double *wanted,
			   unsigned nr_regions, uint64_t blocks, uint64_t iu, double op)
{
	double victim_validity = spr_gc_validity(op);
	uint64_t base = blocks / nr_regions, extra = blocks % nr_regions;
	uint64_t start = 0;
	double raw_invalid_blocks = 0;
	for (unsigned r = 0; r < nr_regions; r++) {
		uint64_t n = base + (r < extra ? 1 : 0);
		double q = (start + n / 2.0) / (double)blocks / (1 + op);

		regions[r].offset = start * iu;
		regions[r].length = n * iu;
		wanted[r] = (1 - validity_at_quantile(victim_validity, q)) * n;
		raw_invalid_blocks += wanted[r];
		start += n;
	}
	return raw_invalid_blocks;
}

/* One physical write: the overwrites add op x capacity, which is the
 * invalid space steady state holds (physical - logical). Scale the
 * shares to hit that total (target blocks), then round by largest
 * remainder so the total is exact; a region keeps at least one valid
 * block. */
static void assign_overwrites(struct sprandom_region *regions, double *wanted,
			      unsigned nr_regions, uint64_t iu, uint64_t target,
			      double raw_invalid_blocks)
{
	double scale = raw_invalid_blocks > 0 ? target / raw_invalid_blocks : 0;
	uint64_t assigned = 0;
	for (unsigned r = 0; r < nr_regions; r++) {
		uint64_t n = regions[r].length / iu;
		double w = wanted[r] * scale;

		if (w > (double)(n - 1))
			w = (double)(n - 1);
		wanted[r] = w;
		regions[r].overwrite_bytes = (uint64_t)floor(w) * iu;
		assigned += (uint64_t)floor(w);
	}
	while (assigned < target) {
		int best = -1;
		double best_rest = -1;

		for (unsigned r = 0; r < nr_regions; r++) {
			uint64_t n = regions[r].length / iu;
			uint64_t have = regions[r].overwrite_bytes / iu;
			double rest = wanted[r] - (double)have;

			if (have + 1 < n && rest > best_rest) {
				best = (int)r;
				best_rest = rest;
			}
		}
		if (best < 0)
			break; /* every region is one valid block from full */
		regions[best].overwrite_bytes += iu;
		/* A region gets at most one block above its share. */
		wanted[best] = (double)(regions[best].overwrite_bytes / iu) - 1;
		assigned++;
	}
}

int sprandom_plan(uint64_t capacity, double op, unsigned nr_regions,
		  uint64_t iu, struct sprandom_plan *out)
{
	if (check_parameters(capacity, op, nr_regions, iu, out))
		return -1;
	*out = (struct sprandom_plan){ 0 };

	struct sprandom_region *regions = calloc(nr_regions, sizeof(*regions));
	double *wanted = calloc(nr_regions, sizeof(*wanted));
	if (!regions || !wanted) {
		free(regions);
		free(wanted);
		return err_set("sprandom: out of memory for %u regions", nr_regions);
	}

	uint64_t blocks = capacity / iu;
	double waf = sprandom_model_waf(op);
	double raw_invalid_blocks = tile_regions(regions, wanted, nr_regions, blocks, iu, op);
	uint64_t target = (uint64_t)llround(op * (double)blocks);

	assign_overwrites(regions, wanted, nr_regions, iu, target, raw_invalid_blocks);
	uint64_t total = capacity;
	for (unsigned r = 0; r < nr_regions; r++) {
		regions[r].invalid_fraction = (double)regions[r].overwrite_bytes /
					      (double)regions[r].length;
		total += regions[r].overwrite_bytes;
	}
	free(wanted);

	out->regions = regions;
	out->nr = nr_regions;
	out->iu = iu;
	out->total_bytes = total;
	out->waf = waf;
	return 0;
}

void sprandom_plan_free(struct sprandom_plan *p)
{
	if (!p)
		return;
	free(p->regions);
	*p = (struct sprandom_plan){ 0 };
}

/* A bijection on [0, 2^(2*half_bits)): four Feistel rounds. */
static uint64_t feistel(uint64_t x, unsigned half_bits, uint64_t seed)
{
	uint64_t mask = (1ULL << half_bits) - 1;
	uint64_t left = x >> half_bits, right = x & mask;

	for (unsigned round = 0; round < 4; round++) {
		uint64_t next = left ^ (mix64(right ^ seed ^ ((uint64_t)round << 56)) & mask);

		left = right;
		right = next;
	}
	return (left << half_bits) | right;
}

uint64_t sprandom_overwrite_offset(const struct sprandom_region *r,
				   uint64_t iu, uint64_t k, uint64_t seed)
{
	if (!r || iu == 0)
		return 0;
	uint64_t n = r->length / iu;
	if (k >= n || k >= r->overwrite_bytes / iu)
		return r->offset;

	unsigned half_bits = 1;
	while (half_bits < 32 && (1ULL << (2 * half_bits)) < n)
		half_bits++;
	/* Cycle-walk: permute within the power-of-four domain until the
	 * value falls inside the region; at most 4x the region on average. */
	uint64_t x = k;
	do
		x = feistel(x, half_bits, mix64(seed ^ r->offset));
	while (x >= n);
	return r->offset + x * iu;
}
