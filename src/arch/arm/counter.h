/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's counter hooks: CNTVCT read by mrrc three ways (cntvctss, isb+cntvct, cntvct), the names users type, yield and the signal-safe increment. */
#ifndef FR_ARM_COUNTER_H
#define FR_ARM_COUNTER_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* FASTRAW_TSC's values: arm64's names, since the instructions are the AArch32 twins of arm64's. */
#define FR_ARCH_COUNTER_NAME_ORDERED "cntvctss"
#define FR_ARCH_COUNTER_NAME_FENCED "isb+cntvct"
#define FR_ARCH_COUNTER_NAME_UNORDERED "cntvct"
/* FEAT_ECV's self-synchronising view; no 32-bit kernel reports it, so the ordered read is never chosen. */
#define FR_ARCH_ORDERED_FEATURE "ECV"
#define FR_ARCH_COUNTER_WORD "cntvct"
/* What FASTRAW_TSC's warning lists besides these names, "ordered" and "unordered": x86's names, which it takes too (proc/env.c). */
#define FR_ARCH_TSC_MORE_NAMES ", rdtscp, lfence, rdtsc"

/*
 * Calibrated mode's eligibility words: the architected timer's clocksource is "arch_sys_counter"
 * (drivers/clocksource/arm_arch_timer.c), as on arm64; 32-bit ARM has no boot option that
 * distrusts it and no cpuinfo flag that vouches for it, so the two words start with a blank,
 * which calib_seed's whole-word match never finds.
 */
#define FR_ARCH_CLOCKSOURCE "arch_sys_counter"
#define FR_ARCH_CMDLINE_UNSTABLE " (no such boot option on arm)"
#define FR_ARCH_CPUINFO_RELIABLE " (no such cpuinfo flag on arm)"
#define FR_ARCH_INVARIANT_WHY "the CPU's counter is not invariant (the probe said so; the generic timer always ticks at one rate)"
#define FR_ARCH_UNTRUSTED_WHY "the kernel does not use the architected timer (no \"arch_sys_counter\" clocksource)"

/*
 * The ordering dependency arm64's kernel puts after its counter read, in A32/T32: a load from
 * sp + (lo ^ lo) cannot be performed before lo is known, so the counter read takes part in
 * memory ordering as a load would and the seqcount's dmb after it keeps the sequence re-read
 * behind it. 32-bit kernels omit it; it costs two instructions and makes the read at least as
 * ordered as theirs. [sp] is always mapped: it is this thread's stack.
 */
#define FR_ARM_ORDERING_DEP "eor %1, %Q0, %Q0\n\tldr %1, [sp, %1]"

/*
 * Every read below is CNTVCT (mrrc p15, 1, lo, hi, c14) or CNTVCTSS (opc1 9), which raise
 * SIGILL on a CPU without the generic timer (ARM11): start-up reaches them only once the
 * kernel's data page says its vDSO reads the counter (startup/decide.c, kdata).
 */

/* A bare read: it may execute before earlier loads and after later ones. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_unordered(void)
{
	uint64_t v;

	__asm__ volatile("mrrc p15, 1, %Q0, %R0, c14" : "=r"(v));
	return v;
}

/* The kernel's read: isb waits for every earlier instruction, then the dependency. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_fenced(void)
{
	uint64_t v;
	uint32_t tmp;

	__asm__ volatile("isb\n\tmrrc p15, 1, %Q0, %R0, c14\n\t" FR_ARM_ORDERING_DEP : "=&r"(v), "=&r"(tmp)::"memory");
	return v;
}

/* CNTVCTSS (FEAT_ECV, AArch32 opc1 9): no isb. Never reached: no 32-bit kernel reports ECV. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_ordered(void)
{
	uint64_t v;
	uint32_t tmp;

	__asm__ volatile("mrrc p15, 9, %Q0, %R0, c14\n\t" FR_ARM_ORDERING_DEP : "=&r"(v), "=&r"(tmp)::"memory");
	return v;
}

/* A spin-wait hint for a retry loop (the kernel's cpu_relax on SMP ARMv7 is a barrier; yield is the hint). */
static inline __attribute__((always_inline)) void fr_arch_pause(void)
{
	__asm__ volatile("yield" ::: "memory");
}

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
