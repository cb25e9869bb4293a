/* SPDX-License-Identifier: MIT */
/* FASTRAW_STATS: per-clock counts of calls served and passed through, printed at exit. */
#ifndef FR_STATS_H
#define FR_STATS_H

#include <stdint.h>
#include <time.h>

#include "sys/log.h"
#include "sys/passthru.h"

/*
 * Set once at start-up when FASTRAW_STATS=1; everything here costs nothing while it is 0.
 *
 * What is counted: each thread counts in a slot of its own (no shared cache line, no lock),
 * and the exit line sums the slots of every thread, alive or gone. Each process's line counts
 * the calls made in that process: a fork child starts from zero. A vfork or CLONE_VM child
 * shares its parent's memory and the calling thread's slot, and never runs destructors, so its
 * calls are counted in its parent's line (a CLONE_VM child that runs beside the thread whose TLS
 * it shares, without CLONE_VFORK, can make a few counts get lost). Counting is safe in signal
 * handlers: an increment is one instruction.
 */
extern int fr_stats_on;

/* Counts one call that went to the real vDSO (or the kernel). */
void fr_stats_pass(clockid_t clk);

/*
 * Starts counting: RAW calls go through a counting wrapper of target. The first start also
 * notes which file fd 2 is (the exit line goes only there) and arranges for fork children to
 * start from zero.
 */
fr_raw_fn fr_stats_start(fr_raw_fn target);

/* Appends the exit line's text, "stats: MONOTONIC_RAW fast=N passthrough=M, ...", to l. */
void fr_stats_format(struct fr_line *l);

/* Whether fd 2 still names the file it named when counting started (never, if it was closed then). */
int fr_stats_stderr_unchanged(void);

#endif
