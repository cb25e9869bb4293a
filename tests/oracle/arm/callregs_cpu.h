/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's struct e2e_call for tests/e2e/callregs.h: the registers and stack words of one syscall() call, as its assembly lays them out. */
#ifndef FRT_CALLREGS_CPU_H
#define FRT_CALLREGS_CPU_H

/*
 * One call; the offsets are the assembly's (callregs_asm.c checks them). As on arm64, the
 * assembly reserves a stretch of its own stack holding two whole 4 KiB blocks and calls with sp
 * at sp_off bytes above the lower block's start ("base"); the slot, when used, lies at slot_off
 * above base. Offsets 0 mean 2048 (sp inside the block) and sp_off (the slot at sp). sp_off is a
 * multiple of 8 in 16..4096; slot_off at most 8176. The slot holds the library's timespec, the
 * 16-byte __kernel_timespec of SYS_clock_gettime64.
 */
struct e2e_call {
	long a[7];     /* in: r0 (the system call number), r1-r3, then the 4th-6th arguments at [sp], [sp, #4], [sp, #8] */
	long slot[4];  /* out: the slot's 16 bytes after the call */
	long use_slot; /* in: nonzero: r2 is the stack slot instead of a[2] */
	long sp_off;   /* in: see above */
	long slot_off; /* in: see above */
	long ret;      /* out: what syscall() returned */
	long sp;       /* out: sp at the bl (syscall() sees the same: bl pushes nothing) */
	long p;        /* out: r2 as passed */
	long lr;       /* out: the return address the bl put in lr (bit 0 set: the caller is Thumb code) */
	long kept;     /* out: 1 when r4-r10, r11 and sp held the caller's values after the call */
};

#endif
