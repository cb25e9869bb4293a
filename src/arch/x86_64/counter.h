/* SPDX-License-Identifier: MIT */
/* The counter reads (rdtsc, lfence;rdtsc, rdtscp) and the CPU-feature probe that chooses among them. */
#ifndef FR_COUNTER_H
#define FR_COUNTER_H

#include <stdint.h>

enum fr_counter_mode { FR_CTR_ORDERED = 0, FR_CTR_FENCED = 1, FR_CTR_UNORDERED = 2 };

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

/* The CPU features the library asks about. */
struct fr_cpu_features {
	int rdtscp;        /* CPUID 0x80000001 EDX bit 27 */
	int invariant_tsc; /* CPUID 0x80000007 EDX bit 8 */
};

/*
 * Replaceable probe: the real one reads CPUID's answers; tests install a fake to reach every
 * branch. fr_cpu_probe_cpuid takes them from glibc's copy (no CPUID instruction) where glibc
 * has one, else from fr_cpu_probe_insn, which runs CPUID (three times).
 */
typedef void (*fr_cpu_probe_fn)(struct fr_cpu_features *out);
extern fr_cpu_probe_fn fr_cpu_probe;
void fr_cpu_probe_cpuid(struct fr_cpu_features *out);
void fr_cpu_probe_insn(struct fr_cpu_features *out);

const char *fr_counter_name(enum fr_counter_mode mode);

#endif
