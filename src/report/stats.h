/* SPDX-License-Identifier: MIT */
/* FASTRAW_STATS: per-clock counts of calls served and passed through, printed at exit. */
#ifndef FR_STATS_H
#define FR_STATS_H

#include <stdint.h>
#include <time.h>

#include "base/access.h"
#include "base/libc.h"
#include "arch/arch.h"
#include "base/clockfn.h"
#include "base/hot.h"
#include "report/log.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * fr_hot.stats_on (base/hot.h): set once at start-up when FASTRAW_STATS=1; everything here costs
 * nothing while it is 0.
 *
 * What is counted: each thread counts in a slot of its own (no shared cache line, no lock),
 * and the exit line sums the slots of every thread, alive or gone. Each process's line counts
 * the calls made in that process: a fork child starts from zero. A vfork or CLONE_VM child
 * shares its parent's memory and the calling thread's slot, and never runs destructors, so its
 * calls are counted in its parent's line (a CLONE_VM child that runs beside the thread whose TLS
 * it shares, without CLONE_VFORK, can make a few counts get lost). Counting is safe in signal
 * handlers: an increment is one instruction.
 */

/* Counts one call that went to the real vDSO (or the kernel). */
void fr_stats_pass(clockid_t clk);

/* Counts 0..11 for the named clock ids, the last for every other id (CPU clocks, invalid ids). */
#define FR_STATS_CLOCKS 13

/* One thread's counts. Only that thread writes them; cache lines of its own. */
struct fr_stats_slot {
	uint64_t raw;                   /* RAW calls made through the counting wrapper */
	uint64_t pass[FR_STATS_CLOCKS]; /* calls the real vDSO or the kernel answered, per clock id */
	uint64_t fast[FR_STATS_CLOCKS]; /* calls of the other served clocks (FASTRAW_CLOCKS) answered here */
} __attribute__((aligned(128)));

/*
 * This thread's slot, NULL until its first counted call. Initial-exec under glibc: one
 * %fs-relative load (FR_TLS_MODEL, base/libc.h).
 * The pointer lives in TLS, the counts do not: they outlive the thread.
 */
extern __thread struct fr_stats_slot *fr_stats_mine
	__attribute__((tls_model(FR_TLS_MODEL), visibility("hidden")));

/*
 * One instruction (fr_arch_inc64): a signal handler that counts on this thread runs before or
 * after it, never between a load and a store, so no count is lost. The slot has no other
 * writer, so no lock.
 */
static inline void fr_stats_bump(uint64_t *p)
{
	fr_arch_inc64(p);
}

static inline int fr_stats_clock_index(clockid_t clk)
{
	return clk >= 0 && clk < FR_STATS_CLOCKS - 1 ? (int)clk : FR_STATS_CLOCKS - 1;
}

/* The first counted call of a thread: takes a slot (or counts in the shared one). Out of line. */
void fr_stats_pass_first(clockid_t clk) __attribute__((noinline, cold));

/* The same for a call of a served clock answered here (fr_stats_served_on). */
void fr_stats_served_first(clockid_t clk) __attribute__((noinline, cold));

/* Counts one call of a served clock (not RAW) answered from the kernel's page, while counting is on. */
static inline void fr_stats_served_on(clockid_t clk)
{
	struct fr_stats_slot *s = fr_stats_mine;

	if (FR_LIKELY(s != NULL))
		fr_stats_bump(&s->fast[fr_stats_clock_index(clk)]);
	else
		fr_stats_served_first(clk);
}

/*
 * fr_stats_pass inlined, for a caller that runs only while counting is on (the pass-through's
 * counting wrapper): this thread's slot when it has one, else the out-of-line first call.
 */
static inline void fr_stats_pass_on(clockid_t clk)
{
	struct fr_stats_slot *s = fr_stats_mine;

	if (FR_LIKELY(s != NULL))
		fr_stats_bump(&s->pass[fr_stats_clock_index(clk)]);
	else
		fr_stats_pass_first(clk);
}

/*
 * How a handler for fork children is registered with libc (elf/dynsym.h's
 * fr_libc_atfork_child), given by start-up before counting starts: this layer cannot read
 * libc's tables, and a pthread_atfork call of its own would import libc_nonshared.a's wrapper
 * and the start files' __dso_handle.
 */
void fr_stats_atfork_via(int (*reg)(void (*child)(void)));

/*
 * Starts counting: RAW calls go through a counting wrapper of target. The first start also
 * arranges for fork children to start from zero: the kernel zeroes their slots
 * (MADV_WIPEONFORK, Linux 4.14, on private anonymous pages), else a fork handler registered
 * through fr_stats_atfork_via's function does. The exit line goes only to the stderr that
 * report/errfd.h noted.
 */
fr_raw_fn fr_stats_start(fr_raw_fn target);

/* Appends the exit line's text, "stats: MONOTONIC_RAW fast=N passthrough=M, ...", to l. */
void fr_stats_format(struct fr_line *l);

#pragma GCC visibility pop

#endif
