/* SPDX-License-Identifier: MIT */
/* The x86-64 instruction encodings the tests look for: the vDSO's counter-read slots (the oracle) and the instructions a single-stepped call executes (the path test). */
#ifndef FR_X86_64_INSN_H
#define FR_X86_64_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* Encodings, as array initialisers (no prefixes: compilers and the kernel's vDSO emit none). */
#define FR_X86_RDTSC { 0x0f, 0x31 }
#define FR_X86_RDTSCP { 0x0f, 0x01, 0xf9 }
#define FR_X86_LFENCE { 0x0f, 0xae, 0xe8 }
#define FR_X86_MFENCE { 0x0f, 0xae, 0xf0 }
#define FR_X86_SYSCALL { 0x0f, 0x05 }
#define FR_X86_MOV_EAX_IMM32 0xb8 /* followed by the 32-bit immediate */

/*
 * The vDSO's counter read is one 5-byte slot that the kernel's alternatives patch at boot
 * (arch/x86 rdtsc_ordered(), 5.x-7.x): "rdtsc" + 3 bytes of NOP without a feature,
 * "lfence; rdtsc" with LFENCE_RDTSC, "rdtscp" + 2 bytes of NOP with RDTSCP. Older kernels
 * put "mfence" or "lfence" (or 3 bytes of NOP) before a plain rdtsc.
 */
#define FR_X86_READ_SLOT 5
#define FR_X86_SLOT_LFENCE_RDTSC { 0x0f, 0xae, 0xe8, 0x0f, 0x31 }
#define FR_X86_SLOT_RDTSCP { 0x0f, 0x01, 0xf9, 0x66, 0x90 }

/* The reads such a slot can hold, and their names in the oracle's output. */
enum fr_x86_read { FR_X86_READ_RDTSC, FR_X86_READ_LFENCE_RDTSC, FR_X86_READ_MFENCE_RDTSC, FR_X86_READ_RDTSCP, FR_X86_READS };
#define FR_X86_READ_NAMES                                                                     \
	{                                                                                    \
		[FR_X86_READ_RDTSC] = "rdtsc", [FR_X86_READ_LFENCE_RDTSC] = "lfence;rdtsc",  \
		[FR_X86_READ_MFENCE_RDTSC] = "mfence;rdtsc", [FR_X86_READ_RDTSCP] = "rdtscp" \
	}

/* Whether the n bytes at p are NOP padding in the forms the alternatives code writes (90, 66 90, 0f 1f 00, 66 66 90). */
static inline int fr_x86_is_nops(const uint8_t *p, size_t n)
{
	size_t k = 0;

	while (k < n) {
		if (p[k] == 0x90)
			k += 1;
		else if (k + 2 <= n && p[k] == 0x66 && p[k + 1] == 0x90)
			k += 2;
		else if (k + 3 <= n && p[k] == 0x0f && p[k + 1] == 0x1f && p[k + 2] == 0x00)
			k += 3;
		else if (k + 3 <= n && p[k] == 0x66 && p[k + 1] == 0x66 && p[k + 2] == 0x90)
			k += 3;
		else
			return 0;
	}
	return 1;
}

/* What a single-stepped call is about to execute, of what the path test counts. */
enum fr_x86_insn { FR_X86_OTHER, FR_X86_IS_RDTSC, FR_X86_IS_RDTSCP, FR_X86_IS_LFENCE, FR_X86_IS_SYSCALL };

/* The instruction at b (n readable bytes); lfence is 0f ae e8 to 0f ae ef (ModRM reg field 5, any register operand). */
static inline enum fr_x86_insn fr_x86_insn_at(const uint8_t *b, size_t n)
{
	if (n < 2 || b[0] != 0x0f)
		return FR_X86_OTHER;
	if (b[1] == 0x31)
		return FR_X86_IS_RDTSC;
	if (b[1] == 0x05)
		return FR_X86_IS_SYSCALL;
	if (n >= 3 && b[1] == 0x01 && b[2] == 0xf9)
		return FR_X86_IS_RDTSCP;
	if (n >= 3 && b[1] == 0xae && (b[2] & 0xf8) == 0xe8)
		return FR_X86_IS_LFENCE;
	return FR_X86_OTHER;
}

#pragma GCC visibility pop

#endif
