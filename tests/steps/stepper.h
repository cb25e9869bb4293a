/* SPDX-License-Identifier: MIT */
/* The step counter: single-steps a stopped child (ptrace) through one call, from the call instruction to the return, and counts and records every instruction it executes. */
#ifndef FR_STEPS_STEPPER_H
#define FR_STEPS_STEPPER_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "steps_insn.h"

/* Steps recorded at most in one traced call. */
#define STEP_MAX 20000
/* Instructions at most in one straight run a software step passes at once (STEP_SOFTWARE). */
#define STEP_RUN_MAX 64

/* An address range [lo, hi) of the process. */
struct step_range {
	uintptr_t lo, hi;
};

/* One traced call, from the call instruction to the return: its steps by kind and their words. */
struct step_trace {
	long steps, kinds[STEP_KINDS], in_vdso;
	int64_t ns; /* how long the traced steps took */
	uint8_t words[STEP_MAX][STEP_SHOW_BYTES];
};

/*
 * What step_call returns for a call given up at its second counter read. A timer tick inside a
 * seqcount window makes the call read again, and single steps are slow (under emulation up to a
 * millisecond each), so ticks land in many windows. Such a call is not counted: its retried
 * rounds can take other code than a call that reads once (the library's retry loop is out of
 * line), so nothing can be subtracted to get the clean count.
 */
extern const char step_abandoned[];

/* The mapping of this process that holds addr (name NULL), or the one whose name ends in name: 1, or 0. */
int step_find_map(uintptr_t addr, const char *name, struct step_range *r);

/*
 * Steps the child pid, stopped (ptrace) before a call, to entry, the called function's first
 * instruction (not counted), waits there for a timer tick, then counts from the call
 * instruction (the step before entry, which must lie in text) until control is back in text:
 * the call and everything the callee executes, its return included. A call about to read the
 * counter a second time is given up (step_abandoned). NULL when traced to the end, else why not.
 */
const char *step_call(pid_t pid, uintptr_t entry, const struct step_range *text, struct step_trace *t);

/*
 * Returns just after the kernel's timekeeping update (CLOCK_MONOTONIC_COARSE moves only then),
 * or after 50 ms without one: counting then starts with a whole tick before the next update, the
 * best chance for the call's seqcount window to see none. Only a head start: no count depends on it.
 */
void step_wait_for_tick(void);

/*
 * Keeps the caller, and the children it forks from then on, on the CPU it runs on: a step is then
 * a switch between two tasks on one CPU, never a wake-up of another (under emulation, or on a
 * loaded host, that costs far more than the step). Where affinity cannot be set the steps are
 * only slower.
 */
void step_stay_on_this_cpu(void);

/* What the traced call returned, sent by the child through a pipe once it runs untraced again. */
struct step_outcome {
	int ret;
	int decided; /* step_warm_up's answer before the traced call */
	struct timespec ts;
};

/* A trace given up: kills the traced child pid, reaps it and closes fd, its pipe's read end. */
void step_kill(pid_t pid, int fd);

/*
 * A trace to the end: lets the child pid run to its exit and reads its step_outcome from fd
 * (closed after); *decided is its warm-up's answer. 0 when the call returned 0 with a time
 * between the kernel's reads a and b, 1 when not, 2 when the child did not finish (both printed
 * as "error=" lines).
 */
int step_finish(pid_t pid, int fd, const struct timespec *a, const struct timespec *b, int *decided);

/* Prints t as "steps=", the kinds' "reads=" ... "syscalls=", "vdso_steps=" and "words=" lines. */
void step_print(const struct step_trace *t);

#endif
