/* SPDX-License-Identifier: MIT */
/* The time-namespace edit of a copied vvar, the same on every architecture the oracles cover. */
#include "vvar_entry.h"

#include <time.h>

void oe_set_timens(uint8_t *vvar, const struct fr_layout *lay, uint64_t off_sec, uint64_t off_nsec)
{
	unsigned tp = lay->timens_page;

	if (oe_get32(oe_entry(vvar, lay, 0, 1) + FR_OFF_MODE) != lay->timens_mode) {
		memcpy(vvar + tp * OENTRY_PAGE, vvar, OENTRY_PAGE);
		memset(vvar, 0, OENTRY_PAGE);
		for (unsigned i = 0; i < 2; i++) {
			oe_put32(oe_entry(vvar, lay, 0, i) + FR_OFF_SEQ, 1);
			oe_put32(oe_entry(vvar, lay, 0, i) + FR_OFF_MODE, lay->timens_mode);
		}
	}
	/* Both entries carry every clock's offset, as the kernel writes them into each. */
	for (unsigned i = 0; i < 2; i++) {
		static const unsigned mono[] = { CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC_COARSE };
		uint8_t *e = oe_entry(vvar, lay, 0, i);

		for (unsigned k = 0; k < 3; k++) {
			oe_put64(oe_clock_base(e, lay, mono[k]), off_sec);
			oe_put64(oe_clock_base(e, lay, mono[k]) + 8, off_nsec);
		}
		oe_put64(oe_clock_base(e, lay, CLOCK_BOOTTIME), off_sec + OE_BOOT_EXTRA);
		oe_put64(oe_clock_base(e, lay, CLOCK_BOOTTIME) + 8, off_nsec);
	}
}
