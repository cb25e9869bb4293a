/* SPDX-License-Identifier: MIT */
/* The plugin libfloor_host.so loads: a function to find, and lookups with RTLD_NEXT of its own that call back into the host and into the clock. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "host_lib.h"
#include "probe.h"

int floor_plugin_answer(void)
{
	return FLOOR_PLUGIN_ANSWER;
}

/* RTLD_NEXT from a plugin: the host's callback, in the host the plugin depends on. */
int floor_plugin_call_back(void)
{
	int (*cb)(void) = (int (*)(void))dlsym(RTLD_NEXT, "floor_host_callback");

	return cb ? cb() : -1;
}

/* RTLD_NEXT from a plugin for clock_gettime: 1 when found and RAW through it lies between two
   kernel reads (2 us of slack, which calibrated mode may take), 0 when missing, -1 when wrong. */
int floor_plugin_next_clock(void)
{
	e2e_clock_fn fn = (e2e_clock_fn)dlsym(RTLD_NEXT, "clock_gettime");
	struct e2e_tally t = { .slack_ns = 2000 };

	if (!fn)
		return 0;
	for (int i = 0; i < 100; i++)
		if (!e2e_bracket(&t, fn, CLOCK_MONOTONIC_RAW) || !e2e_bracket(&t, fn, CLOCK_MONOTONIC))
			return -1;
	return 1;
}
