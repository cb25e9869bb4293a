/* SPDX-License-Identifier: MIT */
/* The oracles' deterministic random numbers (splitmix64), shared by every architecture's oracle. */
#ifndef FR_ORACLE_ORNG_H
#define FR_ORACLE_ORNG_H

#include <stdint.h>

/* Restart the sequence from the seed (ORACLE_SEED overrides the default) mixed with salt. */
void orng_seed(uint64_t salt);
uint64_t orng_rand(void);
/* Uniform-ish in [0, n); 0 when n is 0. */
uint64_t orng_below(uint64_t n);
/* A value of random bit length up to bits: spreads magnitudes over every scale. */
uint64_t orng_mag(unsigned bits);

#endif
