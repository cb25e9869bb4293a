/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's trampolines' handler for the vDSO copy (../armfam/vdso_copy.c): counter reads, system calls and carry loops served. */
#include "../armfam/copy_cpu.h"
#include "cpu_test.h"

#define PSR_NZCV 0xf0000000u

/* NZCV of "sbcs r, a, b" with the carry c in (A32: r = a - b - !c), as bits 31..28. */
static uint32_t sbcs_flags(uint32_t a, uint32_t b, unsigned c)
{
	uint64_t wide = (uint64_t)a - b - !c;
	uint32_t r = (uint32_t)wide;
	uint32_t n = r >> 31, z = r == 0, cout = (wide >> 32) == 0, v = ((a ^ b) & (a ^ r)) >> 31;

	return n << 31 | z << 30 | cout << 29 | v << 28;
}

/*
 * The loop subtracts 1e9 from the 64-bit (Hi:Lo) and counts (a u32) while the value stays above
 * (Z:M) = 999999999. Its last pass leaves both value pairs at the remainder, the last cmp's carry
 * set (M >= the remainder) and sbcs's T = Z - Hi with its flags.
 */
static void serve_carry(uint32_t *f, const struct as_carry *c)
{
	uint64_t v = (uint64_t)f[c->hi] << 32 | f[c->lo], r, q;

	if (f[c->k] != (uint32_t)-AC_NSEC_PER_SEC || f[c->m] != AC_NSEC_PER_SEC - 1 || f[c->z] != 0 ||
	    v < AC_NSEC_PER_SEC)
		ac_hs.bad_carry++;
	q = v / AC_NSEC_PER_SEC;
	r = v % AC_NSEC_PER_SEC;
	f[c->lo2] = (uint32_t)r;
	f[c->c] = (uint32_t)(f[c->c] + q);
	f[c->hi2] = (uint32_t)(r >> 32);
	f[c->hi] = (uint32_t)(r >> 32);
	f[c->lo] = (uint32_t)r;
	f[c->t] = f[c->z] - f[c->hi];
	f[AT_PSR] = (f[AT_PSR] & ~PSR_NZCV) | sbcs_flags(f[c->z], f[c->hi], 1);
	ac_hs.carries++;
}

/* f holds r0..r12, lr and the APSR. */
void acpu_on_trap(uint32_t *f, unsigned id)
{
	unsigned i = id & 0xff;
	uint64_t v;

	switch (id >> 8) {
	case AT_READ:
		if (ac_hs.hook)
			ac_hs.hook(ac_hs.reads);
		v = ac_hs.reads ? ac_hs.tsc2 : ac_hs.tsc;
		f[ac_hs.sites->read[i].lo] = (uint32_t)v;
		f[ac_hs.sites->read[i].hi] = (uint32_t)(v >> 32);
		ac_hs.read_site = (int)i;
		ac_hs.reads++;
		break;
	case AT_SYSCALL:
		/* The number the copy put in r7 (clock_gettime or clock_gettime64), its arguments in r0, r1. */
		f[0] = (uint32_t)frt_ksys2((long)f[7], (long)f[0], (long)f[1]);
		ac_hs.syscalls++;
		break;
	case AT_CARRY:
		serve_carry(f, &ac_hs.sites->carry[i]);
		break;
	}
}
