/* SPDX-License-Identifier: MIT */
/* What the lookup probes share (lookup_common.h). */
#define _GNU_SOURCE
#include "lookup_common.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>

const char *lookup_where(const void *p)
{
	Dl_info info;

	if (!p || !dladdr(p, &info) || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

void lookup_check_raw_as(struct e2e_tally *sum, const char *key, void *p, e2e_clock_fn fn, int64_t slack_ns)
{
	struct e2e_tally t = { .slack_ns = slack_ns };

	printf("served_%s=%s\n", key, lookup_where(p));
	if (!p || !fn)
		return;
	for (int i = 0; i < LOOKUP_SAMPLES; i++)
		e2e_bracket(&t, fn, CLOCK_MONOTONIC_RAW);
	e2e_tally_add(sum, &t);
}

void lookup_check_raw(struct e2e_tally *sum, const char *key, void *p, int64_t slack_ns)
{
	lookup_check_raw_as(sum, key, p, (e2e_clock_fn)p, slack_ns);
}

unsigned long lookup_kernel_auxv(unsigned long type)
{
	unsigned long pair[2], v = 0;
	FILE *f = fopen("/proc/self/auxv", "rb");

	while (f && fread(pair, sizeof(pair), 1, f) == 1 && pair[0] != AT_NULL)
		if (pair[0] == type)
			v = pair[1];
	if (f)
		fclose(f);
	return v;
}
