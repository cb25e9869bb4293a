/* SPDX-License-Identifier: MIT */
/* What the test interposer (chain_lib.c) counts, and the offset it adds to CLOCK_REALTIME. */
#ifndef FR_E2E_CHAIN_LIB_H
#define FR_E2E_CHAIN_LIB_H

#include <time.h>

/*
 * The name of the clock_gettime of this object's time_t, which the interposer's clock_gettime is
 * and forwards to: glibc's __clock_gettime64 under _TIME_BITS=64 on a 32-bit CPU (as probe.h's
 * E2E_CLOCK_GETTIME), else clock_gettime.
 */
#if defined(__USE_TIME_BITS64) && __SIZEOF_LONG__ == 4
#define CHAIN_CLOCK_GETTIME "__clock_gettime64"
#else
#define CHAIN_CLOCK_GETTIME "clock_gettime"
#endif

/* Added to every CLOCK_REALTIME answer that passes through the test interposer: about 3 years. */
#define CHAIN_REALTIME_OFFSET_S 100000000L

/* Calls that reached each of the test interposer's functions. */
struct chain_counts {
	long clock_gettime, clock_raw, dlsym, getauxval, syscall;
};

/* Copies the counts so far; found by the probe with dlsym (which itself counts as one call). */
typedef void (*chain_counts_fn)(struct chain_counts *out);

/*
 * e2e_chain_next_clock: dlsym(RTLD_NEXT, "clock_gettime") and dlvsym(RTLD_NEXT, "clock_gettime",
 * "GLIBC_2.17") from the test interposer itself, through whichever dlsym and dlvsym its own
 * references bind to (libfastraw's when libfastraw comes first).
 */
typedef void (*chain_next_clock_fn)(void **plain, void **versioned);

#endif
