/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's CPU probe and rate: no ordered read (ECV is never reported to 32-bit tasks), the counter's rate from CNTFRQ where the timer is known to exist. */
#include "arch/arch.h"
#include "arch/arm/cpu.h"

#include <elf.h>
#include <stddef.h>

typedef unsigned long (*getauxval_fn)(unsigned long type);

/*
 * No 32-bit kernel reports FEAT_ECV (arm's hwcaps have no such bit, and arm64's compat hwcaps
 * leave it out), so CNTVCTSS is never the default. Where the generic timer exists it is
 * invariant by the architecture. Whether it exists at all (ARM11 has none) is the kernel's
 * data page's to say, before any counter read (startup/decide.c).
 */
static void from_hwcap(struct fr_cpu_features *out, unsigned long hwcap)
{
	(void)hwcap;
	out->ordered_read = 0;
	out->invariant_counter = 1;
}

void fr_arch_cpu_probe_insn(struct fr_cpu_features *out)
{
	from_hwcap(out, fr_auxval_raw(AT_HWCAP));
}

/* libc's getauxval gives the hwcaps its loader used, found without linking it. */
void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym)
{
	getauxval_fn get = (getauxval_fn)libc_sym("getauxval", NULL);

	if (!get) {
		fr_arch_cpu_probe_insn(out);
		return;
	}
	from_hwcap(out, get(AT_HWCAP));
}

/*
 * CNTFRQ (mrc p15, 0, r, c14, c0, 0) is what firmware programmed. It is read only where the
 * kernel runs the timer's event stream (HWCAP_EVTSTRM), which proves the generic timer: on a
 * CPU without one the mrc raises SIGILL. Without that bit the CPU says nothing.
 */
void fr_arch_counter_rates(struct fr_arch_rates *out)
{
	uint32_t hz;

	out->n = 0;
	if (!(fr_auxval_raw(AT_HWCAP) & FR_ARM_HWCAP_EVTSTRM))
		return;
	__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(hz));
	if (hz)
		out->r[out->n++] = (struct fr_arch_rate){ hz, 1, "cntfrq" };
}

unsigned fr_arch_abs_refs(const uint8_t *code, unsigned long n, uint64_t lo, uint64_t hi, unsigned *at_lo)
{
	/* No 32-bit ARM vDSO reads its data at a fixed address: nothing to find. */
	(void)code;
	(void)n;
	(void)lo;
	(void)hi;
	*at_lo = 0;
	return 0;
}
