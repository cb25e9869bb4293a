/* SPDX-License-Identifier: MIT */
/* The clock function types every layer shares: what the pass-through, the fast paths and the counters hand each other. */
#ifndef FR_CLOCKFN_H
#define FR_CLOCKFN_H

#include <stdint.h>
#include <time.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* clock_gettime(CLOCK_MONOTONIC_RAW, ts) in libc's convention: 0, or -1 with errno. */
typedef int (*fr_raw_fn)(struct timespec *ts);
/* clock_gettime with the vDSO's convention: 0 or a negative errno. */
typedef int (*fr_real_fn)(clockid_t clk, struct timespec *ts);
/* clock_gettime with libc's convention: 0, or -1 with errno. */
typedef int (*fr_clock_fn)(clockid_t clk, struct timespec *ts);
/* CLOCK_MONOTONIC_RAW as one integer of nanoseconds (-1 when even the pass-through failed). */
typedef int64_t (*fr_now_fn)(void);

#pragma GCC visibility pop

#endif
