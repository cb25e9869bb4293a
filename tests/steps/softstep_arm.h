/* SPDX-License-Identifier: MIT */
/* The decoding behind 32-bit ARM's software steps (softstep_arm.c): where an instruction can go next, and how far a straight run goes. */
#ifndef FR_STEPS_SOFTSTEP_ARM_H
#define FR_STEPS_SOFTSTEP_ARM_H

#include <stdint.h>
#include <sys/types.h>

#include "steps_insn.h"

/* Addresses an instruction can go to next, at most: an IT block's four, the one after it, a target. */
#define STEP_SUCC_MAX 8

/* Where an instruction can go next: the address, and whether it runs as Thumb there. */
struct step_next {
	uint32_t addr;
	int thumb;
};

struct step_succ {
	struct step_next n[STEP_SUCC_MAX];
	int count;
};

/* How the decoding reads the traced task's memory (4 bytes at addr: 0, or -1): ptrace's PEEKDATA, or a test's own. */
extern int (*step_soft_peek)(pid_t pid, uint32_t addr, uint32_t *w);

/*
 * Every address the instruction at r's pc can run next (r's cpsr says Thumb or A32, and the IT
 * state): the next instruction, a branch's target (bx, pop {pc}, ldr pc, ldm and tbb/tbh read
 * theirs from r and memory), an IT block's every instruction and the one after it. NULL, or
 * why not: a pc write it does not decode, memory it cannot read.
 */
const char *step_soft_successors(pid_t pid, const step_regs *r, struct step_succ *s);

/*
 * The straight run from r's pc: the addresses of the instructions after the first, up to the
 * next that may write the pc or opens an IT block (or STEP_RUN_MAX of them), go to ran (*nran);
 * returns the address where the run stops, or 0 when the first instruction itself may branch
 * (or an IT block is under way): that one is stepped alone.
 */
uint32_t step_soft_run(pid_t pid, const step_regs *r, uintptr_t *ran, int *nran);

#endif
