/* SPDX-License-Identifier: MIT */
/* x86-64's struct e2e_call for tests/e2e/callregs.h: the registers and stack slot of one syscall() call, as its assembly lays them out. */
#ifndef FRT_CALLREGS_CPU_H
#define FRT_CALLREGS_CPU_H

/* One call; the offsets are the assembly's (callregs_asm.c checks them). */
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

#endif
