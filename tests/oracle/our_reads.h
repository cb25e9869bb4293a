/* SPDX-License-Identifier: MIT */
/* Our side of an oracle comparison: libfastraw's fast and general reads of the copy's data at injected counter values. */
#ifndef FR_ORACLE_OOURS_H
#define FR_ORACLE_OOURS_H

#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"

/* What our two reads answered: their return values and times. */
struct oours {
	int rf, rg;
	struct timespec f, g;
};

/*
 * Reads CLOCK_MONOTONIC_RAW from kd with fr_raw_read_with and fr_raw_read_general_with, the
 * counter reading cnt the first time and cnt2 after: before (if any) runs ahead of each read,
 * on_read (if any) at each counter read with its index, as around the kernel's copy.
 */
void oours_read(const struct fr_kdata *kd, void (*before)(void), void (*on_read)(unsigned n), uint64_t cnt,
		uint64_t cnt2, struct oours *o);

/* The same for any served clock (exact/clocks.h): fr_clock_read_with and fr_clock_read_general_with. */
void oours_read_clock(const struct fr_kdata *kd, clockid_t clk, void (*before)(void), void (*on_read)(unsigned n),
		      uint64_t cnt, uint64_t cnt2, struct oours *o);

#endif
