/* SPDX-License-Identifier: MIT */
/* Probe side: one syscall() call with every argument register, %rax and the seventh (stack) argument chosen, and a timespec slot on the stack where the fast path may serve it. */
#ifndef FR_E2E_CALLREGS_H
#define FR_E2E_CALLREGS_H

#include <time.h>

/* One call; the offsets are the assembly's (callregs.c checks them). */
struct e2e_call {
	long a[7];      /* in: the system call number, then the six argument registers */
	long stack7;    /* in: the seventh argument, at 8(%rsp) on entry to syscall() */
	long rax;       /* in: %rax at the call (%al: vector registers of a variadic call) */
	long use_slot;  /* in: nonzero: the third argument is the stack slot instead of a[2] */
	long ret;       /* out: what syscall() returned */
	long rsp;       /* out: %rsp at the call instruction (syscall() sees it 8 lower) */
	long p;         /* out: the third argument as passed */
	long slot[2];   /* out: the slot's 16 bytes after the call */
};

/*
 * Makes the call. The slot lies above the return address in the page that holds it, the one
 * pointer libfastraw's syscall() serves RAW for in-process (docs/internals.md, "syscall()"), whatever the
 * stack's offset in its page: a probe that wants the fast path gets it in every run.
 */
void e2e_call_syscall(struct e2e_call *c);

/* syscall(SYS_clock_gettime, clk, slot), the slot copied to *ts on success: an e2e_clock_fn. */
int e2e_syscall_clock(clockid_t clk, struct timespec *ts);

#endif
