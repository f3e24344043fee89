/* random.h - the per-job pseudo-random number generator (xoshiro256**) and
 * how a job's seeds are derived from randrepeat / randseed. The per-call
 * functions are inline: they run once or more per I/O in the hot loop. */
#ifndef DRIVEBENCH_RANDOM_H
#define DRIVEBENCH_RANDOM_H

#include <stdint.h>

#include "job/job_spec.h"

/* xoshiro256** (Blackman & Vigna): 256 bits of state, period 2^256 - 1.
 * Never all zero; rng_seed guarantees that. */
struct rng {
	uint64_t s[4];
};

/* Independent generators of one job (clone) get distinct streams so that,
 * say, the block-size choice does not shift the offset sequence. */
enum rng_stream {
	RNG_STREAM_OFFSETS = 0,
	RNG_STREAM_BS = 1,
	RNG_STREAM_RWMIX = 2,
	RNG_STREAM_DATA = 3,   /* buffer contents, if ever randomised */
};

/* Expands seed into the state with splitmix64, as the xoshiro authors
 * recommend; any seed (0 included) gives a valid state. */
void rng_seed(struct rng *r, uint64_t seed);

/* splitmix64's finaliser: a bijection of 64-bit values that scatters every
 * input bit over the output (hashing seeds, offsets and keys). */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire 2019,
 * "Fast random integer generation in an interval"): one multiply in the
 * common case; the division only runs when the low product lands in the
 * small rejection zone. n == 0 returns 0 (the branch never runs). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 product = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)product;

	if (low < n) {
		uint64_t threshold = (0 - n) % n; /* 2^64 mod n */

		while (low < threshold) {
			product = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)product;
		}
	}
	return (uint64_t)(product >> 64);
}

/* The seed of one generator of one job, with fio's meaning:
 *   randseed=N set      -> N mixed with clone and stream (any randrepeat);
 *   randrepeat=1 (def.) -> a fixed constant mixed with clone and stream, so
 *                          every run issues the same sequence;
 *   randrepeat=0        -> fresh entropy (getrandom, else the clock).
 * In the first two cases the job name is mixed in too, so two different
 * jobs in one file do not issue identical offset sequences (fio separates
 * them by thread number). Different clone or stream values always give
 * different seeds for the same job. */
uint64_t job_seed(const struct job_spec *spec, unsigned clone, unsigned stream);

#endif
