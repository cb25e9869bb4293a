/* SPDX-License-Identifier: MIT */
/* A system call by the syscall instruction itself: libc's syscall() is ours, errno stays untouched, and it works before relocation. */
#ifndef FR_X86_64_RAWSYS_H
#define FR_X86_64_RAWSYS_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* System call nr with six arguments: the kernel's result, a negative errno on failure. */
static inline long fr_sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#pragma GCC visibility pop

#endif
