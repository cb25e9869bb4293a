/* SPDX-License-Identifier: MIT */
/* A system call by the ARM CPUs' svc instruction itself: libc's syscall() is ours, errno stays untouched, and it works before relocation. */
#ifndef FR_ARMFAM_RAWSYS_H
#define FR_ARMFAM_RAWSYS_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * System call nr with six arguments: the kernel's result, a negative errno on failure. The
 * arguments go in the port's registers 0-5 (FR_ARMFAM_REG(n)), the number in
 * FR_ARMFAM_SYS_NR, the result comes back in register 0; FR_ARMFAM_SVC is the instruction with
 * whatever moves the number needs, FR_ARMFAM_SVC_CLOBBERS what those moves use. The kernel
 * preserves every other register.
 */
static inline long fr_sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long n __asm__(FR_ARMFAM_SYS_NR) = nr;
	register long a0 __asm__(FR_ARMFAM_REG(0)) = a;
	register long a1 __asm__(FR_ARMFAM_REG(1)) = b;
	register long a2 __asm__(FR_ARMFAM_REG(2)) = c;
	register long a3 __asm__(FR_ARMFAM_REG(3)) = d;
	register long a4 __asm__(FR_ARMFAM_REG(4)) = e;
	register long a5 __asm__(FR_ARMFAM_REG(5)) = f;

	__asm__ volatile(FR_ARMFAM_SVC
			 : "+r"(a0)
			 : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(n)
			 : FR_ARMFAM_SVC_CLOBBERS "memory");
	return a0;
}

#pragma GCC visibility pop

#endif
