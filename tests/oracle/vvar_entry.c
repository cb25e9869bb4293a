/* SPDX-License-Identifier: MIT */
/* The time-namespace edit of a copied vvar, the same on every architecture the oracles cover. */
#include "vvar_entry.h"

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
	oe_put64(oe_raw_base(oe_entry(vvar, lay, 0, 1), lay), off_sec);
	oe_put64(oe_raw_base(oe_entry(vvar, lay, 0, 1), lay) + 8, off_nsec);
}
