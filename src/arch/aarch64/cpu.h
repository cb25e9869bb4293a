/* SPDX-License-Identifier: MIT */
/* AArch64's helpers that only this folder and the tests call: the auxiliary vector by raw system calls, the HWCAP2 bit, MIDR decoding. */
#ifndef FR_AARCH64_CPU_H
#define FR_AARCH64_CPU_H

#include <stddef.h>
#include <stdint.h>

/* AT_HWCAP2's FEAT_ECV bit (arch/arm64/include/uapi/asm/hwcap.h, Linux 5.16+), for headers that lack it. */
#define FR_A64_HWCAP2_ECV (1UL << 19)

/* The value of type in an auxiliary vector of bytes bytes ((type, value) pairs up to AT_NULL), 0 if absent. Pure. */
unsigned long fr_a64_auxv_find(const unsigned long *v, long bytes, unsigned long type);

/*
 * The kernel's auxiliary vector entry for type (0 if none or unreadable): prctl(PR_GET_AUXV),
 * Linux 6.4+, else /proc/self/auxv, by raw system calls only. No libc, no errno, safe before
 * relocation.
 */
unsigned long fr_a64_auxval_raw(unsigned long type);

struct fr_cpu_name;

/* Vendor and model from a MIDR_EL1 value: "ARM", "part 0xd0c r3p1" (unknown implementers as "0x%02x"). Pure. */
void fr_a64_name_from_midr(uint64_t midr, struct fr_cpu_name *out);

#endif
