/* SPDX-License-Identifier: MIT */
/* The kernel's own clock_gettime, reached with the syscall instruction so no interposer can catch it. */
#ifndef FR_TEST_KSYS_H
#define FR_TEST_KSYS_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

static inline long k_clock_gettime(clockid_t clk, struct timespec *ts)
{
	long ret;

#if defined(__x86_64__)
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_clock_gettime), "D"((long)clk), "S"(ts)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_clock_gettime;
	register long x0 __asm__("x0") = (long)clk;
	register long x1 __asm__("x1") = (long)ts;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	ret = x0;
#else
#error "ksys.h: no system call instruction for this architecture"
#endif
	return ret;
}

static inline int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

#endif
