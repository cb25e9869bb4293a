/* SPDX-License-Identifier: MIT */
/* AArch64's helpers that only src/arch calls: the HWCAP2 bit, what the family's cpu.c asks of the CPU, the MIDR. */
#ifndef FR_AARCH64_CPU_H
#define FR_AARCH64_CPU_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/auxv.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* AT_HWCAP2's FEAT_ECV bit (arch/arm64/include/uapi/asm/hwcap.h, Linux 5.16+), for headers that lack it. */
#define FR_A64_HWCAP2_ECV (1UL << 19)

/*
 * What arch/armfam/cpu.c asks of this CPU. The kernel reports FEAT_ECV, which makes CNTVCTSS_EL0
 * readable, in AT_HWCAP2.
 */
#define FR_ARMFAM_HWCAP_AT AT_HWCAP2
#define FR_ARMFAM_ORDERED(hwcap) (((hwcap) & FR_A64_HWCAP2_ECV) != 0)
#define FR_ARMFAM_CNTFRQ_NAME "cntfrq_el0"

/*
 * CNTFRQ_EL0 is what firmware programmed, bits 31:0 (the rest RES0); Linux takes the same value
 * unless the device tree or ACPI overrides it. Every arm64 CPU has the generic timer.
 */
static inline uint64_t fr_armfam_cntfrq(void)
{
	uint64_t hz;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	return hz & 0xffffffffu;
}

/* cpu0's MIDR_EL1 as sysfs shows it, 0 where it does not (midr.c, for the tools). */
uint64_t fr_armfam_midr(void);

#pragma GCC visibility pop

#endif
