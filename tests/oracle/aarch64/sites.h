/* SPDX-License-Identifier: MIT */
/* Finds, in an arm64 vDSO image, what the oracle reroutes: counter reads, clock_gettime system calls, carry loops. */
#ifndef FR_TEST_ASITES_H
#define FR_TEST_ASITES_H

#include <stddef.h>
#include <stdint.h>

#define AS_MAX_SITES 16

/* One `mrs xN, cntvct_el0` or `mrs xN, cntvctss_el0`. */
struct as_read {
	size_t at;    /* offset in the image */
	uint8_t reg;  /* N */
	uint8_t ss;   /* the self-synchronising CNTVCTSS_EL0 (ECV) */
	uint8_t live; /* followed by the ordering dependency (eor xT, xN, xN): a read the code executes,
			 not an alternative's replacement text */
};

/*
 * The seconds carry of __iter_div_u64_rem as the compilers emit it, entered only with v > 999999999:
 *   loop: add xV, xV, xK (xK = -1e9) | sub xV, xV, xK (xK = 1e9); add wC, wC, #1; cmp xV, xM; b.hi loop
 */
struct as_carry {
	size_t at, resume; /* the loop's first instruction, and the one after its b.hi */
	uint8_t v, c, m, k; /* the value, the 32-bit count, the 999999999 and the step registers */
	uint8_t sub;        /* the step is subtracted (xK = 1e9), else added (xK = -1e9) */
	uint32_t orig;     /* the loop's first instruction, restored for native runs */
};

#include "../armfam/vdso_sites.h"

#endif
