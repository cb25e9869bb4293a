/* SPDX-License-Identifier: MIT */
/* arm64's trampolines' handler for the vDSO copy (../armfam/vdso_copy.c): counter reads, system calls and carry loops served. */
#include <sys/syscall.h>

#include "../armfam/copy_cpu.h"

/* The clock_gettime system call itself, as the vDSO's fallback makes it. */
static long sys_clock_gettime(uint64_t clk, uint64_t ts)
{
	register uint64_t x0 __asm__("x0") = clk;
	register uint64_t x1 __asm__("x1") = ts;
	register uint64_t x8 __asm__("x8") = SYS_clock_gettime;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x8) : "memory");
	return (long)x0;
}

/* NZCV of "cmp a, b" (SUBS XZR, a, b), as bits 31..28. */
static uint64_t cmp_flags(uint64_t a, uint64_t b)
{
	uint64_t r = a - b;
	uint64_t n = r >> 63, z = r == 0, c = a >= b, v = ((a ^ b) & (a ^ r)) >> 63;

	return n << 31 | z << 30 | c << 29 | v << 28;
}

static void serve_carry(uint64_t *f, const struct as_carry *c)
{
	uint64_t v = f[c->v], q;

	if (f[c->k] != (c->sub ? AC_NSEC_PER_SEC : (uint64_t)-AC_NSEC_PER_SEC) || v < AC_NSEC_PER_SEC)
		ac_hs.bad_carry++;
	/* The loop subtracts 1e9 and counts (a u32) while the value stays above 999999999. */
	q = v / AC_NSEC_PER_SEC;
	f[c->v] = v % AC_NSEC_PER_SEC;
	f[c->c] = (uint32_t)(f[c->c] + q);
	/* The flags its last cmp leaves; nothing after the loop reads them, but keep them exact. */
	f[AT_NZCV] = (f[AT_NZCV] & ~0xf0000000ull) | cmp_flags(f[c->v], f[c->m]);
	ac_hs.carries++;
}

/* f holds x0..x30 and NZCV. */
void acpu_on_trap(uint64_t *f, unsigned id)
{
	unsigned i = id & 0xff;

	switch (id >> 8) {
	case AT_READ:
		if (ac_hs.hook)
			ac_hs.hook(ac_hs.reads);
		f[ac_hs.sites->read[i].reg] = ac_hs.reads ? ac_hs.tsc2 : ac_hs.tsc;
		ac_hs.read_site = (int)i;
		ac_hs.reads++;
		break;
	case AT_SYSCALL:
		f[0] = (uint64_t)sys_clock_gettime(f[0], f[1]);
		ac_hs.syscalls++;
		break;
	case AT_CARRY:
		serve_carry(f, &ac_hs.sites->carry[i]);
		break;
	}
}
