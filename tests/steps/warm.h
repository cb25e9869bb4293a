/* SPDX-License-Identifier: MIT */
/* The warm-up before a traced call: until libfastraw has published its decision, then a few calls more. */
#ifndef FR_STEPS_WARM_H
#define FR_STEPS_WARM_H

#include "probe.h"

/* Calls before the traced one: the first initialises the library, the rest warm the caches. */
#define STEP_WARMUP 8
/* Calls at most until the library says it has decided (fastraw_info answers). */
#define STEP_WARMUP_MAX 100000

/*
 * Calls fn(CLOCK_MONOTONIC_RAW) as a preloaded program would until fastraw_info answers 0 (no
 * initialiser at work any more; -1 while one is), then STEP_WARMUP times. 1: it answered; 0: it
 * never did; -1: there is no fastraw_info.
 */
int step_warm_up(e2e_clock_fn fn);

#endif
