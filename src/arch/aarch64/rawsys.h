/* SPDX-License-Identifier: MIT */
/* A system call by the svc instruction itself: libc's syscall() is ours, errno stays untouched, and it works before relocation. */
#ifndef FR_AARCH64_RAWSYS_H
#define FR_AARCH64_RAWSYS_H

/*
 * System call nr with six arguments: the kernel's result, a negative errno on failure. The
 * number goes in x8, the arguments in x0-x5, the result comes back in x0; the kernel preserves
 * every other general register.
 */
static inline long fr_sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}

/* The same with three arguments, the rest 0. */
static inline long fr_sys3(long nr, long a, long b, long c)
{
	return fr_sys6(nr, a, b, c, 0, 0, 0);
}

#endif
