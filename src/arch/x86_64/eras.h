/* SPDX-License-Identifier: MIT */
/* x86-64's data-page eras from 5.3 on: where each kernel release keeps the CS_RAW entry and its neighbours. */
#ifndef FR_X86_64_ERAS_H
#define FR_X86_64_ERAS_H

/*
 * Facts from include/vdso/datapage.h, arch/x86/entry/vdso/vdso-layout.lds.S and
 * lib/vdso/datastore.c of each era (docs/kernel-data.md §2 names the sources):
 * 5.3:  [vvar] = vdso - 3 pages (vvar, pvclock, hvclock); vdso_data[2] at +0x80, 240 bytes each.
 * 5.6:  a fourth page, timens, holds the real data inside a namespace; marker VCLOCK_TIMENS = UINT_MAX.
 * 5.7:  the marker becomes VDSO_CLOCKMODE_TIMENS = INT_MAX.
 * 6.5:  new delta rules (bit 62). 6.10: max_cycles (+8 bytes), 248-byte entries, 128-bit path.
 * 6.13: data at offset 0; timens is [vvar] page 1; pvclock moves to [vvar_vclock] = vdso - 2 pages.
 * 6.15: generic data store: [vvar] = vdso - 6 pages; struct vdso_clock of 232 bytes.
 * 6.17: aux_clock_data[8] after clock_data[2] moves hrtimer_res from 0x1d8 to 0x918.
 *
 * One row per era, oldest first, with the first release it holds for; fields left out are 0.
 * 6.19-7.3 keep the 6.17 layout: 7.2's and 7.3's include/vdso/datapage.h and
 * arch/x86/include/asm/vdso/{vsyscall, gettimeofday}.h give the same struct vdso_clock (0xE8),
 * aux_clock_data[8], hrtimer_res at 0x918, [vvar] 6 pages below the vDSO and the 6.10 delta rules,
 * and their vDSO reads RAW at vdso - 0x6000 + 0xE8. 6.18 was measured; 6.19-7.1 lie between and
 * are taken to match (docs/kernel-data.md §11).
 */
const struct fr_era fr_eras[] = {
	{ .major = 5, .minor = 3, .lay = { .name = "5.3-5.5", .rules = FR_RULES_5_3, .pages_below = 3, .data_off = 0x80, .clock_size = 0xF0, .hrtimer_off = 232, .vclock_page = 1 } },
	{ .major = 5, .minor = 6, .lay = { .name = "5.6", .rules = FR_RULES_5_3, .pages_below = 4, .data_off = 0x80, .clock_size = 0xF0, .hrtimer_off = 232, .timens_page = 3, .timens_mode = 0xFFFFFFFFu, .vclock_page = 1 } },
	{ .major = 5, .minor = 7, .lay = { .name = "5.7-6.4", .rules = FR_RULES_5_3, .pages_below = 4, .data_off = 0x80, .clock_size = 0xF0, .hrtimer_off = 232, .timens_page = 3, .timens_mode = 0x7FFFFFFFu, .vclock_page = 1 } },
	{ .major = 6, .minor = 5, .lay = { .name = "6.5-6.9", .rules = FR_RULES_6_5, .pages_below = 4, .data_off = 0x80, .clock_size = 0xF0, .hrtimer_off = 232, .timens_page = 3, .timens_mode = 0x7FFFFFFFu, .vclock_page = 1 } },
	{ .major = 6, .minor = 10, .lay = { .name = "6.10-6.12", .rules = FR_RULES_6_10, .pages_below = 4, .data_off = 0x80, .clock_size = 0xF8, .field_shift = 8, .hrtimer_off = 240, .timens_page = 3, .timens_mode = 0x7FFFFFFFu, .vclock_page = 1 } },
	{ .major = 6, .minor = 13, .lay = { .name = "6.13-6.14", .rules = FR_RULES_6_10, .pages_below = 4, .clock_size = 0xF8, .field_shift = 8, .hrtimer_off = 240, .timens_page = 1, .timens_mode = 0x7FFFFFFFu, .vclock_page = 2 } },
	{ .major = 6, .minor = 15, .lay = { .name = "6.15-6.16", .rules = FR_RULES_6_10, .pages_below = 6, .clock_size = 0xE8, .field_shift = 8, .hrtimer_off = 0x1D8, .timens_page = 1, .timens_mode = 0x7FFFFFFFu, .vclock_page = 4 } },
	{ .major = 6, .minor = 17, .lay = { .name = "6.17+", .rules = FR_RULES_6_10, .pages_below = 6, .clock_size = 0xE8, .field_shift = 8, .hrtimer_off = 0x918, .timens_page = 1, .timens_mode = 0x7FFFFFFFu, .vclock_page = 4 } },
};

/* Why a release before the first row gets no layout (printed by FASTRAW_DEBUG). */
const char fr_eras_old_why[] = "kernel before 5.3 exports no CLOCK_MONOTONIC_RAW data";

#endif
