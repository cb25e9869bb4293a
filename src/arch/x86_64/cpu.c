/* SPDX-License-Identifier: MIT */
/* x86-64's CPUID readers: the features behind the counter choice and the rate leaves calibrated mode seeds from. */
#include "arch/arch.h"
#include "arch/x86_64/cpu.h"

#include <cpuid.h>
#include <stddef.h>

/*
 * glibc 2.33+ keeps the CPUID leaves that its dynamic loader read at start-up, and libc exports
 * them as __x86_get_cpuid_feature_leaf@GLIBC_2.33 (<sys/platform/x86.h>). Reading that copy costs
 * no CPUID: in a VM each one traps to the hypervisor, several microseconds, and every process
 * would pay them at start-up. Looked up at run time, not linked: the library keeps running on
 * older glibc (and on other libcs) with the instruction instead.
 */
struct glibc_cpuid_leaf {
	unsigned cpuid[4];  /* EAX, EBX, ECX, EDX as CPUID returned them */
	unsigned active[4]; /* what glibc chose to use: not wanted here */
};

/* glibc's enum index of the leaves (CPUID_INDEX_80000001, CPUID_INDEX_80000007), fixed by its ABI. */
enum { GLIBC_LEAF_80000001 = 2, GLIBC_LEAF_80000007 = 4, EDX = 3 };

typedef const struct glibc_cpuid_leaf *(*glibc_leaf_fn)(unsigned index);

/* RDTSCP is CPUID leaf 0x80000001 EDX bit 27; the invariant TSC is leaf 0x80000007 EDX bit 8. */
void fr_arch_cpu_probe_insn(struct fr_cpu_features *out)
{
	unsigned a, b, c, d, max_ext;

	out->ordered_read = 0;
	out->invariant_counter = 0;
	/* __get_cpuid would ask for the maximum leaf again before each leaf: one CPUID each here. */
	__cpuid(0x80000000u, max_ext, b, c, d);
	if (max_ext >= 0x80000001u) {
		__cpuid(0x80000001u, a, b, c, d);
		out->ordered_read = (d >> 27) & 1;
	}
	if (max_ext >= 0x80000007u) {
		__cpuid(0x80000007u, a, b, c, d);
		out->invariant_counter = (d >> 8) & 1;
	}
}

void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym)
{
	glibc_leaf_fn leaf = (glibc_leaf_fn)libc_sym("__x86_get_cpuid_feature_leaf", "GLIBC_2.33");
	unsigned edx1;

	/*
	 * Every x86-64 CPU sets long mode (0x80000001 EDX bit 29): without it glibc did not read the
	 * extended leaves (it skips them for vendors it does not know), so ask the CPU.
	 */
	if (!leaf || !((edx1 = leaf(GLIBC_LEAF_80000001)->cpuid[EDX]) >> 29 & 1)) {
		fr_arch_cpu_probe_insn(out);
		return;
	}
	out->ordered_read = (edx1 >> 27) & 1;
	out->invariant_counter = (leaf(GLIBC_LEAF_80000007)->cpuid[EDX] >> 8) & 1;
}

void fr_arch_cpuid_rate_read(struct fr_cpuid_rate *out)
{
	unsigned a, b, c, d;

	*out = (struct fr_cpuid_rate){ 0 };
	/* A leaf above the maximum returns another leaf's data on Intel: every read is guarded. */
	out->max_leaf = __get_cpuid_max(0, NULL);
	if (out->max_leaf >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		out->l15_eax = a;
		out->l15_ebx = b;
		out->l15_ecx = c;
	}
	if (out->max_leaf >= 0x16) {
		__cpuid_count(0x16, 0, a, b, c, d);
		out->l16_eax = a;
	}
	if (out->max_leaf < 1)
		return;
	__cpuid(1, a, b, c, d);
	if (!((c >> 31) & 1))
		return;
	/* Only with the hypervisor bit: on bare metal the 0x4000xxxx range is undefined. */
	__cpuid(0x40000000, a, b, c, d);
	if (a < 0x40000000 || a > 0x4fffffff)
		return;
	out->hv_max_leaf = a;
	if (a >= 0x40000010) {
		__cpuid(0x40000010, a, b, c, d);
		out->hv_tsc_khz = a;
	}
}

void fr_arch_rates_from_cpuid(const struct fr_cpuid_rate *c, struct fr_arch_rates *out)
{
	uint32_t base_mhz = c->l16_eax & 0xffff;

	out->n = 0;
	/* Leaf 0x15: TSC Hz = crystal Hz (ECX) * numerator (EBX) / denominator (EAX). */
	if (c->max_leaf >= 0x15 && c->l15_eax && c->l15_ebx && c->l15_ecx)
		out->r[out->n++] = (struct fr_arch_rate){ (uint64_t)c->l15_ecx * c->l15_ebx, c->l15_eax, "cpuid 0x15" };
	/* The hypervisor timing leaf (VMware's convention, also KVM's and bhyve's): EAX = TSC kHz. */
	if (c->hv_max_leaf >= 0x40000010 && c->hv_tsc_khz)
		out->r[out->n++] = (struct fr_arch_rate){ (uint64_t)c->hv_tsc_khz * 1000, 1, "hypervisor 0x40000010" };
	/* Leaf 0x16 EAX bits 15:0: the base frequency in MHz (bits 31:16 reserved). */
	if (c->max_leaf >= 0x16 && base_mhz)
		out->r[out->n++] = (struct fr_arch_rate){ (uint64_t)base_mhz * 1000000, 1, "cpuid 0x16" };
}

void fr_arch_counter_rates(struct fr_arch_rates *out)
{
	struct fr_cpuid_rate c;

	fr_arch_cpuid_rate_read(&c);
	fr_arch_rates_from_cpuid(&c, out);
}
