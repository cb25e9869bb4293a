/* SPDX-License-Identifier: MIT */
/* The kernel's own clock_gettime, reached with the syscall instruction so no interposer can catch it. */
#ifndef FR_TEST_KSYS_H
#define FR_TEST_KSYS_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

/* A system call of two arguments, by the instruction itself: the kernel's answer, -errno on failure. */
static inline long k_syscall2(long nr, long a1, long a2)
{
	long ret;

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a1;
	register long x1 __asm__("x1") = a2;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	ret = x0;
#else
#error "ksys.h: no system call instruction for this architecture"
#endif
	return ret;
}

static inline long k_clock_gettime(clockid_t clk, struct timespec *ts)
{
	return k_syscall2(SYS_clock_gettime, (long)clk, (long)ts);
}

static inline int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

#endif
