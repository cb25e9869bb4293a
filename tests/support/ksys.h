/* SPDX-License-Identifier: MIT */
/* The kernel's own clock_gettime, reached with the syscall instruction so no interposer can catch it. */
#ifndef FR_TEST_KSYS_H
#define FR_TEST_KSYS_H

#include <errno.h>
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
#ifdef SYS_clock_gettime64
	/* A 32-bit program built with a 64-bit time_t (-D_TIME_BITS=64: the arm build, Debian
	   trixie's armhf packages) has the 64-bit system call's timespec, not clock_gettime's; one
	   built with a 32-bit time_t (the kernel matrix's bullseye probes) has clock_gettime's. */
	if (sizeof(ts->tv_sec) > sizeof(long)) {
		struct {
			long sec, nsec;
		} t32;
		long ret = k_syscall2(SYS_clock_gettime64, (long)clk, (long)ts);

		/* Before 5.1 there is no clock_gettime64 (ENOSYS): the 32-bit call, widened, as glibc does. */
		if (ret != -ENOSYS)
			return ret;
		/* A NULL timespec stays NULL: the kernel's answer is then EFAULT (or EINVAL), as asked. */
		ret = k_syscall2(SYS_clock_gettime, (long)clk, ts ? (long)&t32 : 0);
		if (ret == 0 && ts) {
			ts->tv_sec = t32.sec;
			ts->tv_nsec = t32.nsec;
		}
		return ret;
	}
#endif
	return k_syscall2(SYS_clock_gettime, (long)clk, (long)ts);
}

static inline int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

#endif
