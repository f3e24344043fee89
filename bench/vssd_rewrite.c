/* vssd_rewrite.c - what the order of a rewrite does to a modelled drive's
 * write amplification, off the clock (the FTL alone): a region of the
 * drive is written once in order (pass 1, on a new drive), then passes
 * 2.. write the same region again in chunks, either in pass 1's order
 * (in place) or in a random order of the chunks (as a filesystem that
 * puts a rewritten file's blocks elsewhere, without discard, does to the
 * drive). Prints each pass's WAF. Used by bench/vssd-rewrite.sh
 * (docs/checkpoint.md, "What the drift needs").
 * Usage: vssd_rewrite MODEL.ini SCALE FILL CHUNK ORDER [PASSES]
 *   FILL: the region's share of the drive (0.8 = 80%); CHUNK: a size
 *   (4m); ORDER: inplace or random; PASSES: 3 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/units.h"
#include "vssd/drive.h"
#include "vssd/model.h"

#define WRITE_BYTES (1u << 20)   /* the largest write handed to the FTL */

/* Fisher-Yates with a fixed seed, so runs repeat */
static void shuffle(uint64_t *v, uint64_t n, unsigned *seed)
{
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = (uint64_t)rand_r(seed) % (i + 1), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static int write_chunk(struct vdrive *d, uint64_t offset, uint64_t chunk)
{
	for (uint64_t done = 0; done < chunk; done += WRITE_BYTES) {
		uint64_t len = chunk - done < WRITE_BYTES ? chunk - done : WRITE_BYTES;

		if (vdrive_write_untimed(d, offset + done, (uint32_t)len))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct vssd_model m;
	struct vdrive *d;
	uint64_t chunk, n, *order;
	unsigned seed = 1;
	double fill;
	int passes, random_order;

	if (argc < 6 || argc > 7) {
		fprintf(stderr, "usage: %s MODEL.ini SCALE FILL CHUNK inplace|random [PASSES]\n",
			argv[0]);
		return 2;
	}
	fill = atof(argv[3]);
	passes = argc == 7 ? atoi(argv[6]) : 3;
	random_order = !strcmp(argv[5], "random");
	if (!(fill > 0 && fill <= 1) || units_parse_size(argv[4], 1024, &chunk) || !chunk ||
	    (!random_order && strcmp(argv[5], "inplace")) || passes < 1) {
		fprintf(stderr, "vssd_rewrite: FILL in (0, 1], CHUNK a size, ORDER inplace or "
			"random, PASSES at least 1\n");
		return 2;
	}
	if (vssd_model_load(argv[1], argv[2], &m) || !(d = vdrive_create(&m))) {
		fprintf(stderr, "vssd_rewrite: %s\n", err_msg());
		return 1;
	}
	n = (uint64_t)((double)m.capacity * fill) / chunk;
	if (!n || !(order = malloc(n * sizeof(*order)))) {
		fprintf(stderr, "vssd_rewrite: no chunk of %llu bytes fits (or out of memory)\n",
			(unsigned long long)chunk);
		return 1;
	}
	printf("# %s at %s: %llu chunks of %llu bytes (%.0f%% of %llu), %s\n", m.name, argv[2],
	       (unsigned long long)n, (unsigned long long)chunk, fill * 100,
	       (unsigned long long)m.capacity, random_order ? "random order" : "in place");
	for (int p = 1; p <= passes; p++) {
		struct ftl_stats before, after;

		for (uint64_t i = 0; i < n; i++)
			order[i] = i;
		if (p > 1 && random_order && n > 1)
			shuffle(order, n, &seed);
		vdrive_stats(d, &before);
		for (uint64_t i = 0; i < n; i++)
			if (write_chunk(d, order[i] * chunk, chunk)) {
				fprintf(stderr, "vssd_rewrite: %s\n", err_msg());
				return 1;
			}
		vdrive_stats(d, &after);
		printf("pass %d WAF %.3f\n", p,
		       (double)(after.nand_ius_programmed - before.nand_ius_programmed) /
			       (double)(after.host_ius_written - before.host_ius_written));
	}
	free(order);
	vdrive_destroy(d);
	return 0;
}
