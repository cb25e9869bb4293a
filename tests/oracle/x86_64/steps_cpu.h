/* SPDX-License-Identifier: MIT */
/* The step counter's x86-64 half: the traced task's program counter, the instructions' names and kinds (tests/steps/steps_insn.h). */
#ifndef FRT_STEPS_CPU_H
#define FRT_STEPS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include <sys/user.h>

#include "arch/insn.h"

#define STEP_NAMES { [STEP_READ] = "rdtsc", [STEP_READ_ORDERED] = "rdtscp", [STEP_FENCE] = "lfence", [STEP_SYSCALL] = "syscall" }
/* Bytes shown of each instruction in the probe's "words=" line (x86 instructions have no fixed
   size), in memory order. */
#define STEP_SHOW_BYTES 4
#define STEP_SHOW_WORD 0

typedef struct user_regs_struct step_regs;

static inline uintptr_t step_pc(const step_regs *r)
{
	return (uintptr_t)r->rip;
}

/* b holds the n bytes (n >= 1) at the program counter: arch/x86_64/insn.h's plain encodings. */
static inline enum step_kind step_classify(const uint8_t *b, size_t n)
{
	switch (fr_x86_insn_at(b, n)) {
	case FR_X86_IS_RDTSC: return STEP_READ;
	case FR_X86_IS_RDTSCP: return STEP_READ_ORDERED;
	case FR_X86_IS_LFENCE: return STEP_FENCE;
	case FR_X86_IS_SYSCALL: return STEP_SYSCALL;
	case FR_X86_OTHER: break;
	}
	return STEP_OTHER;
}

#endif
