/* SPDX-License-Identifier: MIT */
/* Probe: every clock the library may serve (FASTRAW_CLOCKS), each read between two kernel reads of the same clock. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "probe.h"

static const struct {
	const char *name;
	clockid_t clk;
} clocks[] = {
	{ "MONOTONIC", CLOCK_MONOTONIC },
	{ "BOOTTIME", CLOCK_BOOTTIME },
	{ "REALTIME", CLOCK_REALTIME },
	{ "TAI", CLOCK_TAI },
	{ "MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
	{ "REALTIME_COARSE", CLOCK_REALTIME_COARSE },
	{ "MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
};

/*
 * Usage: e2e_probe_served N. Per clock, N reads through clock_gettime (the library's, when
 * preloaded), each between two raw system calls of that clock: "<NAME>_samples=",
 * "<NAME>_violations=" and the rest of e2e_tally_print, then "served=" (who serves
 * clock_gettime). Inside exact brackets a clock the kernel keeps monotonic is monotonic too:
 * each answer lies below the next bracket's first kernel read.
 */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;

	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		struct e2e_tally t = { 0 };
		char prefix[40];

		for (long i = 0; i < n; i++)
			e2e_bracket(&t, clock_gettime, clocks[c].clk);
		snprintf(prefix, sizeof(prefix), "%s_", clocks[c].name);
		e2e_tally_print(prefix, &t);
	}
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	return 0;
}
