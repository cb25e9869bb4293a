/* SPDX-License-Identifier: MIT */
/* The era table of this build's architecture (rows in arch/<cpu>/eras.h, kdata/eras.c): each layout with the first release it holds for. */
#ifndef FR_KDATA_ERAS_H
#define FR_KDATA_ERAS_H

#include "kdata/kdata.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* One era: its first release and its layout. Rows run oldest first; each holds until the next. */
struct fr_era {
	unsigned major, minor;
	struct fr_layout lay;
};

extern const struct fr_era fr_eras[];
extern const unsigned fr_n_eras;

/* Why a release before the first row gets no layout (FASTRAW_DEBUG prints it). */
extern const char fr_eras_old_why[];

#pragma GCC visibility pop

#endif
