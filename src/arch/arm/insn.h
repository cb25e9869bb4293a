/* SPDX-License-Identifier: MIT */
/* The 32-bit ARM instruction encodings the tests look for: the counter reads (mrrc of CNTVCT and CNTVCTSS), isb and svc, in Thumb-2 and in A32. */
#ifndef FR_ARM_INSN_H
#define FR_ARM_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Thumb-2 (the library's state, and a Thumb-2 kernel's vDSO) stores an instruction as one or two
 * little-endian halfwords; A32 as one little-endian word. Each value was checked against
 * arm-linux-gnueabihf-as. The mrrc masks keep everything but Rt and Rt2.
 */
#define FR_ARM_T32_ISB 0x8f6ff3bfu	    /* isb sy: halfwords f3bf 8f6f, as one LE word */
#define FR_ARM_T32_SVC0 0xdf00u		    /* svc #0 (one halfword) */
#define FR_ARM_T32_MRRC_HW0 0xec50u	    /* mrrc p15, opc1, Rt, Rt2, c14: first halfword | Rt2 */
#define FR_ARM_T32_MRRC_HW0_MASK 0xfff0u
#define FR_ARM_T32_MRRC_CNTVCT_HW1 0x0f1eu   /* second halfword | Rt << 12: opc1 1, CNTVCT */
#define FR_ARM_T32_MRRC_CNTVCTSS_HW1 0x0f9eu /* opc1 9, CNTVCTSS (FEAT_ECV) */
#define FR_ARM_T32_MRRC_HW1_MASK 0x0fffu
#define FR_ARM_A32_ISB 0xf57ff06fu	     /* isb sy */
#define FR_ARM_A32_SVC0 0xef000000u	     /* svc #0 */
#define FR_ARM_A32_MRRC_CNTVCT 0xec500f1eu  /* mrrc p15, 1, Rt, Rt2, c14 | Rt2 << 16 | Rt << 12 */
#define FR_ARM_A32_MRRC_CNTVCTSS 0xec500f9eu
#define FR_ARM_A32_MRRC_MASK 0xfff00fffu

/* The halfword at b (2 readable bytes), as the CPU reads it. */
static inline uint32_t fr_arm_half(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8;
}

/* The A32 word at b (4 readable bytes). */
static inline uint32_t fr_arm_word(const uint8_t *b)
{
	return fr_arm_half(b) | fr_arm_half(b + 2) << 16;
}

/* What a single-stepped call is about to execute, of what the path test counts. */
enum fr_arm_insn { FR_ARM_OTHER, FR_ARM_IS_ISB, FR_ARM_IS_CNTVCT, FR_ARM_IS_CNTVCTSS, FR_ARM_IS_SVC };

/* The Thumb-2 instruction at b (n readable bytes). */
static inline enum fr_arm_insn fr_arm_t32_insn_at(const uint8_t *b, size_t n)
{
	uint32_t h0, h1;

	if (n < 2)
		return FR_ARM_OTHER;
	h0 = fr_arm_half(b);
	if (h0 == FR_ARM_T32_SVC0)
		return FR_ARM_IS_SVC;
	if (n < 4)
		return FR_ARM_OTHER;
	h1 = fr_arm_half(b + 2);
	if ((h0 | h1 << 16) == FR_ARM_T32_ISB)
		return FR_ARM_IS_ISB;
	if ((h0 & FR_ARM_T32_MRRC_HW0_MASK) == FR_ARM_T32_MRRC_HW0) {
		if ((h1 & FR_ARM_T32_MRRC_HW1_MASK) == FR_ARM_T32_MRRC_CNTVCT_HW1)
			return FR_ARM_IS_CNTVCT;
		if ((h1 & FR_ARM_T32_MRRC_HW1_MASK) == FR_ARM_T32_MRRC_CNTVCTSS_HW1)
			return FR_ARM_IS_CNTVCTSS;
	}
	return FR_ARM_OTHER;
}

/* The A32 instruction at b (n readable bytes). */
static inline enum fr_arm_insn fr_arm_a32_insn_at(const uint8_t *b, size_t n)
{
	uint32_t w;

	if (n < 4)
		return FR_ARM_OTHER;
	w = fr_arm_word(b);
	if (w == FR_ARM_A32_ISB)
		return FR_ARM_IS_ISB;
	if (w == FR_ARM_A32_SVC0)
		return FR_ARM_IS_SVC;
	if ((w & FR_ARM_A32_MRRC_MASK) == FR_ARM_A32_MRRC_CNTVCT)
		return FR_ARM_IS_CNTVCT;
	if ((w & FR_ARM_A32_MRRC_MASK) == FR_ARM_A32_MRRC_CNTVCTSS)
		return FR_ARM_IS_CNTVCTSS;
	return FR_ARM_OTHER;
}

/* The length in bytes of the Thumb-2 instruction starting with halfword h0: 4 for the 32-bit encodings. */
static inline size_t fr_arm_t32_len(uint32_t h0)
{
	return (h0 >> 11) >= 0x1d ? 4 : 2;
}

#pragma GCC visibility pop

#endif
