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
 * bound leaves room for records left behind by siglongjmp that no later call wrote over (see
 * below), and keeps a loop's stack within a few kilobytes, a small sigaltstack's size.
 */
#define FR_DEPTH_MAX 16
#define FR_DEPTH_MAX_TEXT "16"

/*
 * One forwarding call's record, in the frame of the call it stands for: the record of the call it
 * is nested in (the thread's innermost one when it was entered), how deep it is, and a check
 * word that only a live record keeps. The thread's innermost record is trusted only when it lies
 * above the new call's frame on the stack (stacks grow down) and its check word holds: a call
 * that never returned here (a signal handler siglongjmp'd out of it) left a record that either
 * lies below the frames of later calls from higher up, or whose memory the later calls'
 * frames have written over. A lost level is then never counted against later calls.
 */
struct fr_depth {
	const struct fr_depth *up;
	uintptr_t check;
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

/* FASTRAW_DEBUG=1, as initialisation read it (0 before it). */
extern int fr_depth_debug __attribute__((visibility("hidden")));

/* Under FASTRAW_DEBUG=1, says once per process that a forwarding call for name came back too deep. */
void fr_depth_report(const char *name);

#pragma GCC visibility pop

#endif
