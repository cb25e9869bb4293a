/* SPDX-License-Identifier: MIT */
/* The CPUID probe behind the counter choice, replaceable by tests. */
#include "arch/x86_64/counter.h"

#include <cpuid.h>

#include "elf/dynsym.h"

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

/* CPUID leaf 0x80000001 EDX bit 27 and leaf 0x80000007 EDX bit 8, from the instruction itself. */
void fr_cpu_probe_insn(struct fr_cpu_features *out)
{
	unsigned a, b, c, d, max_ext;

	out->rdtscp = 0;
	out->invariant_tsc = 0;
	/* __get_cpuid would ask for the maximum leaf again before each leaf: one CPUID each here. */
	__cpuid(0x80000000u, max_ext, b, c, d);
	if (max_ext >= 0x80000001u) {
		__cpuid(0x80000001u, a, b, c, d);
		out->rdtscp = (d >> 27) & 1;
	}
	if (max_ext >= 0x80000007u) {
		__cpuid(0x80000007u, a, b, c, d);
		out->invariant_tsc = (d >> 8) & 1;
	}
}

void fr_cpu_probe_cpuid(struct fr_cpu_features *out)
{
	glibc_leaf_fn leaf = (glibc_leaf_fn)fr_libc_sym("__x86_get_cpuid_feature_leaf", "GLIBC_2.33");
	unsigned edx1;

	/*
	 * Every x86-64 CPU sets long mode (0x80000001 EDX bit 29): without it glibc did not read the
	 * extended leaves (it skips them for vendors it does not know), so ask the CPU.
	 */
	if (!leaf || !((edx1 = leaf(GLIBC_LEAF_80000001)->cpuid[EDX]) >> 29 & 1)) {
		fr_cpu_probe_insn(out);
		return;
	}
	out->rdtscp = (edx1 >> 27) & 1;
	out->invariant_tsc = (leaf(GLIBC_LEAF_80000007)->cpuid[EDX] >> 8) & 1;
}

fr_cpu_probe_fn fr_cpu_probe = fr_cpu_probe_cpuid;

const char *fr_counter_name(enum fr_counter_mode mode)
{
	switch (mode) {
	case FR_CTR_ORDERED: return "rdtscp";
	case FR_CTR_FENCED: return "lfence";
	case FR_CTR_UNORDERED: return "rdtsc";
	}
	return "?";
}
