/* SPDX-License-Identifier: MIT */
/* The EABI's division-by-zero hooks, which libgcc's division helpers call: returning, so that libgcc's own, which raise SIGFPE through libc's raise, are not linked in. */
#include "arch/arch.h"

/*
 * 32-bit ARM has no 64-bit divide instruction: every 64-bit / and % is a call into libgcc
 * (__aeabi_uldivmod), which calls these on a zero divisor. libgcc's versions call raise(SIGFPE),
 * a libc import the library must not have, and a signal it must never send. These return, as
 * the run-time ABI allows (the quotient is then what the helper computed, 0): no path of the
 * library divides by zero. The names are the EABI's, hence the leading underscores.
 */
int __aeabi_idiv0(int r);
long long __aeabi_ldiv0(long long r);

int __aeabi_idiv0(int r)
{
	(void)r;
	return 0;
}

long long __aeabi_ldiv0(long long r)
{
	(void)r;
	return 0;
}
