/* SPDX-License-Identifier: MIT */
/* The right to publish start-up's decisions: one holder at a time, taken back once the holder's call is gone, never waited for. */
#include "startup/claim.h"

#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "base/libc.h"
#include "elf/dynsym.h"
#include "arch/arch.h"
#include "base/sys.h"
#include "proc/readable.h"
#include "base/once.h"
#include "base/owner.h"

/*
 * The claim's words in base/once.h's table. FR_W_HOLDER, the holder: the address of a
 * thread-local object of the holding thread (unique among live threads, known without a system
 * call), NULL while free. The quiet start-up has libc clear it in a fork child (claim_child): a
 * child forked while another thread of its parent held it, or in a handler that interrupted this
 * thread's first read, finds it free and starts over. FR_W_HOLDER_PID: by process id, the
 * holder's process (base/owner.h; 0 until it is written). FR_W_QUIET: claims ask the kernel
 * nothing (fr_claim_quietly).
 */

static __thread char thread_mark __attribute__((tls_model(FR_TLS_MODEL)));
/* This thread's mark, in the frame of its latest claim: read only on this thread. */
static __thread const struct fr_claim_mark *mine __attribute__((tls_model(FR_TLS_MODEL)));

/* What a live mark holds: its own address, scrambled, so that reused stack memory does not pass. */
static uintptr_t check_of(const struct fr_claim_mark *m)
{
	return (uintptr_t)m ^ (uintptr_t)0x5bd1e9955bd1e995ull;
}

/* Whether this thread runs on its alternate signal stack (1 when the kernel does not say). */
static int on_altstack(void)
{
	stack_t ss;

	return fr_sys3(SYS_sigaltstack, 0, (long)&ss, 0) != 0 || (ss.ss_flags & SS_ONSTACK);
}

/*
 * This thread holds the claim: whether the holder's call is still under way, this call nested in
 * it (a signal handler that interrupted it), or gone (a handler jumped out of it, siglongjmp). A
 * nested call runs below the holder's mark on the same stack, or on the alternate stack, and the
 * mark keeps its check word; a call at or above the mark off the alternate stack, or one that
 * finds the mark unreadable or written over, comes after a jump. Only this rare case asks the
 * kernel anything. The mark may lie in a frame that is gone: read as raw memory, which
 * AddressSanitizer would take for an overflow.
 */
static __attribute__((noinline, no_sanitize_address)) int holder_alive(const struct fr_claim_mark *h,
									const struct fr_claim_mark *m)
{
	if (!h || ((uintptr_t)m >= (uintptr_t)h && !on_altstack()))
		return 0;
	return fr_word_readable(&h->check) == 1 && h->check == check_of(h);
}

int fr_claim(struct fr_claim_mark *m)
{
	const struct fr_claim_mark *prev = mine;
	const void *self = &thread_mark, *seen;
	pid_t pid = 0;

	if (!__atomic_load_n(&fr_word(FR_W_QUIET)->i, __ATOMIC_ACQUIRE))
		pid = fr_sys_getpid();
	seen = __atomic_load_n(&fr_word(FR_W_HOLDER)->cp, __ATOMIC_ACQUIRE);
	if (seen == self) {
		if (holder_alive(prev, m))
			return 0;
		m->check = check_of(m);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		mine = m;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		return 1;
	}
	/* The mark first: a handler that runs once the claim is taken finds it. */
	m->check = check_of(m);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	mine = m;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	seen = NULL;
	while (!FR_CLAIM_SEEN(&fr_word(FR_W_HOLDER)->cp, &seen, self)) {
		/* A handler took it meanwhile, on this thread (and published): give way. */
		if (seen == self)
			return 0;
		/* By process id (base/owner.h): a thread of the parent holds it, which this fork child does not have. */
		if (!fr_pid_other(&fr_word(FR_W_HOLDER_PID)->pid, pid)) {
			mine = prev;
			return 0;
		}
	}
	fr_pid_set(&fr_word(FR_W_HOLDER_PID)->pid, pid);
	return 1;
}

/* libc's fork child handler: the child's only thread starts over whoever held the claim. */
static void claim_child(void)
{
	__atomic_store_n(&fr_word(FR_W_HOLDER)->cp, NULL, __ATOMIC_RELAXED);
}

int fr_claim_quietly(void)
{
	if (__atomic_load_n(&fr_word(FR_W_HOLDER)->cp, __ATOMIC_ACQUIRE) != NULL)
		return 0;
	/* Where libc's handler cannot be had, such a child's calls go to the real vDSO. */
	fr_libc_atfork_child(claim_child);
	__atomic_store_n(&fr_word(FR_W_QUIET)->i, 1, __ATOMIC_RELEASE);
	return 1;
}
