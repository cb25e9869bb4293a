/* SPDX-License-Identifier: MIT */
/* The per-mode detail of fastraw-bench: every FASTRAW_TSC mode, exact and calibrated, in a child of its own. */
#ifndef BENCH_MODES_H
#define BENCH_MODES_H

/*
 * Runs one child per FASTRAW_TSC mode (and each again with FASTRAW_SOURCE=calibrated) under
 * LD_PRELOAD=lib and prints its table: the bare counter, preloaded and libc RAW and MONOTONIC,
 * the ordering check and the public API, best of rounds x iters. Returns 0, or 1 when a mode
 * failed or was not interposed.
 */
int bench_modes_run(const char *lib, int rounds, long iters);

#endif
