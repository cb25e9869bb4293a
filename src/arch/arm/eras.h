/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's data-page eras: where each kernel release keeps the CS_RAW entry, directly below the vDSO image. */
#ifndef FR_ARM_ERAS_H
#define FR_ARM_ERAS_H

/*
 * The table's definition, included once, by kdata/eras.c through arch/eras.h: struct fr_era and
 * the FR_RULES_* values are kdata's and math's, declared there before this file.
 */

/*
 * Facts from include/vdso/datapage.h, arch/arm/kernel/vdso.c and lib/vdso/datastore.c
 * (docs/kernel-data.md, the 32-bit ARM section):
 * - 5.5 moved 32-bit ARM to the generic vDSO; before it the vDSO served no MONOTONIC_RAW;
 * - up to 6.14 [vvar] is one page directly below [vdso] (arm_install_vdso), struct vdso_data
 *   at its start: EABI aligns u64 to 8, so the struct is arm64's, 240 bytes, hrtimer_res at +232;
 * - 32-bit ARM has no time-namespace vDSO (it does not select GENERIC_VDSO_TIME_NS, so no
 *   CONFIG_TIME_NS): no namespace page in any era;
 * - 6.15's generic data store gives VDSO_NR_PAGES = 4 pages below [vdso] (time, namespace,
 *   random-number data, the one arch page every architecture reserves), struct vdso_clock of
 *   224 bytes (no OVERFLOW_PROTECT), hrtimer_res after the two clocks, and 6.17's
 *   aux_clock_data[8] moves it to (10 * 224 + 8).
 * None of these layouts was measured on a running 32-bit kernel from this folder; the maps check
 * (startup/locate.c) refuses a placement that differs.
 */
const struct fr_era fr_eras[] = {
	{
		.major = 5,
		.minor = 5,
		.lay = {
			.name = "5.5-6.14",
			.rules = FR_RULES_MASKED,
			.pages_below = 1,
			.data_off = 0,
			.clock_size = 0xF0,
			.field_shift = 0,
			.hrtimer_off = 232,
			.timens_page = 0,
			.timens_mode = 0x7FFFFFFFu,
			.vclock_page = 0,
		},
	},
	{
		.major = 6,
		.minor = 15,
		.lay = {
			.name = "6.15-6.16",
			.rules = FR_RULES_MASKED,
			.pages_below = 4,
			.data_off = 0,
			.clock_size = 0xE0,
			.field_shift = 0,
			.hrtimer_off = 2 * 0xE0 + 8,
			.timens_page = 0,
			.timens_mode = 0x7FFFFFFFu,
			.vclock_page = 0,
		},
	},
	{
		.major = 6,
		.minor = 17,
		.lay = {
			.name = "6.17+",
			.rules = FR_RULES_MASKED,
			.pages_below = 4,
			.data_off = 0,
			.clock_size = 0xE0,
			.field_shift = 0,
			.hrtimer_off = 10 * 0xE0 + 8,
			.timens_page = 0,
			.timens_mode = 0x7FFFFFFFu,
			.vclock_page = 0,
		},
	},
};

/* Why a release before the first row gets no layout (fr_eras_old_why, printed by FASTRAW_DEBUG). */
#define FR_ARCH_ERAS_OLD_WHY "32-bit ARM kernel before 5.5: its vDSO serves no CLOCK_MONOTONIC_RAW (the calibrated mode's seed is its vdso_data)"

#endif
