/* SPDX-License-Identifier: MIT */
/* AArch64's counter hooks: CNTVCT_EL0 read three ways (cntvctss, isb+cntvct, cntvct), the names users type, yield and the signal-safe increment. */
#ifndef FR_AARCH64_COUNTER_H
#define FR_AARCH64_COUNTER_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* FASTRAW_TSC's values: the instructions each read is made of. */
#define FR_ARCH_COUNTER_NAME_ORDERED "cntvctss"
#define FR_ARCH_COUNTER_NAME_FENCED "isb+cntvct"
#define FR_ARCH_COUNTER_NAME_UNORDERED "cntvct"
/* FEAT_ECV (ID_AA64MMFR0_EL1.ECV >= 1), which the kernel reports as HWCAP2_ECV */
#define FR_ARCH_ORDERED_FEATURE "ECV"
#define FR_ARCH_COUNTER_WORD "cntvct"

/*
 * Calibrated mode's eligibility words. The kernel's clocksource of the architected timer is
 * "arch_sys_counter" (drivers/clocksource/arm_arch_timer.c). arm64 has no boot option that
 * distrusts it and no /proc/cpuinfo flag that vouches for it (its cpuinfo has a "Features"
 * line, no "flags" line): the two words start with a blank, which calib_seed's whole-word
 * match can never find, since it skips blanks before comparing.
 */
#define FR_ARCH_CLOCKSOURCE "arch_sys_counter"
#define FR_ARCH_CMDLINE_UNSTABLE " (no such boot option on arm64)"
#define FR_ARCH_CPUINFO_RELIABLE " (no such cpuinfo flag on arm64)"
#define FR_ARCH_INVARIANT_WHY "the CPU's counter is not invariant (the probe said so; the arm64 generic timer always ticks at one rate)"
#define FR_ARCH_UNTRUSTED_WHY "the kernel does not use the architected timer (no \"arch_sys_counter\" clocksource)"

/*
 * The ordering dependency the kernel puts after its counter read (the idea of arm64's
 * arch_counter_enforce_ordering), on the value in %0, with %1 as scratch: a load from
 * sp + (v ^ v) cannot be performed before v is known, so the counter read takes part in memory
 * ordering as a load would, and the seqcount's dmb ishld after it keeps the sequence re-read
 * behind it. [sp] is always mapped: it is this thread's stack.
 */
#define FR_A64_ORDERING_DEP "eor %1, %0, %0\n\tadd %1, sp, %1\n\tldr xzr, [%1]"

/* A bare read: it may execute before earlier loads and after later ones. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_unordered(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* The kernel's default read: isb waits for every earlier instruction, then the dependency. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_fenced(void)
{
	uint64_t v, tmp;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\t" FR_A64_ORDERING_DEP : "=r"(v), "=r"(tmp)::"memory");
	return v;
}

/*
 * CNTVCTSS_EL0 (S3_3_C14_C0_6), FEAT_ECV's self-synchronising view of the counter: no isb.
 * Never reached unless the probe saw ECV: without it this raises SIGILL.
 */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_ordered(void)
{
	uint64_t v, tmp;

	__asm__ volatile("mrs %0, S3_3_C14_C0_6\n\t" FR_A64_ORDERING_DEP : "=r"(v), "=r"(tmp)::"memory");
	return v;
}

/* A spin-wait hint for a retry loop (arm64's cpu_relax): yield lets a sibling hardware thread run. */
static inline __attribute__((always_inline)) void fr_arch_pause(void)
{
	__asm__ volatile("yield" ::: "memory");
}

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
