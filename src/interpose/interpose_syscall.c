/* SPDX-License-Identifier: MIT */
/* The exported syscall(): every call to the kernel untouched, RAW clock_gettime on the fast path only when asked for. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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
 * Whether the fast path may write a timespec at p without faulting where the kernel would not:
 * p lies above the lowest page user space may map (vm.mmap_min_addr's usual 64 KiB), below the
 * end of the 47-bit user half, and the 16 bytes do not cross a page boundary. Anything else
 * (NULL, 0x1, a kernel or non-canonical address, a store straddling into the next page) goes
 * to the kernel, which answers EFAULT or writes it: one compare-and-branch, never a system call.
 * A mapped but unwritable page (read-only, PROT_NONE) cannot be told without one; that hazard
 * is why the fast path here is opt-in (FASTRAW_SYSCALL=1), as README explains.
 */
static inline int fast_target(long p)
{
	const uintptr_t lo = 0x10000, hi = 0x7ffffffff000 - sizeof(struct timespec);
	uintptr_t u = (uintptr_t)p;

	return u - lo <= hi - lo && (u & 4095) <= 4096 - sizeof(struct timespec);
}

/*
 * libc's convention: the kernel's -4095..-1 become -1 with errno set; anything else is
 * returned as it is. Callers that pass fewer arguments leave the rest of the six registers
 * with whatever they held, as they do for libc's syscall(): va_arg reads them from the
 * register save area, so reading six is safe on x86_64.
 *
 * Every call, clock_gettime included, is the kernel's own system call, so that syscall() keeps
 * the kernel's contract (EFAULT for a bad pointer, the system call itself for programs that
 * test it). Only with FASTRAW_SYSCALL=1 does RAW with a plausible pointer take the fast path.
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
	/* The kernel takes the clock id as an int: the same truncation. */
	if (nr == SYS_clock_gettime && (clockid_t)a[0] == CLOCK_MONOTONIC_RAW && fast_target(a[1]) &&
	    fr_syscall_serves_raw())
		return __atomic_load_n(&fr_raw, __ATOMIC_ACQUIRE)((struct timespec *)a[1]);
	ret = sys6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if ((unsigned long)ret > -4096UL) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
