/* random.c - seeding of the xoshiro256** generator (splitmix64 expansion)
 * and the derivation of per-job, per-clone, per-stream seeds from fio's
 * randrepeat / randseed options. The per-call generator lives inline in
 * random.h. */
#include "job/random.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* fio's FIO_RANDSEED: the base of every repeatable (randrepeat=1) seed. */
#define REPEATABLE_SEED 0xb1899bedULL

static uint64_t splitmix64_next(uint64_t *state)
{
	return mix64(*state += 0x9e3779b97f4a7c15ULL);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t state = seed;

	/* splitmix64 outputs are a bijection of a counter, so four consecutive
	 * ones are distinct and the state cannot be all zero. */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64_next(&state);
}

static uint64_t hash_name(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fresh_entropy(void)
{
	uint64_t value;
	struct timespec now;

	if (getrandom(&value, sizeof(value), GRND_NONBLOCK) == (ssize_t)sizeof(value))
		return value;
	/* No entropy source: the clock and pid are unique enough for a seed
	 * that only has to differ between runs. */
	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		now.tv_sec = now.tv_nsec = 0;
	return mix64(((uint64_t)now.tv_sec << 30) ^ (uint64_t)now.tv_nsec ^
		     ((uint64_t)getpid() << 48) ^ (uint64_t)(uintptr_t)&value);
}

uint64_t job_seed(const struct job_spec *spec, unsigned clone, unsigned stream)
{
	uint64_t base;

	if (spec->randseed_set)
		base = mix64(spec->randseed) ^ hash_name(spec->name);
	else if (spec->randrepeat)
		base = mix64(REPEATABLE_SEED) ^ hash_name(spec->name);
	else
		base = fresh_entropy();

	/* Each step is a bijection of its input for fixed other values (an
	 * odd multiplier is invertible mod 2^64, mix64 is a bijection), so
	 * distinct clones or streams of one job always get distinct seeds. */
	uint64_t seed = mix64(base ^ ((uint64_t)clone * 0x9e3779b97f4a7c15ULL));
	return mix64(seed + (uint64_t)stream * 0xd1b54a32d192ed03ULL);
}
