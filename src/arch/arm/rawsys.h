/* SPDX-License-Identifier: MIT */
/* A system call by the svc instruction itself: libc's syscall() is ours, errno stays untouched, and it works before relocation. */
#ifndef FR_ARM_RAWSYS_H
#define FR_ARM_RAWSYS_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * System call nr with six arguments (EABI): the kernel's result, a negative errno on failure.
 * The number goes in r7, the arguments in r0-r5, the result comes back in r0; the kernel
 * preserves every other register. r7 is Thumb code's frame pointer only with
 * -fno-omit-frame-pointer, which the library is not built with; the number is moved into r7
 * inside the asm, around a save of it, so that no frame-pointer build breaks either.
 */
static inline long fr_sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r3 __asm__("r3") = d;
	register long r4 __asm__("r4") = e;
	register long r5 __asm__("r5") = f;
	register long r6 __asm__("r6") = nr;

	__asm__ volatile("mov ip, r7\n\tmov r7, r6\n\tsvc #0\n\tmov r7, ip"
			 : "+r"(r0)
			 : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6)
			 : "ip", "memory");
	return r0;
}

/* The same with three arguments, the rest 0. */
static inline long fr_sys3(long nr, long a, long b, long c)
{
	return fr_sys6(nr, a, b, c, 0, 0, 0);
}

#pragma GCC visibility pop

#endif
