/* SPDX-License-Identifier: MIT */
/* The step counter's 32-bit ARM half: the traced task's program counter, the instructions' names and kinds (tests/steps/steps_insn.h). */
#ifndef FRT_STEPS_CPU_H
#define FRT_STEPS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>
#include <sys/user.h>

#include "arch/insn.h"

#define STEP_NAMES { [STEP_READ] = "cntvct", [STEP_READ_ORDERED] = "cntvctss", [STEP_FENCE] = "isb", [STEP_SYSCALL] = "svc" }
/* Four bytes shown per instruction (a Thumb-2 pair of halfwords or one A32 word), as bytes. */
#define STEP_SHOW_BYTES 4
#define STEP_SHOW_WORD 0

/*
 * A 32-bit ARM kernel has no PTRACE_SINGLESTEP (EIO): tests/steps/softstep_arm.c steps with
 * breakpoints instead, on a branch's successors, or at the end of a straight run of
 * instructions, whose addresses but the first go to ran (*nran, at most STEP_RUN_MAX). NULL, or
 * why it could not.
 */
#define STEP_SOFTWARE 1
const char *step_soft(pid_t pid, int *sig, uintptr_t *ran, int *nran);

/* A Thumb function's pointer has bit 0 set: its first instruction is at the even address. */
#define STEP_FN_PC(p) ((p) & ~(uintptr_t)1)

/* glibc's view of the NT_PRSTATUS set (<asm/ptrace.h>'s struct pt_regs clashes with <sys/ptrace.h>): r0-r15, cpsr, orig_r0. */
typedef struct user_regs step_regs;

static inline uintptr_t step_pc(const step_regs *r)
{
	return (uintptr_t)r->uregs[15];
}

/*
 * b holds the n bytes (n >= 1) at the program counter, in Thumb-2 (the library, the C library)
 * or A32 (a kernel's vDSO built without THUMB2_KERNEL): both decodings are asked, since their
 * encodings of these instructions share no byte pattern (arch/arm/insn.h).
 */
static inline enum step_kind step_classify(const uint8_t *b, size_t n)
{
	enum fr_arm_insn k = fr_arm_t32_insn_at(b, n);

	if (k == FR_ARM_OTHER)
		k = fr_arm_a32_insn_at(b, n);
	switch (k) {
	case FR_ARM_IS_CNTVCT:
		return STEP_READ;
	case FR_ARM_IS_CNTVCTSS:
		return STEP_READ_ORDERED;
	case FR_ARM_IS_ISB:
		return STEP_FENCE;
	case FR_ARM_IS_SVC:
		return STEP_SYSCALL;
	default:
		return STEP_OTHER;
	}
}

#endif
