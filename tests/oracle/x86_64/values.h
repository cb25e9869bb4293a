/* SPDX-License-Identifier: MIT */
/* Value generators of the oracle regimes: synthetic clocks, TSC values of each kind, and their classification. */
#ifndef FR_TEST_OGEN_H
#define FR_TEST_OGEN_H

#include <stdint.h>

#include "compare.h"

/* A realistic synthetic TSC clocksource (mult 8004479, shift 24, max_cycles 2^40), random bases. */
struct orun_clock ogen_base_clock(void);

/* Anything goes: mult in [1, 2^32), shift in [0, 31], every base value random. */
struct orun_clock ogen_random_clock(void);

/*
 * A TSC value of one kind relative to c, by kind % 6: above cycle_last within max_cycles,
 * below cycle_last, beyond max_cycles, bit 63 set, in [0, 2^44), random 64-bit.
 */
uint64_t ogen_tsc_kind(const struct orun_clock *c, unsigned kind);

/* A time-namespace offset: sec within +-2^40, nsec mostly normalised (as the kernel keeps it). */
void ogen_offset(uint64_t *sec, uint64_t *nsec);

/* The TSC at which the copied pvclock page reads kvmclock kc (kc >= system_time). */
uint64_t ogen_tsc_at_kvmclock(uint64_t kc);

/* Where a TSC value lands in pvclock mode, against the RAW entry of data page `page`. */
enum { OGEN_BELOW_LAST, OGEN_NORMAL, OGEN_OVER_MAX, OGEN_BELOW_TIMESTAMP, OGEN_CLASSES };
struct ogen_classes {
	unsigned n[OGEN_CLASSES];
};
void ogen_classify(struct ogen_classes *cl, unsigned page, uint64_t tsc);
void ogen_print_classes(const char *name, const struct ogen_classes *cl);

/* TSC values around cycle_last's: kvmclock from up to 2^40 cycles below it to 2^43 above (past max_cycles). */
struct ogen_around {
	uint64_t lo, span;
};
struct ogen_around ogen_around_last(void);

/* One pvclock-mode value through orun_one, classified against the RAW entry of data page `page` first. */
void ogen_one_pv(struct orun_tally *t, struct ogen_classes *cl, unsigned page, uint64_t tsc);

#endif
