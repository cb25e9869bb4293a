/* SPDX-License-Identifier: MIT */
/* fr_hot.real, the pointer behind fr_real_get: private to the pass-through and the unit tests' seam. */
#ifndef FR_PASSTHRU_REAL_H
#define FR_PASSTHRU_REAL_H

#include "base/clockfn.h"
#include "base/hot.h"

/*
 * Private: only src/passthru/ includes it, and the unit tests as their seam (test_calib_source
 * stands a synthetic kernel clock in). Everything else reaches the vDSO-convention target through
 * fr_real_get and fr_passthrough_vdso (passthru/passthru.h).
 */

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * fr_hot.real (base/hot.h): the pass-through target in the vDSO's convention. It starts at an
 * init trampoline that resolves the real vDSO and swaps itself out on first use; read and
 * written through its .call member, the one pointer the atomics act on.
 */

#pragma GCC visibility pop

#endif
