/* SPDX-License-Identifier: MIT */
/* Counts the forwarding calls under way on each thread, so that a chain leading back to us ends. */
#include "passthru/depth.h"

#include "base/libc.h"
#include "base/hot.h"
#include "base/once.h"
#include "elf/early.h"
#include "report/errfd.h"
#include "report/log.h"

/*
 * The stack positions of the forwarding calls under way on this thread, outermost first. They are
 * kept here, off the stack, and are only compared, never read through: a record left in a frame
 * that is gone (a coroutine's stack unmapped after a siglongjmp out of it) cannot be reached.
 */
static __thread struct {
	uintptr_t at[FR_DEPTH_MAX];
	unsigned n;
} live __attribute__((tls_model(FR_TLS_MODEL)));

int fr_depth_enter(struct fr_depth *saved)
{
	uintptr_t sp = (uintptr_t)saved;
	unsigned n;

	if (!fr_relocated()) {
		saved->n = 0;
		if (__atomic_add_fetch(&fr_word(FR_W_EARLY_DEPTH)->u, 1, __ATOMIC_RELAXED) <= FR_DEPTH_MAX)
			return 1;
		__atomic_sub_fetch(&fr_word(FR_W_EARLY_DEPTH)->u, 1, __ATOMIC_RELAXED);
		return 0;
	}
	/*
	 * Stacks grow down: a call under way above this frame is one this call is nested in; one at
	 * or below it was left by a jump out of it (siglongjmp) and is over.
	 */
	n = live.n;
	while (n > 0 && live.at[n - 1] <= sp)
		n--;
	if (n >= FR_DEPTH_MAX)
		return 0;
	saved->n = n;
	/*
	 * A handler that runs between these stores sees the calls this one is nested in; one that
	 * wrote its own position into the slot meanwhile left it for this call to write again.
	 */
	live.at[n] = sp;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	live.n = n + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	live.at[n] = sp;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return 1;
}

void fr_depth_leave(struct fr_depth *saved)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!fr_relocated()) {
		__atomic_sub_fetch(&fr_word(FR_W_EARLY_DEPTH)->u, 1, __ATOMIC_RELAXED);
		return;
	}
	/* The calls nested in this one are over too, those left by jumps included. */
	live.n = saved->n;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void fr_depth_report(const char *name)
{
	struct fr_line l;

	/* Before relocation errno is out of reach and initialisation has not run: nothing is said. */
	if (!fr_relocated() || !__atomic_load_n(&fr_hot.debug, __ATOMIC_RELAXED) ||
	    !FR_CLAIM(&fr_word(FR_W_DEPTH_REPORTED)->i, 0, 1))
		return;
	/* Only to the stderr the process started with (report/errfd.h), as every other line. */
	if (!fr_errfd_unchanged())
		return;
	fr_line_start(&l);
	fr_line_add(&l, "loop: ");
	fr_line_add(&l, name);
	fr_line_add(&l, " came back into libfastraw " FR_DEPTH_MAX_TEXT " times on one thread through the "
			"definitions after it; such calls are answered without them (the system call)");
	fr_line_emit(&l);
}
