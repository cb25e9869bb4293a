/* SPDX-License-Identifier: MIT */
/* The oracle on the live pages: snapshots of this kernel's data page, each fed through its vDSO code and ours at real counter values. */
#ifndef FR_ORACLE_OLIVE_H
#define FR_ORACLE_OLIVE_H

#include <stdint.h>

/*
 * What one run saw. A snapshot is a settled copy of the live data page; every snapshot's values
 * go through the copied vDSO code and through ours, for RAW and each served clock in turn. The
 * rest describes how the page moved between snapshots, so that a test can require that the
 * comparisons straddled the change it made.
 */
struct olive_counts {
	unsigned snapshots;
	unsigned compared;    /* comparisons, RAW's and the served clocks' */
	unsigned differences; /* differences, mismatches and misbehaving calls of the copy: 0 when exact */
	unsigned mult_changes;     /* CS_HRES_COARSE's mult differed from the previous snapshot's */
	unsigned raw_mult_changes; /* the same for CS_RAW's */
	uint32_t mult_first, mult_min, mult_max;
	unsigned rt_steps_fwd, rt_steps_back; /* REALTIME's base moved against MONOTONIC's by more than 0.5 s */
	unsigned tai_changes;                 /* TAI's base moved against REALTIME's (the TAI offset changed) */
	int64_t tai_first, tai_last;          /* TAI - REALTIME in seconds, first and last snapshot */
	int64_t tai_seen[4];                  /* the first distinct TAI offsets seen */
	unsigned n_tai_seen;
};

/* Opens the copy of this process's vDSO; NULL, or why it cannot be made. */
const char *olive_open(void);
void olive_close(void);

/*
 * Compares for `ns` nanoseconds of CLOCK_MONOTONIC_RAW, snapshot after snapshot; prints the
 * tally lines under `name`. Returns nonzero when every comparison agreed.
 */
int olive_run(const char *name, int64_t ns, struct olive_counts *c);

#endif
