/* SPDX-License-Identifier: MIT */
/* Probe: a handler that siglongjmps out of an interposer after libfastraw, from ever deeper frames, leaves that interposer answering every later call. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "probe.h"

extern int loop_lib_raise;

#define JUMPS 12
#define DEEP 20

static sigjmp_buf back;

static void on_usr1(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

/*
 * REALTIME through clock_gettime from depth frames down, each with a buffer it leaves unwritten
 * (so a record a jump left there keeps its check word); 1 when the interposer answered.
 */
static __attribute__((noinline)) int at_depth(int depth, int jump)
{
	volatile char pad[256];
	struct timespec ts = { 0, 0 };

	pad[0] = 0;
	if (depth > 0)
		return at_depth(depth - 1, jump) + pad[0];
	loop_lib_raise = jump;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_nsec == 123456789;
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	printf("before=%d\n", at_depth(DEEP, 0));
	for (volatile int i = 1; i <= JUMPS; i++)
		if (!sigsetjmp(back, 1))
			at_depth(i, 1);
	printf("after_shallow=%d\n", at_depth(0, 0));
	printf("after_deep=%d\n", at_depth(DEEP, 0));
	printf("after_middle=%d\n", at_depth(JUMPS / 2, 0));
	return 0;
}
