/* SPDX-License-Identifier: MIT */
/* The EABI's division-by-zero hooks, which libgcc's division helpers call: returning 0, so that libgcc's own, which raise SIGFPE through libc's raise, are not linked in. */
#include "arch/arm/stub_asm.h"

/*
 * 32-bit ARM has no 64-bit divide instruction: every 64-bit / and % is a call into libgcc
 * (__aeabi_uldivmod), which calls these on a zero divisor. libgcc's versions call raise(SIGFPE),
 * a libc import the library must not have, and a signal it must never send. These return 0, as
 * the run-time ABI allows (the helper's quotient is then 0): no path of the library divides by
 * zero. Objects of the shared library itself (a *.S of FR_ARCH_SOURCES): from an archive they
 * would come too late to stand in for libgcc's (nothing before libgcc refers to them). Hidden:
 * the library's own, never exported.
 */
	.text
	.hidden __aeabi_idiv0
	.hidden __aeabi_ldiv0
fr_arm_func __aeabi_idiv0
	movs r0, #0
	bx lr
	.size __aeabi_idiv0, .-__aeabi_idiv0

fr_arm_func __aeabi_ldiv0
	movs r0, #0
	movs r1, #0
	bx lr
	.size __aeabi_ldiv0, .-__aeabi_ldiv0

	.section .note.GNU-stack, "", %progbits
