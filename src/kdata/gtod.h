/* SPDX-License-Identifier: MIT */
/* The pre-5.3 kernel data page (vsyscall_gtod_data): its layout by kernel release, and one consistent read of it. */
#ifndef FR_GTOD_H
#define FR_GTOD_H

#include <stdint.h>

/*
 * The pre-5.3 data page (vsyscall_gtod_data at vvar+128), in the layouts of
 * docs/kernel-data.md §2.1-2.3: 3.10, 3.16-4.19, 4.20-5.2. It has no RAW data; its mult is the
 * NTP-adjusted one, good enough for a seed. Clock mode numbers differ by era (§5 table).
 */
enum fr_gtod_era { FR_GTOD_3_10, FR_GTOD_4_X, FR_GTOD_4_20 };

struct fr_gtod {
	int tsc;        /* the clock mode is TSC */
	uint32_t mode;  /* raw mode value */
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
};

/* The era for a release string ("3.10.0-1160.el7.x86_64", "4.19.0"); -1 for 5.3+, unknown, or an architecture without it. */
int fr_gtod_era_for_release(const char *release);
/* Decodes one gtod copy inside its seqcount (page points at the vvar page; +128 is added
   here). Returns NULL or why it could not (odd seq that never settles, implausible values). */
const char *fr_gtod_read(const volatile uint8_t *page, enum fr_gtod_era era, struct fr_gtod *out);

#endif
