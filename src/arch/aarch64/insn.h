/* SPDX-License-Identifier: MIT */
/* The AArch64 instruction encodings the tests look for: the vDSO's counter-read slots (the oracle) and the instructions a single-stepped call executes (the path test). */
#ifndef FR_AARCH64_INSN_H
#define FR_AARCH64_INSN_H

#include <stddef.h>
#include <stdint.h>

/*
 * A64 instructions are one 32-bit little-endian word each. For an mrs the low five bits are Rt,
 * the destination register: FR_A64_MRS_MASK keeps everything else. Each value was checked
 * against aarch64-linux-gnu-as.
 */
#define FR_A64_ISB 0xd5033fdfu		 /* isb (sy) */
#define FR_A64_NOP 0xd503201fu		 /* nop */
#define FR_A64_SVC0 0xd4000001u		 /* svc #0 */
#define FR_A64_BTI_C 0xd503245fu	 /* bti c (hint 34) */
#define FR_A64_MRS_CNTVCT 0xd53be040u	 /* mrs x0, cntvct_el0; | Rt */
#define FR_A64_MRS_CNTVCTSS 0xd53be0c0u	 /* mrs x0, cntvctss_el0 (S3_3_C14_C0_6, FEAT_ECV); | Rt */
#define FR_A64_MRS_CNTFRQ 0xd53be000u	 /* mrs x0, cntfrq_el0; | Rt */
#define FR_A64_MRS_TPIDR_EL0 0xd53bd040u /* mrs x0, tpidr_el0; | Rt: what the oracle puts in a read's place */
#define FR_A64_MRS_MASK 0xffffffe0u
#define FR_A64_MOV_X8_CLOCK_GETTIME 0xd2800e28u /* mov x8, #113 (clock_gettime), before the vDSO's svc #0 */

/* The word at b (4 readable bytes), as the CPU reads it. */
static inline uint32_t fr_a64_word(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The destination register of an mrs word. */
static inline unsigned fr_a64_rt(uint32_t w)
{
	return w & 0x1f;
}

/*
 * The vDSO's counter read is a two-word slot that the kernel's alternatives patch at boot
 * (arm64 __arch_get_hw_counter, 5.x-7.x): "isb; mrs xN, cntvct_el0" without ECV,
 * "nop; mrs xN, cntvctss_el0" with it. The ordering dependency follows either. A bare
 * "mrs xN, cntvct_el0" is no kernel's, but the library's unordered read.
 */
#define FR_A64_READ_SLOT 8
enum fr_a64_read { FR_A64_READ_ISB_CNTVCT, FR_A64_READ_CNTVCTSS, FR_A64_READ_CNTVCT, FR_A64_READS };
#define FR_A64_READ_NAMES                                                                        \
	{                                                                                       \
		[FR_A64_READ_ISB_CNTVCT] = "isb;cntvct", [FR_A64_READ_CNTVCTSS] = "cntvctss", \
		[FR_A64_READ_CNTVCT] = "cntvct"                                                 \
	}

/*
 * The counter read starting at b (n readable bytes): its length in bytes, FR_A64_READ_SLOT for
 * a kernel slot, 4 for a bare read, 0 for none; its kind in *kind, and in *rt the register the
 * mrs, the slot's last word, reads into.
 */
static inline size_t fr_a64_read_at(const uint8_t *b, size_t n, enum fr_a64_read *kind, unsigned *rt)
{
	uint32_t w0, w1;

	if (n < 4)
		return 0;
	w0 = fr_a64_word(b);
	if (n >= FR_A64_READ_SLOT) {
		w1 = fr_a64_word(b + 4);
		*rt = fr_a64_rt(w1);
		if (w0 == FR_A64_ISB && (w1 & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCT) {
			*kind = FR_A64_READ_ISB_CNTVCT;
			return FR_A64_READ_SLOT;
		}
		if (w0 == FR_A64_NOP && (w1 & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCTSS) {
			*kind = FR_A64_READ_CNTVCTSS;
			return FR_A64_READ_SLOT;
		}
	}
	if ((w0 & FR_A64_MRS_MASK) != FR_A64_MRS_CNTVCT)
		return 0;
	*kind = FR_A64_READ_CNTVCT;
	*rt = fr_a64_rt(w0);
	return 4;
}

/* What a single-stepped call is about to execute, of what the path test counts. */
enum fr_a64_insn { FR_A64_OTHER, FR_A64_IS_ISB, FR_A64_IS_CNTVCT, FR_A64_IS_CNTVCTSS, FR_A64_IS_SVC };

/* The instruction at b (n readable bytes). */
static inline enum fr_a64_insn fr_a64_insn_at(const uint8_t *b, size_t n)
{
	uint32_t w;

	if (n < 4)
		return FR_A64_OTHER;
	w = fr_a64_word(b);
	if (w == FR_A64_ISB)
		return FR_A64_IS_ISB;
	if (w == FR_A64_SVC0)
		return FR_A64_IS_SVC;
	if ((w & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCT)
		return FR_A64_IS_CNTVCT;
	if ((w & FR_A64_MRS_MASK) == FR_A64_MRS_CNTVCTSS)
		return FR_A64_IS_CNTVCTSS;
	return FR_A64_OTHER;
}

#endif
