/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's helpers that only src/arch calls: the HWCAP bit, what the family's cpu.c asks of the CPU, the MIDR. */
#ifndef FR_ARM_CPU_H
#define FR_ARM_CPU_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/auxv.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * AT_HWCAP's HWCAP_EVTSTRM (arch/arm/include/uapi/asm/hwcap.h, 3.12+): the architected timer
 * driver runs the timer's event stream, so the CPU has the generic timer and CNTFRQ is readable.
 */
#define FR_ARM_HWCAP_EVTSTRM (1UL << 21)

/*
 * What arch/armfam/cpu.c asks of this CPU. No 32-bit kernel reports FEAT_ECV (arm's hwcaps have
 * no such bit, and arm64's compat hwcaps leave it out), so CNTVCTSS is never the default. Whether
 * the generic timer exists at all (ARM11 has none) is the kernel's data page's to say, before any
 * counter read (startup/decide.c).
 */
#define FR_ARMFAM_HWCAP_AT AT_HWCAP
#define FR_ARMFAM_ORDERED(hwcap) ((void)(hwcap), 0)
#define FR_ARMFAM_CNTFRQ_NAME "cntfrq"

/*
 * CNTFRQ (mrc p15, 0, r, c14, c0, 0) is what firmware programmed. It is read only where the
 * kernel runs the timer's event stream (HWCAP_EVTSTRM), which proves the generic timer: on a
 * CPU without one the mrc raises SIGILL. Without that bit the CPU says nothing: 0.
 */
static inline uint64_t fr_armfam_cntfrq(void)
{
	uint32_t hz;

	if (!(fr_auxval_raw(AT_HWCAP) & FR_ARM_HWCAP_EVTSTRM))
		return 0;
	__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(hz));
	return hz;
}

/* The first processor's MIDR from /proc/cpuinfo, 0 without it (midr.c, for the tools). */
uint64_t fr_armfam_midr(void);

#pragma GCC visibility pop

#endif
