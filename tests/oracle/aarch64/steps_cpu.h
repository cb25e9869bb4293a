/* SPDX-License-Identifier: MIT */
/* The step counter's arm64 half: the traced task's program counter, the instructions' names and kinds (tests/steps/steps_insn.h). */
#ifndef FRT_STEPS_CPU_H
#define FRT_STEPS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include <asm/ptrace.h>

#include "arch/insn.h"

#define STEP_NAMES { [STEP_READ] = "cntvct", [STEP_READ_ORDERED] = "cntvctss", [STEP_FENCE] = "isb", [STEP_SYSCALL] = "svc" }
/* One little-endian word per instruction, shown as the manuals write it. */
#define STEP_SHOW_BYTES 4
#define STEP_SHOW_WORD 1

typedef struct user_pt_regs step_regs;

static inline uintptr_t step_pc(const step_regs *r)
{
	return (uintptr_t)r->pc;
}

/* b holds the n bytes (n >= 1) at the program counter: one A64 word (arch/aarch64/insn.h's encodings). */
static inline enum step_kind step_classify(const uint8_t *b, size_t n)
{
	uint32_t w;

	if (n < 4)
		return STEP_OTHER;
	w = fr_a64_word(b);
	if ((w & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCT)
		return STEP_READ;
	if ((w & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCTSS)
		return STEP_READ_ORDERED;
	if (w == FR_A64_ISB)
		return STEP_FENCE;
	if (w == FR_A64_SVC0)
		return STEP_SYSCALL;
	return STEP_OTHER;
}

#endif
