/* SPDX-License-Identifier: MIT */
/* The kernel's own clock_gettime, reached with the syscall instruction so no interposer can catch it. */
#ifndef FR_TEST_KSYS_H
#define FR_TEST_KSYS_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "cpu_test.h"

/* A system call of two arguments, by the instruction itself: the kernel's answer, -errno on failure. */
static inline long k_syscall2(long nr, long a1, long a2)
{
	/* The instruction is the CPU's: tests/oracle/<cpu>/cpu_test.h. */
	return frt_ksys2(nr, a1, a2);
}

static inline long k_clock_gettime(clockid_t clk, struct timespec *ts)
{
	/* The system call whose timespec is this build's (cpu_test.h: clock_gettime64 on armhf's 64-bit time_t). */
	return k_syscall2(FRT_SYS_CLOCK_GETTIME, (long)clk, (long)ts);
}

static inline int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

#endif
