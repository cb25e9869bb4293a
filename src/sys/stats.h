/* SPDX-License-Identifier: MIT */
/* FASTRAW_STATS: per-clock counts of calls served and passed through, printed at exit. */
#ifndef FR_STATS_H
#define FR_STATS_H

#include <stdint.h>
#include <time.h>

#include "sys/passthru.h"

/* Set once at start-up when FASTRAW_STATS=1; everything here costs nothing while it is 0. */
extern int fr_stats_on;

/* Counts one call that went to the real vDSO (or the kernel). */
void fr_stats_pass(clockid_t clk);

/* Starts counting: RAW calls go through a counting wrapper of target. */
fr_raw_fn fr_stats_start(fr_raw_fn target);

/* The exit line, "fastraw: stats: MONOTONIC_RAW fast=N passthrough=M, ...", into buf (for tests). */
void fr_stats_format(char *buf, size_t len);

#endif
