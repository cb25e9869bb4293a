/* SPDX-License-Identifier: MIT */
/* Calibrated mode's inputs: whether the counter may be trusted, and what the kernel or CPU says its rate is. */
#ifndef FR_CALIB_SEED_H
#define FR_CALIB_SEED_H

#include <stdint.h>

#include "arch/arch.h"
/* The pre-5.3 gtod page (fr_gtod_*) is one more source of a seed: its users get it here too. */
#include "kdata/gtod.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Eligibility rule (the README's "Calibrated mode", "When"): the counter is one to trust, by
 * the CPU's word (cpu->invariant_counter) or by the kernel's (kernel_counter 1: the kernel's own
 * data page says its vDSO clock is the counter, as a pre-5.3 gtod page in clock mode TSC does;
 * its clocksource watchdog takes an unstable TSC away), and the kernel has not given up on it:
 * FR_ARCH_CLOCKSOURCE is among the available clocksources, or the first CPU's /proc/cpuinfo flags
 * include FR_ARCH_CPUINFO_RELIABLE and the kernel command line does not say
 * FR_ARCH_CMDLINE_UNSTABLE (on x86-64 "tsc", "tsc_reliable", "tsc=unstable": the flag comes from
 * the hypervisor and survives that option). kernel_counter is 0 when such a page says another
 * clock, -1 when there is no such page (5.3+, arm64) or it could not be read. Returns NULL when
 * eligible, else the reason. Pure: the caller reads the strings (any may be NULL: unknown).
 */
const char *fr_cal_seed_eligible(const struct fr_cpu_features *cpu, int kernel_counter,
				 const char *available_clocksource, const char *cpuinfo, const char *cmdline);

/* A counter rate, in 32.32 ns per tick, and where it came from. */
struct fr_cal_seed {
	uint64_t mult; /* 0: unknown */
	const char *source; /* "cpuid 0x15", "cpuid 0x16", "hypervisor 0x40000010", "pvclock",
			       "kernel tsc mult", "kernel gtod mult (3.16-4.19 layout)", ... */
	uint32_t kmult, kshift; /* the kernel's clocksource mult/shift it came from; 0, 0: none */
};

/*
 * The seed from the rates the CPU reports (fr_arch_counter_rates), the first usable one:
 * mult 0 and source "none" when there is none.
 */
void fr_cal_seed_from_rates(const struct fr_arch_rates *rates, struct fr_cal_seed *out);

/* From a clocksource mult/shift of a TSC clocksource (ns = cycles * mult >> shift). */
uint64_t fr_cal_seed_mult_from_shift(uint32_t mult, uint32_t shift);
/* From a pvclock tsc_to_system_mul / tsc_shift pair (kvm-clock, Xen). */
uint64_t fr_cal_seed_mult_from_pvclock(uint32_t tsc_to_system_mul, int8_t tsc_shift);
/* From a frequency in kHz. */
uint64_t fr_cal_seed_mult_from_khz(uint64_t khz);

#pragma GCC visibility pop

#endif
