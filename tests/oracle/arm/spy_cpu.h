/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's struct e2e_spy_regs for tests/e2e/spy_lib.h: the registers and stack arguments at entry to the spy's syscall(), as its assembly stores them. */
#ifndef FRT_SPY_CPU_H
#define FRT_SPY_CPU_H

struct e2e_spy_regs {
	long r[4];     /* r0 (the number), r1-r3 (the first three arguments) */
	long stack[3]; /* [sp], [sp, #4], [sp, #8]: the 4th-6th arguments */
	long sp;
	long lr;       /* where syscall() returns to */
	long calls;    /* calls since the last e2e_spy_take */
};

#endif
