/* SPDX-License-Identifier: MIT */
/* x86-64's CPUID answers that only x86 code reads: the counter rate leaves calibrated mode seeds from. */
#ifndef FR_X86_64_CPU_H
#define FR_X86_64_CPU_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* What CPUID reports about the TSC's rate, as plain values (fr_arch_cpuid_rate_read fills it; tests fake it). */
struct fr_cpuid_rate {
	uint32_t max_leaf;                  /* CPUID 0 EAX */
	uint32_t l15_eax, l15_ebx, l15_ecx; /* leaf 0x15: denominator, numerator, crystal Hz */
	uint32_t l16_eax;                   /* leaf 0x16: base MHz */
	uint32_t hv_max_leaf;               /* CPUID 0x40000000 EAX, 0 without a hypervisor */
	uint32_t hv_tsc_khz;                /* leaf 0x40000010 EAX when hv_max_leaf >= 0x40000010 */
};

void fr_arch_cpuid_rate_read(struct fr_cpuid_rate *out);

struct fr_arch_rates;

/* The rate candidates CPUID's answers give, best leaf first (0x15 with a crystal, 0x40000010, 0x16). Pure: tests feed it. */
void fr_arch_rates_from_cpuid(const struct fr_cpuid_rate *c, struct fr_arch_rates *out);

#pragma GCC visibility pop

#endif
