/* SPDX-License-Identifier: MIT */
/* What the step counter needs of the CPU: the traced task's program counter, and the kind of each instruction word it executes (counter read, ordering instruction, system call). */
#ifndef FR_STEPS_INSN_H
#define FR_STEPS_INSN_H

#include <stddef.h>
#include <stdint.h>

/* The kinds the suite asserts on, named by meaning; STEP_NAMES gives this CPU's instruction names. */
enum step_kind {
	STEP_OTHER,
	STEP_READ,         /* the counter read alone: x86 rdtsc, arm64 mrs cntvct_el0 */
	STEP_READ_ORDERED, /* a self-ordering counter read: x86 rdtscp, arm64 mrs cntvctss_el0 */
	STEP_FENCE,        /* what orders a plain read: x86 lfence, arm64 isb */
	STEP_SYSCALL,      /* x86 syscall, arm64 svc */
	STEP_KINDS
};

/* The keys of the probe's output lines, by kind (generic on every CPU). */
#define STEP_KEYS { [STEP_READ] = "reads", [STEP_READ_ORDERED] = "ordered_reads", [STEP_FENCE] = "fences", [STEP_SYSCALL] = "syscalls" }

/* What each CPU says of its instructions: tests/oracle/<cpu>/steps_cpu.h (STEP_NAMES, step_regs, step_pc, step_classify). */
#include "steps_cpu.h"

#endif
