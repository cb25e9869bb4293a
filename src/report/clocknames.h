/* SPDX-License-Identifier: MIT */
/* Names of the POSIX clock ids, for messages, statistics and the tools' -c option. */
#ifndef FR_CLOCKNAMES_H
#define FR_CLOCKNAMES_H

#include <time.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* "MONOTONIC_RAW" for CLOCK_MONOTONIC_RAW; NULL for ids without a name (CPU clocks, invalid). */
const char *fr_clock_name(clockid_t clk);

/*
 * Parses a clock: a name with or without "CLOCK_" in any case ("monotonic_raw", "CLOCK_TAI"),
 * or a decimal id (negative allowed). Returns 0, or -1 when s is neither.
 */
int fr_clock_parse(const char *s, clockid_t *out);

#pragma GCC visibility pop

#endif
