/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's counter hooks: CNTVCT read by mrrc three ways (cntvctss, isb+cntvct, cntvct), the names users type, yield and the signal-safe increment. */
#ifndef FR_ARM_COUNTER_H
#define FR_ARM_COUNTER_H

#include <stdint.h>

/*
 * The family's reads (arch/armfam/counter.h) in A32/T32: CNTVCT by mrrc p15, 1 and CNTVCTSS
 * (FEAT_ECV) by mrrc p15, 9, the low word in %Q0, the high in %R0. Both raise SIGILL on a CPU
 * without the generic timer (ARM11): start-up reaches them only once the kernel's data page says
 * its vDSO reads the counter (startup/decide.c, kdata). 32-bit kernels omit the ordering
 * dependency; it costs two instructions (eor, a load from [sp, tmp]) and makes the read at least
 * as ordered as theirs.
 */
#define FR_ARMFAM_CPU "arm"
#define FR_ARMFAM_CNTVCT "mrrc p15, 1, %Q0, %R0, c14"
#define FR_ARMFAM_CNTVCTSS "mrrc p15, 9, %Q0, %R0, c14"
#define FR_ARMFAM_ORDERING_DEP "eor %1, %Q0, %Q0\n\tldr %1, [sp, %1]"
#define FR_ARCH_INVARIANT_WHY "the CPU's counter is not invariant (the probe said so; the generic timer always ticks at one rate)"

#include "arch/armfam/counter.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * *p += 1 with an exclusive pair (ldrexd/strexd, ARMv6K+; p 8-byte aligned): a signal handler
 * between the pair clears the exclusive monitor (the exception return does), so strexd fails
 * and the loop reads again. The handler sees the old value or the new one, never half of either.
 */
static inline __attribute__((always_inline)) void fr_arch_inc64(uint64_t *p)
{
	uint64_t v;
	uint32_t failed;

	__asm__ volatile("1:\tldrexd %Q0, %R0, [%2]\n\tadds %Q0, %Q0, #1\n\tadc %R0, %R0, #0\n\t"
			 "strexd %1, %Q0, %R0, [%2]\n\tcmp %1, #0\n\tbne 1b"
			 : "=&r"(v), "=&r"(failed)
			 : "r"(p)
			 : "cc", "memory");
}

#pragma GCC visibility pop

#endif
