/* SPDX-License-Identifier: MIT */
/* The clock function types every layer shares: what the pass-through, the fast paths and the counters hand each other. */
#ifndef FR_CLOCKFN_H
#define FR_CLOCKFN_H

#include <stdint.h>
#include <time.h>

#include "arch/arch.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* clock_gettime(CLOCK_MONOTONIC_RAW, ts) in libc's convention: 0, or -1 with errno. */
typedef int (*fr_raw_fn)(struct timespec *ts);
/*
 * clock_gettime with the vDSO's (and the kernel's) convention: 0 or a negative errno, errno
 * untouched. Wrapped in a struct so that it is a type of its own: it neither converts to nor from
 * fr_clock_fn, so that handing one convention's function where the other's is expected does not
 * compile. One pointer member travels in a register like the bare pointer, so it costs no
 * instruction. Called as f.call(clk, ts), or fr_kcall (passthru/passthru.h) for a typed result.
 */
typedef struct fr_real_fn {
	int (*call)(clockid_t clk, struct timespec *ts);
} fr_real_fn;
/* clock_gettime with libc's convention: 0, or -1 with errno. A bare pointer: what dlsym finds. */
typedef int (*fr_clock_fn)(clockid_t clk, struct timespec *ts);
/* The two stay apart (a typedef of the bare pointer would make them one), at a register's size. */
_Static_assert(!__builtin_types_compatible_p(fr_real_fn, fr_clock_fn), "the two conventions are distinct types");
_Static_assert(sizeof(fr_real_fn) == sizeof(fr_clock_fn), "fr_real_fn is one pointer");
/*
 * The name of libc's clock_gettime whose timespec is the library's: glibc's 64-bit-time one
 * (GLIBC_2.34) where a 32-bit ABI has both and the library is built with 64-bit time_t.
 */
#if FR_ARCH_HAS_TIME64
#define FR_CLOCK_GETTIME_NAME "__clock_gettime64"
#else
#define FR_CLOCK_GETTIME_NAME "clock_gettime"
#endif

/* CLOCK_MONOTONIC_RAW as one integer of nanoseconds (-1 when even the pass-through failed). */
typedef int64_t (*fr_now_fn)(void);

#pragma GCC visibility pop

#endif
