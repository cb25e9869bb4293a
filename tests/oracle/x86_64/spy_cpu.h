/* SPDX-License-Identifier: MIT */
/* x86-64's struct e2e_spy_regs for tests/e2e/spy_lib.h: the registers at entry to the spy's syscall(), as its assembly stores them. */
#ifndef FRT_SPY_CPU_H
#define FRT_SPY_CPU_H

struct e2e_spy_regs {
	long rdi, rsi, rdx, rcx, r8, r9, rax;
	long stack7; /* 8(%rsp): the seventh argument */
	long rsp;
	long calls;  /* calls since the last e2e_spy_take */
};

#endif
