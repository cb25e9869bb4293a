/* SPDX-License-Identifier: MIT */
/* Warms a child up before its call is traced: the library decided (fastraw_info), the caches warm. */
#define _GNU_SOURCE
#include "warm.h"

#include "fastraw.h"

int step_warm_up(e2e_clock_fn fn)
{
	int (*info)(struct fastraw_info *) = (int (*)(struct fastraw_info *))dlsym(RTLD_DEFAULT, "fastraw_info");
	struct timespec ts;
	int decided = info ? 0 : -1;

	for (int i = 0; i < STEP_WARMUP_MAX && decided == 0; i++) {
		struct fastraw_info fi = { .size = sizeof(fi) };

		fn(CLOCK_MONOTONIC_RAW, &ts);
		decided = info(&fi) == 0;
	}
	for (int i = 0; i < STEP_WARMUP; i++)
		fn(CLOCK_MONOTONIC_RAW, &ts);
	return decided;
}
