/* SPDX-License-Identifier: MIT */
/* What the register spy (spy_lib.c) saw at its syscall(), for the probes. */
#ifndef FR_E2E_SPY_LIB_H
#define FR_E2E_SPY_LIB_H

/* The registers at entry to the spy's syscall(); the offsets are its assembly's. */
/* The CPU's registers: tests/oracle/<cpu>/spy_cpu.h. */
#include "spy_cpu.h"

/* Copies what the spy saw out and starts counting again. Found with dlsym in the probe. */
typedef void (*e2e_spy_take_fn)(struct e2e_spy_regs *out);

#endif
