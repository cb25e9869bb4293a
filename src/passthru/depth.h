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
 * signal handler that reads the clock while an interposer after us runs adds one level. The
 * bound leaves room for records left behind by siglongjmp that no later call from higher up
 * dropped (see below), and keeps a loop's stack within a few kilobytes, a small sigaltstack's size.
 */
#define FR_DEPTH_MAX 16
#define FR_DEPTH_MAX_TEXT "16"

/*
 * One forwarding call's record, in the frame of the call it stands for: how many calls were under
 * way on the thread when it was entered. The thread's own list (depth.c, thread-local, off the
 * stack) holds each call's stack position, and is only compared with later positions, never read
 * through: a call whose position lies above the new call's frame (stacks grow down) is one it is
 * nested in; one at or below it never returned here (a signal handler siglongjmp'd out of it) and
 * is dropped. A lost level is then never counted against later calls, and a frame that is gone
 * (a coroutine's stack unmapped) is never read.
 */
struct fr_depth {
	unsigned n;
};

/*
 * Enters a forwarding call: 1 when it may go on (leave with fr_depth_leave(saved) after it
 * returns), 0 when this thread already has FR_DEPTH_MAX under way below each other (the caller
 * answers by its own fallback instead, and nothing is to be left). saved is the call's record
 * and lives in the caller's frame: its address is the call's stack position. Before relocation (no thread-local storage
 * yet: only the loader's thread runs our code then) a process-wide count stands in.
 */
int fr_depth_enter(struct fr_depth *saved);
void fr_depth_leave(struct fr_depth *saved);

/* Under FASTRAW_DEBUG=1, says once per process that a forwarding call for name came back too deep. */
void fr_depth_report(const char *name);

#pragma GCC visibility pop

#endif
