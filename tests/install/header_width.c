/* SPDX-License-Identifier: MIT */
/* A program including <fastraw.h> with its own time_t (a 32-bit one on a 32-bit ABI too): fastraw_clock_gettime fills exactly its struct timespec, with the kernel's values. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <fastraw.h>

#include "ksys.h"

/* The timespec, then bytes the call must leave alone: a 64-bit write into a 32-bit struct reaches them. */
struct guarded {
	struct timespec ts;
	unsigned char after[16];
};

static int failures;

static void fail(const char *what)
{
	printf("FAIL %s\n", what);
	failures++;
}

static void check_after(const struct guarded *g, const char *what)
{
	for (size_t i = 0; i < sizeof(g->after); i++)
		if (g->after[i] != 0xa5) {
			fail(what);
			return;
		}
}

int main(void)
{
	struct guarded g;
	struct timespec a, b;
	int rc;

	printf("time_t=%d bits\n", (int)(8 * sizeof(time_t)));
	memset(&g, 0xa5, sizeof(g));
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	rc = fastraw_clock_gettime(CLOCK_MONOTONIC_RAW, &g.ts);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	check_after(&g, "RAW wrote past the program's struct timespec");
	if (rc != 0 || g.ts.tv_nsec < 0 || g.ts.tv_nsec >= 1000000000 || ts_ns(&g.ts) < ts_ns(&a) ||
	    ts_ns(&g.ts) > ts_ns(&b))
		fail("RAW outside the kernel's bracket");

	memset(&g, 0xa5, sizeof(g));
	k_clock_gettime(CLOCK_REALTIME, &a);
	rc = fastraw_clock_gettime(CLOCK_REALTIME, &g.ts);
	k_clock_gettime(CLOCK_REALTIME, &b);
	check_after(&g, "REALTIME wrote past the program's struct timespec");
	if (rc != 0 || g.ts.tv_nsec < 0 || g.ts.tv_nsec >= 1000000000 || ts_ns(&g.ts) < ts_ns(&a) ||
	    ts_ns(&g.ts) > ts_ns(&b))
		fail("REALTIME outside the kernel's bracket");

	errno = 0;
	if (fastraw_clock_gettime(-1000, &g.ts) != -1 || errno != EINVAL)
		fail("a bad id is not -1 with EINVAL");
	printf("failures=%d\n", failures);
	return failures != 0;
}
