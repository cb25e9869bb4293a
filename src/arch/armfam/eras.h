/* SPDX-License-Identifier: MIT */
/* The era table of both ARM CPUs, lib/vdso's layouts: the CPU's eras.h names its first release, its pages below [vdso] before 6.15 and its namespace page. */
#ifndef FR_ARMFAM_ERAS_H
#define FR_ARMFAM_ERAS_H

/*
 * arm64 and 32-bit ARM keep the same struct vdso_data (EABI aligns u64 to 8): 240 bytes,
 * hrtimer_res at +232, clock_data[0] at the start of the page, no max_cycles (neither selects
 * GENERIC_VDSO_OVERFLOW_PROTECT, so every field sits at its 5.3 offset and the delta is
 * lib/vdso's masked default). 6.15's generic data store gives four pages below [vdso] (time,
 * namespace, random-number data, the one arch page every architecture reserves) and struct
 * vdso_clock of 224 bytes, hrtimer_res after the two clocks (2 * 224 + 8), which 6.17's
 * aux_clock_data[8] moves to (10 * 224 + 8). One row per era, oldest first; fields left out are 0.
 */
const struct fr_era fr_eras[] = {
	{ .major = 5, .minor = FR_ARMFAM_FIRST_MINOR, .lay = { .name = FR_ARMFAM_FIRST_NAME, .rules = FR_RULES_MASKED, .pages_below = FR_ARMFAM_PAGES_BELOW, .clock_size = 0xF0, .hrtimer_off = 232, .timens_page = FR_ARMFAM_TIMENS_PAGE, .timens_mode = 0x7FFFFFFFu } },
	{ .major = 6, .minor = 15, .lay = { .name = "6.15-6.16", .rules = FR_RULES_MASKED, .pages_below = 4, .clock_size = 0xE0, .hrtimer_off = 2 * 0xE0 + 8, .timens_page = FR_ARMFAM_TIMENS_PAGE, .timens_mode = 0x7FFFFFFFu } },
	{ .major = 6, .minor = 17, .lay = { .name = "6.17+", .rules = FR_RULES_MASKED, .pages_below = 4, .clock_size = 0xE0, .hrtimer_off = 10 * 0xE0 + 8, .timens_page = FR_ARMFAM_TIMENS_PAGE, .timens_mode = 0x7FFFFFFFu } },
};

#endif
