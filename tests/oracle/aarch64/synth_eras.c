/* SPDX-License-Identifier: MIT */
/* The kernel eras of arm64 the unit tests build synthetic pages for (tests/unit/synth.h's struct era). */
#include "../../unit/synth.h"

/*
 * arm64 (docs/kernel-data.md, the arm64 section; Debian's 6.1, 6.12 and 7.2 pages measured):
 * no arch data before clock_data[0] and no max_cycles (no GENERIC_VDSO_OVERFLOW_PROTECT), so
 * the CS_RAW entry is clock_data[1] at one entry size: struct vdso_data of 4+4+8+8+4+4+12*16+
 * 4+4+4+4 = 240 bytes up to 6.14, struct vdso_clock of 4+4+8+8+4+4+12*16 = 224 from 6.15.
 * hrtimer_res: after basetime[12] and the two tz ints of clock_data[0] (224 + 8 = 232) up to
 * 6.14; after clock_data[2] and the tz ints (2 * 224 + 8 = 456) in 6.15-6.16; after
 * aux_clock_data[8] too (10 * 224 + 8 = 2248) from 6.17. [vvar] is 2 pages below the vDSO up to
 * 6.14 (data, namespace), 4 from 6.15 (data, namespace, random-number data, arch); the real data
 * of a namespace on page 1, marker INT_MAX (5.7+ numbering). The generic timer's mask is 56 bits.
 */
const struct era eras[N_ERAS] = {
	{ "5.10", M_MASKED, 240, 240, 0, 232, 1, 0x7FFFFFFFu, "5.10-6.14", "6.1.0-28-arm64", 2, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
	{ "6.15", M_MASKED, 224, 224, 0, 456, 1, 0x7FFFFFFFu, "6.15-6.16", "6.16.1", 4, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
	{ "6.17", M_MASKED, 224, 224, 0, 2248, 1, 0x7FFFFFFFu, "6.17+", "7.3-cloud-arm64", 4, 0, FR_RULES_MASKED,
	  SYNTH_MASK56 },
};
