/* SPDX-License-Identifier: MIT */
/* The kernel eras of 32-bit ARM the unit tests build synthetic pages for (tests/unit/synth.h's struct era). */
#include "../../unit/synth.h"

/*
 * 32-bit ARM (docs/kernel-data.md, the 32-bit ARM section; by the sources): EABI aligns u64 to 8,
 * so the entries are arm64's: struct vdso_data of 240 bytes up to 6.14, struct vdso_clock of 224
 * from 6.15, hrtimer_res at 232, 456 and 2248. [vvar] is one page below the vDSO up to 6.14, 4
 * from 6.15; no time-namespace page in any era (no GENERIC_VDSO_TIME_NS). Mask 56 bits.
 */
const struct era eras[N_ERAS] = {
	{ "5.5", M_MASKED, 240, 240, 0, 232, 0, 0x7FFFFFFFu, "5.5-6.14", "6.1.0-28-armmp", 1, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
	{ "6.15", M_MASKED, 224, 224, 0, 456, 0, 0x7FFFFFFFu, "6.15-6.16", "6.16.1", 4, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
	{ "6.17", M_MASKED, 224, 224, 0, 2248, 0, 0x7FFFFFFFu, "6.17+", "7.3-armmp", 4, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
};
