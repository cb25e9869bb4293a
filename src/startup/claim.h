/* SPDX-License-Identifier: MIT */
/* The right to publish start-up's decisions: one initialiser per process, and none waited for. */
#ifndef FR_CLAIM_H
#define FR_CLAIM_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * 1 when the caller may publish, 0 when another initialiser of this process holds the right (a
 * thread, or the code a signal handler interrupted): racers computed the same plan and give way,
 * their call going to the real vDSO. A child forked while another thread of its parent held the
 * claim takes it over instead of waiting for a publication that will never come.
 */
int fr_claim(void);

/*
 * For a start-up that waits for the first RAW read (startup/start.h), which a seccomp filter
 * installed meanwhile may meet: from now on a claim asks the kernel nothing (no getpid). It holds
 * no identity, so a child forked while another thread of its parent held it cannot tell the claim
 * is an orphan, and gives way for good: its RAW calls go to the real vDSO, which serves RAW itself
 * on every kernel this start-up is used on (5.3 and later), and no call is ever wrong. Only before
 * anyone claimed: 1 when done, else 0.
 */
int fr_claim_quietly(void);

#pragma GCC visibility pop

#endif
