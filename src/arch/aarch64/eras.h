/* SPDX-License-Identifier: MIT */
/* arm64's data-page eras: where each kernel release keeps the CS_RAW entry, directly below the vDSO image. */
#ifndef FR_AARCH64_ERAS_H
#define FR_AARCH64_ERAS_H

/*
 * Facts from include/vdso/datapage.h, arch/arm64/kernel/vdso.c, arch/arm64/kernel/vdso/vdso.lds.S
 * and lib/vdso/datastore.c (docs/kernel-data.md, the arm64 section), and the pages of Debian's
 * 6.1, 6.12, 7.2 and 7.3 arm64 kernels, measured:
 * - the data pages sit directly below [vdso]; page 0 is the time data, page 1 the time
 *   namespace page (the real data inside a namespace, where page 0 carries the marker);
 * - clock_data[0] starts the page (no arch data before it, no offset);
 * - arm64 does not select GENERIC_VDSO_OVERFLOW_PROTECT: no max_cycles in any era, so every
 *   field sits at its 5.3 offset, and the vDSO's delta is lib/vdso's masked default;
 * - up to 6.14 [vvar] is two pages, struct vdso_data of 240 bytes, hrtimer_res at +232;
 * - 6.15's generic data store gives four pages (time, namespace, random-number data, one the
 *   architecture reserves), struct vdso_clock of 224 bytes, hrtimer_res after the two clocks
 *   (2 * 224 + 8), and 6.17's aux_clock_data[8] moves it to (10 * 224 + 8).
 * Releases before 5.10 are not served: their arm64 vDSO predates the time-namespace page and
 * its clock_mode numbering is not the one above for every release, and none of them was
 * measured. 6.13-6.14 sit between the measured 6.12 and 7.2 and keep 6.12's layout and
 * placement by the sources: the maps check (startup/locate.c) refuses a placement that differs.
 */

/* The family table's parameters (arch/armfam/eras.h): the first release served, its [vvar] pages, the namespace page (0: none). */
#define FR_ARMFAM_FIRST_MINOR 10
#define FR_ARMFAM_FIRST_NAME "5.10-6.14"
#define FR_ARMFAM_PAGES_BELOW 2
#define FR_ARMFAM_TIMENS_PAGE 1
#include "arch/armfam/eras.h"

/* Why a release before the first row gets no layout (printed by FASTRAW_DEBUG). */
const char fr_eras_old_why[] = "arm64 kernel before 5.10: its data-page layout is not one this build knows";

#endif
