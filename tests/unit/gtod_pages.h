/* SPDX-License-Identifier: MIT */
/* Synthetic pre-5.3 gtod pages of each layout, filled as the kernel's update_vsyscall leaves them. */
#ifndef FR_TEST_GTOD_PAGES_H
#define FR_TEST_GTOD_PAGES_H

#include <check.h>
#include <stdint.h>

#include "kdata/gtod.h"

/* The clock fields every layout has. */
struct gv {
	uint32_t seq, mode;
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
};

/* The timekeeper's time an update publishes: xtime_sec, xtime_nsec (in ns, shifted when written), wall_to_monotonic. */
struct gtime {
	int64_t sec;
	uint32_t nsec;
	int64_t wtm_sec;
	uint32_t wtm_nsec;
};

/* A realistic time: 2023-11-14, booted 4242 s ago. */
extern const struct gtime gtod_time_now;

/*
 * Fills pg (a whole page) with junk, then one vsyscall_gtod_data of the given layout at +128 with
 * v's clock fields and t's time in every time field the kernel writes (fields it never writes,
 * and padding, zero).
 */
void gtod_build_at(uint8_t *pg, enum fr_gtod_era shape, const struct gv *v, const struct gtime *t);

/* The gtod suite's test case of which layout a page holds (gtod_shape.c). */
TCase *gtod_shape_tcase(void);
/* Its test case of 3.10's fixed-address page and the proof it is mapped (gtod_fixed.c). */
TCase *gtod_fixed_tcase(void);

#endif
