/* SPDX-License-Identifier: MIT */
/* Probe side: one syscall() call with every argument register (and the registers the stubs keep besides) chosen, and a timespec slot on the stack where the fast path may serve it. */
#ifndef FR_E2E_CALLREGS_H
#define FR_E2E_CALLREGS_H

#include <time.h>

/* struct e2e_call, laid out as the CPU's assembly (tests/oracle/<cpu>/callregs_asm.c) has it: tests/oracle/<cpu>/callregs_cpu.h. */
#include "callregs_cpu.h"

/*
 * Makes the call. By default the slot lies where libfastraw's syscall() serves RAW in-process
 * (docs/internals.md, "syscall()"), whatever the stack's offset in its page: a probe that wants
 * the fast path gets it in every run.
 */
void e2e_call_syscall(struct e2e_call *c);

/* syscall(SYS_clock_gettime, clk, slot), the slot copied to *ts on success: an e2e_clock_fn. */
int e2e_syscall_clock(clockid_t clk, struct timespec *ts);

#endif
