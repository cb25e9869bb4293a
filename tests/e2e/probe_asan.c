/* SPDX-License-Identifier: MIT */
/* Probe, built with AddressSanitizer: RAW read beside the ASan runtime, bracketed by the kernel. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "probe.h"

int main(void)
{
	struct e2e_tally t = { 0 };
	/* Heap memory the sanitizer watches, so its runtime is really in use. */
	struct timespec *ts = malloc(sizeof(*ts));

	if (!ts || clock_gettime(CLOCK_MONOTONIC_RAW, ts) != 0)
		return 2;
	free(ts);
	for (int i = 0; i < 20000; i++)
		e2e_bracket(&t, clock_gettime, CLOCK_MONOTONIC_RAW);
	e2e_tally_print("", &t);
	return 0;
}
