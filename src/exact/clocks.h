/* SPDX-License-Identifier: MIT */
/* The served clocks: every clock the kernel's vDSO computes from its page, read as it reads them. */
#ifndef FR_CLOCKS_H
#define FR_CLOCKS_H

#include <stdint.h>
#include <time.h>

#include "exact/fastpath.h"
#include "base/clockfn.h"
#include "base/hot.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The clocks the kernel's vDSO answers from its page (lib/vdso, VDSO_HRES and VDSO_COARSE from
 * 5.3), as a mask of clock ids: the high-resolution ones read the counter against the
 * CS_HRES_COARSE entry's basetime[clock]; the coarse ones read that basetime only.
 */
#define FR_CLOCKS_HRES                                                                               \
	((1u << CLOCK_REALTIME) | (1u << CLOCK_MONOTONIC) | (1u << CLOCK_BOOTTIME) | (1u << CLOCK_TAI))
#define FR_CLOCKS_COARSE ((1u << CLOCK_REALTIME_COARSE) | (1u << CLOCK_MONOTONIC_COARSE))
#define FR_CLOCKS_SERVABLE (FR_CLOCKS_HRES | FR_CLOCKS_COARSE | (1u << CLOCK_MONOTONIC_RAW))

/* Whether clk is in the clock-id mask m. */
static inline int fr_clock_in(uint32_t m, clockid_t clk)
{
	return (uint32_t)clk < 32 && (m >> (uint32_t)clk & 1);
}

/* The served clocks' reader type and what the dispatchers read, fr_hot.served: base/hot.h. */

/*
 * The dispatcher for an era's rules and a counter read, in libc's convention: the clocks of
 * fr_hot.served.hres with that instance's reading inlined, those of fr_hot.served.coarse, and every
 * other call, or one they cannot answer exactly, to fr_hot.served.next. NULL for a layout it
 * cannot serve. One indirect call less than a dispatcher calling a reader.
 */
fr_clock_fn fr_served_for(const struct fr_layout *lay, enum fr_counter_mode mode);

/* The high-resolution reader for an era's rules and a counter read (it reads fr_kd), or NULL. */
fr_clock_read_fn fr_hres_for(const struct fr_layout *lay, enum fr_counter_mode mode);

/* The coarse reader for an era (it reads fr_kd): no counter, so one for every era's field shift. */
fr_clock_read_fn fr_coarse_for(const struct fr_layout *lay);

/*
 * Any servable clock (RAW, high-resolution, coarse) from kd with any counter, the fast reading
 * then the general one as the published readers do, with the layout's own rules, not inlined:
 * for the oracle and the tools. FR_OK or FR_PASS.
 */
int fr_clock_read_with(const struct fr_kdata *kd, fr_counter_fn counter, clockid_t clk, struct timespec *ts);

/* The same with the general (reference) reading only. */
int fr_clock_read_general_with(const struct fr_kdata *kd, fr_counter_fn counter, clockid_t clk,
			       struct timespec *ts);

#pragma GCC visibility pop

#endif
