/* SPDX-License-Identifier: MIT */
/* AArch64's CPU probe and rate: FEAT_ECV from AT_HWCAP2 (never an ID-register read), the counter's rate from CNTFRQ_EL0; no fixed-address data to find. */
#include "arch/arch.h"
#include "arch/aarch64/cpu.h"

#include <elf.h>
#include <stddef.h>

typedef unsigned long (*getauxval_fn)(unsigned long type);

/*
 * The kernel says whether the CPU has ECV in AT_HWCAP2; reading ID_AA64MMFR0_EL1 instead
 * would trap to the kernel's emulation at best and raise SIGILL on kernels without it. The
 * generic timer is invariant by the architecture: CNTVCT_EL0 counts at the one rate
 * CNTFRQ_EL0 states, in every power state.
 */
static void from_hwcap2(struct fr_cpu_features *out, unsigned long hwcap2)
{
	out->ordered_read = (hwcap2 & FR_A64_HWCAP2_ECV) != 0;
	out->invariant_counter = 1;
}

void fr_arch_cpu_probe_insn(struct fr_cpu_features *out)
{
	from_hwcap2(out, fr_auxval_raw(AT_HWCAP2));
}

/* libc's getauxval gives the hwcaps its loader used, found without linking it (any version: GLIBC_2.17 on arm64). */
void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym)
{
	getauxval_fn get = (getauxval_fn)libc_sym("getauxval", NULL);

	if (!get) {
		fr_arch_cpu_probe_insn(out);
		return;
	}
	from_hwcap2(out, get(AT_HWCAP2));
}

/*
 * CNTFRQ_EL0 is what firmware programmed, bits 31:0 (the rest RES0); Linux takes the same
 * value unless the device tree or ACPI overrides it.
 */
void fr_arch_counter_rates(struct fr_arch_rates *out)
{
	uint64_t hz;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	hz &= 0xffffffffu;
	out->n = 0;
	if (hz)
		out->r[out->n++] = (struct fr_arch_rate){ hz, 1, "cntfrq_el0" };
}

unsigned fr_arch_abs_refs(const uint8_t *code, unsigned long n, uint64_t lo, uint64_t hi, unsigned *at_lo)
{
	/* No arm64 kernel's vDSO reads its data at a fixed address: nothing to find. */
	(void)code;
	(void)n;
	(void)lo;
	(void)hi;
	*at_lo = 0;
	return 0;
}
