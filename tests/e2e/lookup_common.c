/* SPDX-License-Identifier: MIT */
/* What the lookup probes share (lookup_common.h). */
#define _GNU_SOURCE
#include "lookup_common.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>

/* What errno holds across a call that must not touch it. */
#define SENTINEL 4321

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

int lookup_convention(const char *key, e2e_clock_fn fn, int vdso, int null_too)
{
	struct timespec ts;
	int ok;

	if (!fn)
		return 1;
	if (vdso) {
		errno = SENTINEL;
		ok = !null_too || (fn(CLOCK_MONOTONIC_RAW, NULL) == -EFAULT && errno == SENTINEL);
		ok = ok && fn(12345, &ts) == -EINVAL && errno == SENTINEL;
		ok = ok && fn(CLOCK_MONOTONIC, &ts) == 0 && errno == SENTINEL;
	} else {
		errno = 0;
		ok = !null_too || (fn(CLOCK_MONOTONIC_RAW, NULL) == -1 && errno == EFAULT);
		errno = 0;
		ok = ok && fn(12345, &ts) == -1 && errno == EINVAL;
	}
	if (!ok)
		printf("FAIL %s: not %s calling convention\n", key, vdso ? "the vDSO's" : "libc's");
	return ok;
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
