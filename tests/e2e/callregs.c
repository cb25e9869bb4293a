/* SPDX-License-Identifier: MIT */
/* Probe side: clock_gettime through syscall() with the timespec in the stack slot that tests/oracle/<cpu>/callregs_asm.c lays out. */
#include "callregs.h"

#include "cpu_test.h"

#include <string.h>
#include <sys/syscall.h>

int e2e_syscall_clock(clockid_t clk, struct timespec *ts)
{
	struct e2e_call c = { .a = { FRT_SYS_CLOCK_GETTIME, clk }, .use_slot = 1 };

	e2e_call_syscall(&c);
	if (c.ret == 0)
		memcpy(ts, c.slot, sizeof(*ts));
	return (int)c.ret;
}
