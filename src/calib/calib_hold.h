/* SPDX-License-Identifier: MIT */
/* Holding a thread's signals back while it updates calibrated mode, so that no handler can jump out of an update. */
#ifndef FR_CALIB_HOLD_H
#define FR_CALIB_HOLD_H

#include <signal.h>

#include "base/sys.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * clock_gettime is async-signal-safe, so a handler may siglongjmp out of it, and a thread that
 * runs pthread_exit or is cancelled asynchronously leaves it the same way. Out of an update
 * that would leave the update right taken for ever and a publication half written. With the
 * signals held, a signal that arrives meanwhile waits until the update is over and the right
 * given back: nothing to detect or repair afterwards, and nothing costs the readers, which
 * never hold the right. rt_sigprocmask is async-signal-safe, takes no lock and acts on the
 * calling thread alone.
 */

/*
 * Every signal but those the kernel forces on a fault: one of those that is blocked kills the
 * process instead of running its handler, and a program whose seccomp filter traps our system
 * calls with SIGSYS (or that catches its own SIGTRAP) must keep working as it does without us.
 * SIGKILL and SIGSTOP cannot be held; the kernel leaves them out itself.
 */
#define FR_HELD_SIGNALS                                                                        \
	(~(fr_ksig_bit(SIGSEGV) | fr_ksig_bit(SIGBUS) | fr_ksig_bit(SIGILL) | fr_ksig_bit(SIGFPE) | \
	   fr_ksig_bit(SIGTRAP) | fr_ksig_bit(SIGSYS)))

/* The mask to give back; held is 0 when the kernel refused (a seccomp filter): then nothing changed. */
struct fr_held {
	fr_ksigset old;
	int held;
};

static inline void fr_hold_signals(struct fr_held *h)
{
	fr_ksigset set = FR_HELD_SIGNALS;

	h->held = fr_sys_sigprocmask(SIG_BLOCK, &set, &h->old) == 0;
}

/* A signal that arrived meanwhile is delivered as this returns. */
static inline void fr_unhold_signals(const struct fr_held *h)
{
	if (h->held)
		fr_sys_sigprocmask(SIG_SETMASK, &h->old, NULL);
}

#pragma GCC visibility pop

#endif
