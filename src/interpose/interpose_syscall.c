/* SPDX-License-Identifier: MIT */
/* The exported syscall(): SYS_clock_gettime on the fast path, every other call to the kernel untouched. */
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/runtime.h"

#define FR_EXPORT __attribute__((visibility("default")))

/* The syscall instruction with all six argument registers, as libc's syscall() issues it. */
static inline long sys6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * libc's convention: the kernel's -4095..-1 become -1 with errno set; anything else is
 * returned as it is. Callers that pass fewer arguments leave the rest of the six registers
 * with whatever they held, as they do for libc's syscall(): va_arg reads them from the
 * register save area, so reading six is safe on x86_64.
 *
 * Hazard, shared with libc's: a syscall(SYS_vfork) child returns through this frame on the
 * parent's stack; and a new thread from syscall(SYS_clone) with its own stack cannot return.
 */
FR_EXPORT long syscall(long nr, ...)
{
	long a[6], ret;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	/* The kernel takes the clock id as an int: the same truncation. A NULL timespec goes to it (EFAULT). */
	if (nr == SYS_clock_gettime && a[1] != 0) {
		clockid_t clk = (clockid_t)a[0];
		struct timespec *ts = (struct timespec *)a[1];

		if (__builtin_expect(clk == CLOCK_MONOTONIC_RAW, 1))
			return __atomic_load_n(&fr_raw, __ATOMIC_ACQUIRE)(ts);
		return fr_passthrough(clk, ts);
	}
	ret = sys6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if ((unsigned long)ret > -4096UL) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
