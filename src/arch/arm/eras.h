/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's data-page eras: where each kernel release keeps the CS_RAW entry, directly below the vDSO image. */
#ifndef FR_ARM_ERAS_H
#define FR_ARM_ERAS_H

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

/* The family table's parameters (arch/armfam/eras.h): the first release served, its [vvar] pages, the namespace page (0: none). */
#define FR_ARMFAM_FIRST_MINOR 5
#define FR_ARMFAM_FIRST_NAME "5.5-6.14"
#define FR_ARMFAM_PAGES_BELOW 1
#define FR_ARMFAM_TIMENS_PAGE 0
#include "arch/armfam/eras.h"

/* Why a release before the first row gets no layout (printed by FASTRAW_DEBUG). */
const char fr_eras_old_why[] = "32-bit ARM kernel before 5.5: its vDSO serves no CLOCK_MONOTONIC_RAW (the calibrated mode's seed is its vdso_data)";

#endif
