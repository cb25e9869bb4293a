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

/* fastraw_clock_gettime(clk) into a guarded timespec: 0, inside the kernel's bracket, nothing past it written. */
static void check_clock(clockid_t clk, const char *name)
{
	struct guarded g;
	struct timespec a, b;
	int rc;

	memset(&g, 0xa5, sizeof(g));
	k_clock_gettime(clk, &a);
	rc = fastraw_clock_gettime(clk, &g.ts);
	k_clock_gettime(clk, &b);
	for (size_t i = 0; i < sizeof(g.after); i++)
		if (g.after[i] != 0xa5) {
			printf("FAIL %s wrote past the program's struct timespec\n", name);
			failures++;
			break;
		}
	if (rc != 0 || g.ts.tv_nsec < 0 || g.ts.tv_nsec >= 1000000000 || ts_ns(&g.ts) < ts_ns(&a) ||
	    ts_ns(&g.ts) > ts_ns(&b)) {
		printf("FAIL %s: %d, or outside the kernel's bracket\n", name, rc);
		failures++;
	}
}

int main(void)
{
	struct timespec ts;

	printf("time_t=%d bits\n", (int)(8 * sizeof(time_t)));
	check_clock(CLOCK_MONOTONIC_RAW, "RAW");
	check_clock(CLOCK_REALTIME, "REALTIME");
	errno = 0;
	if (fastraw_clock_gettime(-1000, &ts) != -1 || errno != EINVAL) {
		printf("FAIL a bad id is not -1 with EINVAL\n");
		failures++;
	}
	printf("failures=%d\n", failures);
	return failures != 0;
}
