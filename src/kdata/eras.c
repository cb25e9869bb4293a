/* SPDX-License-Identifier: MIT */
/* The era table of this build's CPU: its rows are the architecture's (arch/<cpu>/eras.h), its declarations kdata's. */
#include "kdata/eras.h"

/* After kdata/eras.h: the table's rows name struct fr_era and the FR_RULES_* values. */
#include "arch/eras.h"

const unsigned fr_n_eras = sizeof(fr_eras) / sizeof(fr_eras[0]);
