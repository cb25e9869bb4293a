/* SPDX-License-Identifier: MIT */
/* Probe: reports the reads that a dependency's constructor made, then reads on from main. */
#define _GNU_SOURCE
#include "ctor_lib.h"

#define MAIN_SAMPLES 10000

int main(void)
{
	const struct e2e_tally *ctor = e2e_ctor_tally();
	struct e2e_tally t = { 0 };

	for (int i = 0; i < MAIN_SAMPLES; i++)
		e2e_bracket(&t, clock_gettime, CLOCK_MONOTONIC_RAW);
	printf("served=%s\nctor_served=%s\n", e2e_served_by("clock_gettime"), e2e_ctor_served());
	e2e_tally_print("ctor_", ctor);
	e2e_tally_print("main_", &t);
	/* Time runs forward from the constructor to main. */
	if (ctor->samples && ctor->max_ns > t.min_ns) {
		printf("constructor read %lld, after main's %lld\n", (long long)ctor->max_ns,
		       (long long)t.min_ns);
		return 1;
	}
	return ctor->samples && !ctor->violations && !t.violations ? 0 : 1;
}
