/* SPDX-License-Identifier: MIT */
/* arm64's struct e2e_spy_regs for tests/e2e/spy_lib.h: the registers at entry to the spy's syscall(), as its assembly stores them. */
#ifndef FRT_SPY_CPU_H
#define FRT_SPY_CPU_H

struct e2e_spy_regs {
	long x[9];  /* x0 (the number), x1-x6 (the arguments), x7, x8 */
	long sp;
	long lr;    /* x30: where syscall() returns to */
	long calls; /* calls since the last e2e_spy_take */
};

#endif
