/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's data page of 4.1-5.4 (struct vdso_data): whether a page holds it, and one seqcount-consistent read. */
#ifndef FR_ARMDATA_H
#define FR_ARMDATA_H

#include <stdint.h>

#include "kdata/gtod.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Decodes the page at page (the [vvar] page, struct vdso_data at +0) inside its seqcount and
 * checks that it holds this layout (docs/kernel-data.md, "32-bit ARM before 5.5"). Returns NULL
 * and *out filled (era FR_GTOD_ARM_4_1, tsc = tk_is_cntvct, the kernel's verdict on whether its
 * vDSO reads the counter), or why not; on refusal out->tsc is 0. The page must be readable: the
 * caller asks first (calib/calib_gtod.c). CPU-neutral: the unit tests run it on any host.
 */
const char *fr_armdata_read(const volatile uint8_t *page, struct fr_gtod *out);

#pragma GCC visibility pop

#endif
