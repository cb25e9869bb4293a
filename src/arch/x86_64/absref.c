/* SPDX-License-Identifier: MIT */
/* Finds the loads of x86-64 code from absolute 32-bit addresses: how 3.10's vDSO addresses its fixed-address data page. */
#include "arch/arch.h"

/*
 * In 64-bit code the only ModRM form with an absolute address is mod 00, r/m 100 (a SIB byte
 * follows) with the SIB's base 101 and index 100: no base, no index, a sign-extended disp32
 * ([disp32], Intel SDM vol. 2 table 2-3; mod 00 r/m 101 alone is RIP-relative). 3.10's vDSO
 * loads its gtod fields this way, e.g. "mov 0xffffffffff5ff080,%eax" is 8b 04 25 80 f0 5f ff.
 * The scan looks at every byte offset for a ModRM and SIB pair of that form followed by a
 * displacement in [lo, hi): it does not decode instruction boundaries, so it can only miss
 * nothing; a false match needs the four displacement bytes of the page's own address.
 */
#define MODRM_SIB_NO_DISP_MASK 0xc7
#define MODRM_SIB_NO_DISP 0x04
#define SIB_ABSOLUTE_MASK 0x3f
#define SIB_ABSOLUTE 0x25

unsigned fr_arch_abs_refs(const uint8_t *code, unsigned long n, uint64_t lo, uint64_t hi, unsigned *at_lo)
{
	unsigned refs = 0;

	*at_lo = 0;
	for (unsigned long i = 0; i + 6 <= n; i++) {
		uint32_t d;
		uint64_t a;

		if ((code[i] & MODRM_SIB_NO_DISP_MASK) != MODRM_SIB_NO_DISP ||
		    (code[i + 1] & SIB_ABSOLUTE_MASK) != SIB_ABSOLUTE)
			continue;
		d = (uint32_t)code[i + 2] | (uint32_t)code[i + 3] << 8 | (uint32_t)code[i + 4] << 16 |
		    (uint32_t)code[i + 5] << 24;
		a = (uint64_t)(int64_t)(int32_t)d;
		if (a < lo || a >= hi)
			continue;
		refs++;
		if (a == lo)
			++*at_lo;
	}
	return refs;
}
