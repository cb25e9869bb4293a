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

#if defined(__x86_64__)
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

#elif defined(__aarch64__)
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

#else
#error "tests/steps: no step classifier for this architecture"
#endif

#endif
