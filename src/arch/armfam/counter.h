/* SPDX-License-Identifier: MIT */
/* The ARM CPUs' counter hooks: the generic timer's virtual count read three ways (cntvctss, isb+cntvct, cntvct), the names users type, yield; the port's counter.h gives the instructions. */
#ifndef FR_ARMFAM_COUNTER_H
#define FR_ARMFAM_COUNTER_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* FASTRAW_TSC's values: arm64's instructions, whose AArch32 twins 32-bit ARM reads. */
#define FR_ARCH_COUNTER_NAME_ORDERED "cntvctss"
#define FR_ARCH_COUNTER_NAME_FENCED "isb+cntvct"
#define FR_ARCH_COUNTER_NAME_UNORDERED "cntvct"
/* FEAT_ECV (ID_AA64MMFR0_EL1.ECV >= 1), which arm64's kernel reports as HWCAP2_ECV and no 32-bit kernel reports */
#define FR_ARCH_ORDERED_FEATURE "ECV"
#define FR_ARCH_COUNTER_WORD "cntvct"

/*
 * Calibrated mode's eligibility words. The kernel's clocksource of the architected timer is
 * "arch_sys_counter" (drivers/clocksource/arm_arch_timer.c). Neither ARM CPU has a boot option
 * that distrusts it or a /proc/cpuinfo flag that vouches for it (arm64's cpuinfo has a
 * "Features" line, no "flags" line): the two words start with a blank, which calib_seed's
 * whole-word match can never find, since it skips blanks before comparing.
 */
#define FR_ARCH_CLOCKSOURCE "arch_sys_counter"
#define FR_ARCH_CMDLINE_UNSTABLE " (no such boot option on " FR_ARMFAM_CPU ")"
#define FR_ARCH_CPUINFO_RELIABLE " (no such cpuinfo flag on " FR_ARMFAM_CPU ")"
#define FR_ARCH_UNTRUSTED_WHY "the kernel does not use the architected timer (no \"arch_sys_counter\" clocksource)"

/*
 * The reads: the port's FR_ARMFAM_CNTVCT and FR_ARMFAM_CNTVCTSS read the counter into %0, and
 * its FR_ARMFAM_ORDERING_DEP, the ordering dependency the kernel's arm64 vDSO puts after its
 * read (the idea of arch_counter_enforce_ordering), makes a load depend on the value in %0 with
 * %1 as scratch: a load from sp + (v ^ v) cannot be performed before v is known, so the counter
 * read takes part in memory ordering as a load would, and the seqcount's barrier after it keeps
 * the sequence re-read behind it. [sp] is always mapped: it is this thread's stack.
 */

/* A bare read: it may execute before earlier loads and after later ones. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_unordered(void)
{
	uint64_t v;

	__asm__ volatile(FR_ARMFAM_CNTVCT : "=r"(v));
	return v;
}

/* The kernel's default read: isb waits for every earlier instruction, then the dependency. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_fenced(void)
{
	uint64_t v;
	unsigned long tmp;

	__asm__ volatile("isb\n\t" FR_ARMFAM_CNTVCT "\n\t" FR_ARMFAM_ORDERING_DEP : "=&r"(v), "=&r"(tmp)::"memory");
	return v;
}

/* CNTVCTSS, FEAT_ECV's self-synchronising view of the counter: no isb. Never reached unless the probe saw ECV: without it this raises SIGILL. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_ordered(void)
{
	uint64_t v;
	unsigned long tmp;

	__asm__ volatile(FR_ARMFAM_CNTVCTSS "\n\t" FR_ARMFAM_ORDERING_DEP : "=&r"(v), "=&r"(tmp)::"memory");
	return v;
}

/* A spin-wait hint for a retry loop (arm64's cpu_relax; on SMP ARMv7 the kernel's is a barrier): yield lets a sibling hardware thread run. */
static inline __attribute__((always_inline)) void fr_arch_pause(void)
{
	__asm__ volatile("yield" ::: "memory");
}

#pragma GCC visibility pop

#endif
