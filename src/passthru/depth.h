/* SPDX-License-Identifier: MIT */
/* A bound on calls that leave libfastraw for the next definition and come back into it on the same thread. */
#ifndef FR_DEPTH_H
#define FR_DEPTH_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * How many forwarding calls may be under way on one thread, each inside the one before. A
 * definition after ours that leads back to us (a compatibility wrapper calling a name we export,
 * another library re-exporting libc's names, a copy that chains back) would otherwise go round
 * for ever: a tail jump spins, a call overflows the stack. Legitimate nesting is shallow: a
 * signal handler that reads the clock while an interposer after us runs adds one level.
 */
#define FR_DEPTH_MAX 8
#define FR_DEPTH_MAX_TEXT "8"

/*
 * One thread's record: the stack position of its innermost forwarding call under way and how
 * many are under way. A call that never returned (a signal handler siglongjmp'd out of it)
 * leaves a record at or below the stack of every later call from the frames it jumped to: a
 * record not above the new call's own frame is taken as stale, so a lost level is never counted
 * against later calls from higher up.
 */
struct fr_depth {
	uintptr_t sp;
	unsigned n;
};

/*
 * Enters a forwarding call: 1 when it may go on (leave with fr_depth_leave(saved) after it
 * returns), 0 when this thread already has FR_DEPTH_MAX under way below each other (the caller
 * answers by its own fallback instead, and nothing is to be left). saved lives in the caller's
 * frame: its address is the call's stack position. Before relocation (no thread-local storage
 * yet: only the loader's thread runs our code then) a process-wide count stands in.
 */
int fr_depth_enter(struct fr_depth *saved);
void fr_depth_leave(const struct fr_depth *saved);

/* FASTRAW_DEBUG=1, as initialisation read it (0 before it). */
extern int fr_depth_debug __attribute__((visibility("hidden")));

/* Under FASTRAW_DEBUG=1, says once per process that a forwarding call for name came back too deep. */
void fr_depth_report(const char *name);

#pragma GCC visibility pop

#endif
