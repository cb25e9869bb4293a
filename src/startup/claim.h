/* SPDX-License-Identifier: MIT */
/* The right to publish start-up's decisions: one initialiser at a time, none waited for, taken back after a jump or a fork. */
#ifndef FR_CLAIM_H
#define FR_CLAIM_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* A claim's mark, in the frame of the call that claims, alive until it publishes. */
struct fr_claim_mark {
	uintptr_t check;
};

/*
 * 1 when the caller may initialise and publish, 0 when another initialiser of this process holds
 * the right: another thread, or the call a signal handler interrupted on this thread. Those give
 * way at once, their call going to the real vDSO at the vDSO's cost. m lives in the caller's
 * frame until it publishes: a later call on the holder's thread that finds the holder's call gone
 * (a handler siglongjmp'd out of it: see claim.c) takes the claim back; so does a fork child
 * whose parent's other thread held it (by process id; quietly, libc's fork handler clears the
 * claim in the child where it can be had).
 */
int fr_claim(struct fr_claim_mark *m);

/*
 * For a start-up that waits for the first RAW read (startup/start.h), which a seccomp filter
 * installed meanwhile may meet: from now on a claim asks the kernel nothing (no getpid; only
 * taking a claim back after a jump asks whether the thread is on its alternate stack). A fork
 * handler registered with libc now clears the claim in every child of libc's fork, so a child
 * forked while another thread of its parent held it starts over; a child made otherwise (a raw
 * clone) gives way for good and its RAW calls go to the real vDSO, at the vDSO's cost, and no
 * call is ever wrong. Only before anyone claimed: 1 when done, else 0.
 */
int fr_claim_quietly(void);

#pragma GCC visibility pop

#endif
