/* SPDX-License-Identifier: MIT */
/* The step counter: single-steps a stopped child (ptrace) through one call, from the call instruction to the return, and counts and records every instruction it executes. */
#ifndef FR_STEPS_STEPPER_H
#define FR_STEPS_STEPPER_H

#include <stdint.h>
#include <sys/types.h>

#include "steps_insn.h"

/* Steps recorded at most in one traced call, retried rounds included. */
#define STEP_MAX 20000
/* Counter reads at most in one traced call (seqcount rounds) before it is given up. */
#define STEP_MAX_ROUNDS 8

/* An address range [lo, hi) of the process. */
struct step_range {
	uintptr_t lo, hi;
};

/*
 * One traced call, from the call instruction to the return. A timer tick inside a seqcount
 * window makes the call read again (single steps are slow: under emulation one can take a
 * millisecond); such a call is counted as if it had read once. Every round, retried or not,
 * reads the counter once, so the steps from the first read up to the last are the retried
 * rounds (each from its read to the branch back, then the next one's loop up to its read): what
 * is left, the steps before the first read and from the last read on, is what the same call
 * executes with no tick in its way. steps, kinds, in_vdso and words describe that call.
 */
struct step_trace {
	long steps, kinds[STEP_KINDS], in_vdso;
	long raw_steps, rounds; /* as traced: every step, and the counter reads (0 or 1: no retry) */
	int64_t ns;             /* how long the traced steps took */
	uint8_t words[STEP_MAX][STEP_SHOW_BYTES];
	uint8_t kind[STEP_MAX], vdso[STEP_MAX]; /* each step's kind, and whether it ran in the vDSO */
};

/* What step_call returns for a call given up after STEP_MAX_ROUNDS counter reads. */
extern const char step_abandoned[];

/* The mapping of this process that holds addr (name NULL), or the one whose name ends in name: 1, or 0. */
int step_find_map(uintptr_t addr, const char *name, struct step_range *r);

/*
 * Steps the child pid, stopped (ptrace) before a call, to entry, the called function's first
 * instruction (not counted), waits there for a timer tick, then counts from the call
 * instruction (the step before entry, which must lie in text) until control is back in text:
 * the call and everything the callee executes, its return included, with retried seqcount
 * rounds taken out (struct step_trace). A call about to read the counter more than
 * STEP_MAX_ROUNDS times is given up (step_abandoned). NULL when traced to the end, else why not.
 */
const char *step_call(pid_t pid, uintptr_t entry, const struct step_range *text, struct step_trace *t);

/* Prints t as "steps=", the kinds' "reads=" ... "syscalls=", "vdso_steps=", "raw_steps=", "rounds=" and "words=" lines. */
void step_print(const struct step_trace *t);

#endif
