/* SPDX-License-Identifier: MIT */
/* The ARM CPUs' probe and rate: the ordered read from the hwcaps (never an ID-register read), the counter's rate from CNTFRQ where the port can read it; no fixed-address data to find. */
#include "arch/arch.h"
#include "arch/cpu_dir.h"
#include FR_CPU_FILE(cpu.h)

#include <elf.h>
#include <stddef.h>

typedef unsigned long (*getauxval_fn)(unsigned long type);

/*
 * The kernel says in its hwcaps whether a read needs no isb (FR_ARMFAM_ORDERED, the port's
 * cpu.h); an ID-register read instead would trap to the kernel's emulation at best and raise
 * SIGILL on kernels without it. Where the generic timer exists it is invariant by the
 * architecture: the counter ticks at the one rate CNTFRQ states, in every power state.
 */
static void from_hwcap(struct fr_cpu_features *out, unsigned long hwcap)
{
	out->ordered_read = FR_ARMFAM_ORDERED(hwcap);
	out->invariant_counter = 1;
}

void fr_arch_cpu_probe_insn(struct fr_cpu_features *out)
{
	from_hwcap(out, fr_auxval_raw(FR_ARMFAM_HWCAP_AT));
}

/* libc's getauxval gives the hwcaps its loader used, found without linking it (any version: GLIBC_2.17 on arm64). */
void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym)
{
	getauxval_fn get = (getauxval_fn)libc_sym("getauxval", NULL);

	if (!get) {
		fr_arch_cpu_probe_insn(out);
		return;
	}
	from_hwcap(out, get(FR_ARMFAM_HWCAP_AT));
}

/* CNTFRQ is what firmware programmed; the port's fr_armfam_cntfrq reads it, 0 where it cannot. */
void fr_arch_counter_rates(struct fr_arch_rates *out)
{
	uint64_t hz = fr_armfam_cntfrq();

	out->n = 0;
	if (hz)
		out->r[out->n++] = (struct fr_arch_rate){ hz, 1, FR_ARMFAM_CNTFRQ_NAME };
}

unsigned fr_arch_abs_refs(const uint8_t *code, unsigned long n, uint64_t lo, uint64_t hi, unsigned *at_lo)
{
	/* No ARM kernel's vDSO reads its data at a fixed address: nothing to find. */
	(void)code;
	(void)n;
	(void)lo;
	(void)hi;
	*at_lo = 0;
	return 0;
}
