/* SPDX-License-Identifier: MIT */
/* What the ARM family oracle's regime file shares with its main: the readiness check and the registration. */
#ifndef FR_TEST_AREGIMES_H
#define FR_TEST_AREGIMES_H

#include <check.h>

/*
 * Whether regime may run: the copy is open. Where it could not be made although a vDSO with RAW
 * data exists, the test fails with the reason; where there is legitimately nothing to copy the
 * regime is recorded as skipped and 0 returned.
 */
int oracle_ready(const char *regime);

/* The regimes (regimes.c). */
void oracle_add_regimes(TCase *tc);

#endif
