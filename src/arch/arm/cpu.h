/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's helpers that only this folder and the tests call: the HWCAP bits, MIDR decoding. */
#ifndef FR_ARM_CPU_H
#define FR_ARM_CPU_H

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

struct fr_cpu_name;

/* Vendor and model from a MIDR value: "ARM", "part 0xc07 r0p5" (unknown implementers as "0x%02x"). Pure. */
void fr_arm_name_from_midr(uint32_t midr, struct fr_cpu_name *out);

#pragma GCC visibility pop

#endif
