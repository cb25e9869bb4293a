/* SPDX-License-Identifier: MIT */
/* arm64's struct e2e_call for tests/e2e/callregs.h: the registers and stack slot of one syscall() call, as its assembly lays them out. */
#ifndef FRT_CALLREGS_CPU_H
#define FRT_CALLREGS_CPU_H

/*
 * One call; the offsets are the assembly's (callregs_asm.c checks them). The assembly
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

#endif
