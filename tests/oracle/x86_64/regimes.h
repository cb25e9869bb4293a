/* SPDX-License-Identifier: MIT */
/* What the oracle's regime files share: the readiness check of the copy and their test-case registration. */
#ifndef FR_TEST_OREGIME_H
#define FR_TEST_OREGIME_H

#include <check.h>
#include <stdint.h>

/*
 * Whether regime may run: the copy is open. Where it could not be made although a vDSO with RAW
 * data exists, the test fails with the reason; where there is legitimately nothing to copy (no
 * vDSO, a kernel before 5.3) the regime is recorded as skipped and 0 returned.
 */
int oracle_ready(const char *regime);

/*
 * Whether the copy reads the counter for the clock mode now on its pages (see orun_has_reader);
 * if not, the regime is recorded as skipped because the vDSO has no reader for `what`.
 */
int oracle_has_reader(const char *regime, const char *what, uint64_t tsc);

/* The pvclock regimes 1-3 (regime_pvclock.c) and the hvclock regime 6 (regime_hvclock.c). */
void oracle_add_pvclock(TCase *tc);
void oracle_add_hvclock(TCase *tc);

#endif
