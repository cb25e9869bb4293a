/* SPDX-License-Identifier: MIT */
/* Finds, in a 32-bit ARM vDSO image (A32 code), what the oracle reroutes: counter reads, clock_gettime system calls, carry loops. */
#ifndef FR_TEST_ASITES_H
#define FR_TEST_ASITES_H

#include <stddef.h>
#include <stdint.h>

#define AS_MAX_SITES 16

/* One `mrrc p15, 1, Rlo, Rhi, c14` (CNTVCT). */
struct as_read {
	size_t at;   /* offset in the image */
	uint8_t lo, hi; /* the registers of its low and high words */
	uint8_t live;   /* always 1: the 32-bit vDSO has no alternative replacements */
};

/*
 * The seconds carry of __iter_div_u64_rem as GCC emits it in A32 for 32-bit ARM (Debian's armmp
 * 6.1 and 6.12 vDSOs), the 64-bit value in (Hi:Lo), entered only with a value > 999999999:
 *   loop: adds Lo', Lo, K (K = -1e9's low word); add C, C, #1; sbc Hi', Hi, #0; cmp M, Lo'
 *         (M = 999999999); mov Hi, Hi' and mov Lo, Lo' (either order); sbcs T, Z, Hi (Z = 0); bcc loop
 */
struct as_carry {
	size_t at, resume;              /* the loop's first instruction, and the one after its bcc */
	uint8_t lo, hi, lo2, hi2;       /* the value's words and their next values */
	uint8_t c, k, m, z, t;          /* the count, the step, 999999999, zero, the last sbcs's result */
	uint32_t orig;                  /* the loop's first instruction, restored for native runs */
};

#include "../armfam/vdso_sites.h"

#endif
