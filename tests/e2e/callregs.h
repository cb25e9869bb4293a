/* SPDX-License-Identifier: MIT */
/* Probe side: one syscall() call with every argument register (and the registers the stubs keep besides) chosen, and a timespec slot on the stack where the fast path may serve it. */
#ifndef FR_E2E_CALLREGS_H
#define FR_E2E_CALLREGS_H

#include <time.h>

#if defined(__x86_64__)
/* One call; the offsets are the assembly's (callregs_x86_64.c checks them). */
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
#elif defined(__aarch64__)
/*
 * One call; the offsets are the assembly's (callregs_aarch64.c checks them). The assembly
 * reserves a stretch of its own stack holding two whole 4 KiB blocks and calls with sp at
 * sp_off bytes above the lower block's start ("base"); the slot, when used, lies at slot_off
 * above base, with tag in its top byte. Offsets 0 mean 2048 (sp inside the block) and sp_off
 * (the slot at sp). sp_off is a multiple of 16 in 16..4096; slot_off at most 8176.
 */
struct e2e_call {
	long a[7];         /* in: x0 (the system call number), then x1-x6, the six arguments */
	long x7, x8;       /* in: x7 and x8 at the call: no arguments, but the stubs keep them */
	long use_slot;     /* in: nonzero: x2 is the stack slot instead of a[2] */
	long ret;          /* out: what syscall() returned */
	long sp;           /* out: sp at the bl (syscall() sees the same: bl pushes nothing) */
	long p;            /* out: x2 as passed */
	long slot[2];      /* out: the slot's 16 bytes after the call */
	long sp_off;       /* in: see above */
	long slot_off;     /* in: see above */
	long lr;           /* out: the return address the bl put in x30 */
	long kept;         /* out: 1 when x19-x28, x29 and sp held the caller's values after the call */
	unsigned long tag; /* in: ORed into the slot's address (top-byte-ignore tags: bits 56-63) */
};
#else
#error "callregs.h: no register-level syscall() call for this architecture"
#endif

/*
 * Makes the call. By default the slot lies where libfastraw's syscall() serves RAW in-process
 * (docs/internals.md, "syscall()"), whatever the stack's offset in its page: a probe that wants
 * the fast path gets it in every run.
 */
void e2e_call_syscall(struct e2e_call *c);

/* syscall(SYS_clock_gettime, clk, slot), the slot copied to *ts on success: an e2e_clock_fn. */
int e2e_syscall_clock(clockid_t clk, struct timespec *ts);

#endif
