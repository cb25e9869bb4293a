/* SPDX-License-Identifier: MIT */
/* What the register spy (spy_lib.c) saw at its syscall(), for the probes. */
#ifndef FR_E2E_SPY_LIB_H
#define FR_E2E_SPY_LIB_H

/* The registers at entry to the spy's syscall(); the offsets are its assembly's. */
struct e2e_spy_regs {
	long rdi, rsi, rdx, rcx, r8, r9, rax;
	long stack7; /* 8(%rsp): the seventh argument */
	long rsp;
	long calls;  /* calls since the last e2e_spy_take */
};

/* Copies what the spy saw out and starts counting again. Found with dlsym in the probe. */
typedef void (*e2e_spy_take_fn)(struct e2e_spy_regs *out);

#endif
