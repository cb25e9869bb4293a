/* SPDX-License-Identifier: MIT */
/* What the register spy (spy_lib.c) saw at its syscall(), for the probes. */
#ifndef FR_E2E_SPY_LIB_H
#define FR_E2E_SPY_LIB_H

/* The registers at entry to the spy's syscall(); the offsets are its assembly's. */
#if defined(__x86_64__)
struct e2e_spy_regs {
	long rdi, rsi, rdx, rcx, r8, r9, rax;
	long stack7; /* 8(%rsp): the seventh argument */
	long rsp;
	long calls;  /* calls since the last e2e_spy_take */
};
#elif defined(__aarch64__)
struct e2e_spy_regs {
	long x[9];  /* x0 (the number), x1-x6 (the arguments), x7, x8 */
	long sp;
	long lr;    /* x30: where syscall() returns to */
	long calls; /* calls since the last e2e_spy_take */
};
#else
#error "spy_lib.h: no register spy for this architecture"
#endif

/* Copies what the spy saw out and starts counting again. Found with dlsym in the probe. */
typedef void (*e2e_spy_take_fn)(struct e2e_spy_regs *out);

#endif
