/* SPDX-License-Identifier: MIT */
/* AArch64's helpers that only this folder and the tests call: the HWCAP2 bit, MIDR decoding. */
#ifndef FR_AARCH64_CPU_H
#define FR_AARCH64_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "arch/auxv.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* AT_HWCAP2's FEAT_ECV bit (arch/arm64/include/uapi/asm/hwcap.h, Linux 5.16+), for headers that lack it. */
#define FR_A64_HWCAP2_ECV (1UL << 19)

struct fr_cpu_name;

/* Vendor and model from a MIDR_EL1 value: "ARM", "part 0xd0c r3p1" (unknown implementers as "0x%02x"). Pure. */
void fr_a64_name_from_midr(uint64_t midr, struct fr_cpu_name *out);

#pragma GCC visibility pop

#endif
