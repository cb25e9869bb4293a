/* SPDX-License-Identifier: MIT */
/* The kernel eras of x86-64 the unit tests build synthetic pages for (tests/unit/synth.h's struct era). */
#include "../../unit/synth.h"

/*
 * Offsets from docs/kernel-data.md §2.7: CS_RAW entry 0x170 (5.3-6.9: 0x80 + 240-byte vdso_data),
 * 0x178 (6.10-6.12: 0x80 + 248), 0xF8 (6.13-6.14: 0 + 248), 0xE8 (6.15+: 0 + 232).
 * hrtimer_res sits after basetime[12] and the two tz ints of clock_data[0]: 0x80 + 32 + 192 + 8 =
 * 0x168 (5.3-6.9), 8 later with max_cycles (0x170 for 6.10, 0xF0 for 6.13), after
 * clock_data[2] + tz in 6.15 (2*0xE8 + 8 = 0x1D8), and at 0x918 after aux_clock_data[8] in 6.17
 * [measured]. Namespaces (§8): none before 5.6; the real data at [vvar] page 3 until 6.12 and
 * page 1 from 6.13; marker UINT_MAX in 5.6 and INT_MAX from 5.7 (§5). [vvar] is 3 pages below
 * the vDSO in 5.3-5.5, 4 in 5.6-6.14, 6 from 6.15; the pvclock page is [vvar]+1 until 6.12, then
 * [vvar]+2 (6.13-6.14) and [vvar]+4 (6.15+). Every x86 vDSO clocksource has mask ~0.
 */
const struct era eras[N_ERAS] = {
	{ "5.3", M_5_3, 0x170, 0xF0, 0, 0x168, 0, 0, "5.3-5.5", "5.4.0", 3, 1, FR_RULES_5_3, ~0ULL },
	{ "5.6", M_5_3, 0x170, 0xF0, 0, 0x168, 3, 0xFFFFFFFFu, "5.6", "5.6.1", 4, 1, FR_RULES_5_3, ~0ULL },
	{ "5.7", M_5_3, 0x170, 0xF0, 0, 0x168, 3, 0x7FFFFFFFu, "5.7-6.4", "5.15.0", 4, 1, FR_RULES_5_3, ~0ULL },
	{ "6.5", M_6_5, 0x170, 0xF0, 0, 0x168, 3, 0x7FFFFFFFu, "6.5-6.9", "6.8.0", 4, 1, FR_RULES_6_5, ~0ULL },
	{ "6.10", M_6_10, 0x178, 0xF8, 1, 0x170, 3, 0x7FFFFFFFu, "6.10-6.12", "6.12.0-55.el10", 4, 1, FR_RULES_6_10,
	  ~0ULL },
	{ "6.13", M_6_10, 0xF8, 0xF8, 1, 0xF0, 1, 0x7FFFFFFFu, "6.13-6.14", "6.14.0", 4, 2, FR_RULES_6_10, ~0ULL },
	{ "6.15", M_6_10, 0xE8, 0xE8, 1, 0x1D8, 1, 0x7FFFFFFFu, "6.15-6.16", "6.16.1", 6, 4, FR_RULES_6_10, ~0ULL },
	{ "6.17", M_6_10, 0xE8, 0xE8, 1, 0x918, 1, 0x7FFFFFFFu, "6.17+", "7.3-cloud-amd64", 6, 4, FR_RULES_6_10,
	  ~0ULL },
};
