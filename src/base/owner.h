/* SPDX-License-Identifier: MIT */
/* Ownership by process: a word naming, by process id, the process that holds something in this memory. */
#ifndef FR_OWNER_H
#define FR_OWNER_H

#include <sys/types.h>

#include "base/once.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * A fork copies the library's memory with whatever a thread of the parent held at that instant:
 * in the child that thread does not exist, and what it held would stay held for ever. A vfork or
 * CLONE_VM child shares the memory instead, and the holder is alive. So a right that must
 * survive fork names its holder's process in a word (0: free): a process that finds another
 * process's id there asks whether that process is gone from this memory (a fork's copy) before
 * it takes the right over. The library's three such rights use these: start-up's claim
 * (startup/claim.c), calibrated mode's updater (calib/calib_source.c) and the memory's owner
 * (proc/memid.c).
 */
enum fr_pid_took {
	FR_PID_SHARED,    /* another process holds it, and shares this memory (or cannot be told apart) */
	FR_PID_MINE,      /* self's process held it already: nothing changed */
	FR_PID_TOOK,      /* it was free: self holds it now */
	FR_PID_TOOK_OVER, /* another process held it, gone from this memory: self holds it now */
};

/*
 * Whether the process `holder`, found holding a word that `self` wants, is gone from this memory:
 * 1 lets self take the right over; NULL, never (a holder may share the memory).
 */
typedef int (*fr_pid_gone_fn)(pid_t self, pid_t holder);

/*
 * Takes the word for process self (its getpid(), not 0). What it held decides: self (MINE), 0
 * (TOOK), another process that gone says has left this memory (TOOK_OVER: what it held may be
 * half written), or one that has not (SHARED, nothing changed). Racers for a free word: one
 * takes it, the others find it taken, by another thread of their own process (MINE) or another
 * process (asked again).
 */
static inline enum fr_pid_took fr_pid_take(pid_t *word, pid_t self, fr_pid_gone_fn gone)
{
	pid_t seen = __atomic_load_n(word, __ATOMIC_ACQUIRE);

	for (;;) {
		if (seen == self)
			return FR_PID_MINE;
		if (seen != 0 && (!gone || !gone(self, seen)))
			return FR_PID_SHARED;
		/* From what was seen to self: a racer that moved it first is looked at again. */
		if (FR_CLAIM_SEEN(word, &seen, self))
			return seen == 0 ? FR_PID_TOOK : FR_PID_TOOK_OVER;
	}
}

/* Whether the process named at word, if any, is another than self (0: not known, never another). */
static inline int fr_pid_other(const pid_t *word, pid_t self)
{
	pid_t p = __atomic_load_n(word, __ATOMIC_ACQUIRE);

	return self != 0 && p != 0 && p != self;
}

/* Names self at word (after the claim it stands for), or 0: free. */
static inline void fr_pid_set(pid_t *word, pid_t self)
{
	__atomic_store_n(word, self, __ATOMIC_RELEASE);
}

#pragma GCC visibility pop

#endif
