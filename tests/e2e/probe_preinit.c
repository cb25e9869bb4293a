/* SPDX-License-Identifier: MIT */
/* Probe: reads CLOCK_MONOTONIC_RAW from the executable's preinit array, before any shared object's constructor. */
#define _GNU_SOURCE
#include "probe.h"

#define EARLY_SAMPLES 10000

static struct e2e_tally early;

static void read_early(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	for (int i = 0; i < EARLY_SAMPLES; i++)
		e2e_bracket(&early, clock_gettime, CLOCK_MONOTONIC_RAW);
}

__attribute__((section(".preinit_array"), used)) static void (*const preinit)(int, char **,
									       char **) = read_early;

int main(void)
{
	struct e2e_tally t = { 0 };

	for (int i = 0; i < EARLY_SAMPLES; i++)
		e2e_bracket(&t, clock_gettime, CLOCK_MONOTONIC_RAW);
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	e2e_tally_print("preinit_", &early);
	e2e_tally_print("main_", &t);
	return early.samples == EARLY_SAMPLES && !early.violations && !t.violations ? 0 : 1;
}
