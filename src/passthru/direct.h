/* SPDX-License-Identifier: MIT */
/* The vDSO reached straight from the exported clock_gettime: fr_hot.direct, private to the pass-through and that one edge. */
#ifndef FR_PASSTHRU_DIRECT_H
#define FR_PASSTHRU_DIRECT_H

#include <time.h>

#include "base/access.h"
#include "passthru/passthru.h"

/*
 * Private: only src/passthru/ and the exported edge that inlines fr_vdso_libc
 * (src/interpose/interpose.c) include it. fr_hot.direct holds a function of the vDSO's convention (0
 * or -errno); it is converted to libc's here, once, and nowhere else.
 */

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The clocks the vDSO answers itself and for which its answer is 0: REALTIME, MONOTONIC, their
 * COARSE variants, BOOTTIME and TAI are always valid ids, so the only failure left is a bad
 * pointer, and the vDSO writes through it itself (a fault there is a fault under libc's own as
 * well). For these the vDSO's convention is libc's, and the call is a tail jump into the vDSO.
 * The one difference: while the clocksource is one the vDSO cannot read (it then makes the
 * system call), a bad pointer gets -EFAULT returned instead of -1 and errno (README, Guarantees).
 */
#define FR_ALWAYS_ZERO ((1u << CLOCK_REALTIME) | (1u << CLOCK_MONOTONIC) | (1u << CLOCK_REALTIME_COARSE) | \
			(1u << CLOCK_MONOTONIC_COARSE) | (1u << CLOCK_BOOTTIME) | (1u << CLOCK_TAI))

static inline int fr_vdso_answers_zero(clockid_t clk)
{
	return (unsigned)clk < 32 && (FR_ALWAYS_ZERO >> clk) & 1;
}

/*
 * fr_hot.direct (base/hot.h): the vDSO with libc's convention put on top: what libc's own
 * clock_gettime does, one call and one jump closer. For the clocks of fr_vdso_answers_zero the
 * conventions agree, and the call is a tail jump into the vDSO.
 */

/*
 * The first pass-through call (fr_hot.pass and fr_hot.direct both NULL): resolves where the chain goes,
 * publishes it and makes the call. Before this object is relocated it resolves nothing of ours
 * and calls the next clock_gettime in the chain (fr_early_clock_gettime).
 */
int fr_pass_first(clockid_t clk, struct timespec *ts) __attribute__((cold, noinline));

static inline int fr_vdso_libc(clockid_t clk, struct timespec *ts)
{
	fr_real_fn real = { __atomic_load_n(&fr_hot.direct.call, __ATOMIC_ACQUIRE) };

	if (FR_UNLIKELY(!real.call))
		return fr_pass_first(clk, ts);
	if (fr_vdso_answers_zero(clk))
		return real.call(clk, ts);
	return fr_finish(fr_kcall(real, clk, ts));
}

#pragma GCC visibility pop

#endif
