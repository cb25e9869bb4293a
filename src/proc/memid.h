/* SPDX-License-Identifier: MIT */
/* Which process owns this memory: tells a forked child (a copy) from a vfork or CLONE_VM child (the same memory). */
#ifndef FR_MEMID_H
#define FR_MEMID_H

#include <sys/types.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * A child made by vfork or clone(CLONE_VM) has a pid of its own but runs in its parent's
 * memory; a forked child has a copy. State that one process updates must only be written by
 * the process that owns the memory it lives in, or a CLONE_VM child would take its parent's
 * update in progress for one lost in a fork and overwrite it. A pid alone cannot tell the two
 * kinds of children apart; this can.
 */

/* Makes the calling process the owner of this memory. Called once, by the initialiser. */
void fr_memid_setup(void);

/*
 * 1 when the process `self` (its getpid()) may write state in this memory: it is the owner, or
 * the memory is a fork's copy that no process has claimed yet (then `self` becomes its owner).
 * 0 when it shares the memory with the owner (vfork, CLONE_VM), or cannot tell. No system call
 * where the kernel supports MADV_WIPEONFORK (4.14+); before that, one when self is not the owner.
 */
int fr_memid_own(pid_t self);

#pragma GCC visibility pop

#endif
