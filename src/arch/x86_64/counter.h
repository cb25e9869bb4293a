/* SPDX-License-Identifier: MIT */
/* x86-64's counter hooks: the TSC read three ways (rdtscp, lfence;rdtsc, rdtsc), the names users type, pause and the one-instruction increment. */
#ifndef FR_X86_64_COUNTER_H
#define FR_X86_64_COUNTER_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* FASTRAW_TSC's values: the instructions each read is made of. */
#define FR_ARCH_COUNTER_NAME_ORDERED "rdtscp"
#define FR_ARCH_COUNTER_NAME_FENCED "lfence"
#define FR_ARCH_COUNTER_NAME_UNORDERED "rdtsc"
/* CPUID 0x80000001 EDX bit 27 */
#define FR_ARCH_ORDERED_FEATURE "RDTSCP"
#define FR_ARCH_COUNTER_WORD "tsc"

/* Calibrated mode's eligibility words: the kernel's names for what it thinks of the TSC. */
#define FR_ARCH_CLOCKSOURCE "tsc"
#define FR_ARCH_CMDLINE_UNSTABLE "tsc=unstable"
#define FR_ARCH_CPUINFO_RELIABLE "tsc_reliable"
#define FR_ARCH_INVARIANT_WHY "the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8)"
#define FR_ARCH_UNTRUSTED_WHY "the kernel does not trust the TSC (no \"tsc\" clocksource, no tsc_reliable flag)"

/*
 * rdtsc and rdtscp clear the upper halves of RAX and RDX, so 64-bit outputs need no zero
 * extension, and "+" instead of "|" lets the compiler fold a following subtraction into lo.
 */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_unordered(void)
{
	uint64_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (hi << 32) + lo;
}

/* lfence waits for every earlier instruction, so the counter is read after the loads before it. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_fenced(void)
{
	uint64_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return (hi << 32) + lo;
}

/* Never reached unless the probe saw RDTSCP: on a CPU without it this raises SIGILL. */
static inline __attribute__((always_inline)) uint64_t fr_arch_counter_ordered(void)
{
	uint64_t lo, hi;
	uint32_t aux;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
	return (hi << 32) + lo;
}

/* A spin-wait hint for a retry loop (the kernel's cpu_relax). */
static inline __attribute__((always_inline)) void fr_arch_pause(void)
{
	__builtin_ia32_pause();
}

/* A memory-destination add is one instruction: an interrupt lands before it or after it. */
static inline __attribute__((always_inline)) void fr_arch_inc64(uint64_t *p)
{
	__asm__ volatile("addq $1, %0" : "+m"(*p));
}

#pragma GCC visibility pop

#endif
