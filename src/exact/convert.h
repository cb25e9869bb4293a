/* SPDX-License-Identifier: MIT */
/* Late conversion of a counter value to CLOCK_MONOTONIC_RAW with the data pages as they are now. */
#ifndef FR_CONVERT_H
#define FR_CONVERT_H

#include <stdint.h>

#include "kdata/kdata.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * CLOCK_MONOTONIC_RAW in nanoseconds (time-namespace offset included) for a counter value read
 * at any earlier or later time, on the line of the pages' current snapshot (fr_raw_line_ns,
 * fr_pvclock_line, fr_hvclock_cycles). Returns FR_OK, or FR_PASS when the pages cannot convert:
 * clock mode none, a cleared pvclock stable bit, a Hyper-V page with sequence 0, no vclock page,
 * a clocksource value with the vDSO's "invalid" bit, or a seqcount that never settles.
 */
int fr_ticks_to_ns(const struct fr_kdata *kd, uint64_t ticks, int64_t *out);

#pragma GCC visibility pop

#endif
