/* SPDX-License-Identifier: MIT */
/* The interface of the test library whose constructor reads the clock. */
#ifndef FR_E2E_CTOR_LIB_H
#define FR_E2E_CTOR_LIB_H

#include "probe.h"

/* The bracketed reads made by the library's constructor. */
const struct e2e_tally *e2e_ctor_tally(void);
/* The file that served clock_gettime as the constructor saw it. */
const char *e2e_ctor_served(void);

#endif
