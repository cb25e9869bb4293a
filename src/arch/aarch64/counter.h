/* SPDX-License-Identifier: MIT */
/* AArch64's counter hooks: CNTVCT_EL0 read three ways (cntvctss, isb+cntvct, cntvct), the names users type, yield and the signal-safe increment. */
#ifndef FR_AARCH64_COUNTER_H
#define FR_AARCH64_COUNTER_H

#include <stdint.h>

/*
 * The family's reads (arch/armfam/counter.h) in A64: CNTVCT_EL0, and CNTVCTSS_EL0 by its encoding
 * (S3_3_C14_C0_6), which raises SIGILL without FEAT_ECV. The ordering dependency is the kernel's:
 * eor, add to sp, a load into xzr.
 */
#define FR_ARMFAM_CPU "arm64"
#define FR_ARMFAM_CNTVCT "mrs %0, cntvct_el0"
#define FR_ARMFAM_CNTVCTSS "mrs %0, S3_3_C14_C0_6"
#define FR_ARMFAM_ORDERING_DEP "eor %1, %0, %0\n\tadd %1, sp, %1\n\tldr xzr, [%1]"
#define FR_ARCH_INVARIANT_WHY "the CPU's counter is not invariant (the probe said so; the arm64 generic timer always ticks at one rate)"

#include "arch/armfam/counter.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * *p += 1 with an exclusive pair, which needs no LSE atomics, no libc and no libgcc helper: a
 * signal handler that runs between ldxr and stxr and stores to *p clears the exclusive monitor
 * (so does the exception return), so stxr fails and the loop reads again. The handler sees the
 * old value or the new one, never half of either.
 */
static inline __attribute__((always_inline)) void fr_arch_inc64(uint64_t *p)
{
	uint64_t v;
	uint32_t failed;

	__asm__ volatile("1:\tldxr %0, %2\n\tadd %0, %0, #1\n\tstxr %w1, %0, %2\n\tcbnz %w1, 1b"
			 : "=&r"(v), "=&r"(failed), "+Q"(*p));
}

#pragma GCC visibility pop

#endif
