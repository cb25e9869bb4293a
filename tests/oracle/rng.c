/* SPDX-License-Identifier: MIT */
/* splitmix64 for the oracles: one seeded sequence, reproducible with ORACLE_SEED. */
#include <stdlib.h>

#include "rng.h"

static uint64_t rng;

void orng_seed(uint64_t salt)
{
	const char *s = getenv("ORACLE_SEED");

	rng = (s ? strtoull(s, NULL, 0) : 0x5eed0f0a11ce5ULL) ^ (salt * 0x9e3779b97f4a7c15ULL);
}

uint64_t orng_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t orng_below(uint64_t n)
{
	return n ? orng_rand() % n : 0;
}

uint64_t orng_mag(unsigned bits)
{
	unsigned k = (unsigned)orng_below(bits + 1);

	return k ? orng_rand() >> (64 - k) : 0;
}
