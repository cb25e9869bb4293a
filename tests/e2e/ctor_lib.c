/* SPDX-License-Identifier: MIT */
/* A shared library whose constructor reads CLOCK_MONOTONIC_RAW, typically before libfastraw's own constructor has run. */
#define _GNU_SOURCE
#include "ctor_lib.h"

#define CTOR_SAMPLES 10000

static struct e2e_tally tally;
static const char *served = "?";

/* The dynamic linker runs this before the constructors of objects loaded ahead of this one,
   and LD_PRELOAD objects are loaded ahead of the executable's own dependencies. */
__attribute__((constructor)) static void read_early(void)
{
	for (int i = 0; i < CTOR_SAMPLES; i++)
		e2e_bracket(&tally, clock_gettime, CLOCK_MONOTONIC_RAW);
	served = e2e_served_by("clock_gettime");
}

const struct e2e_tally *e2e_ctor_tally(void)
{
	return &tally;
}

const char *e2e_ctor_served(void)
{
	return served;
}
