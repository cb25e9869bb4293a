/* SPDX-License-Identifier: MIT */
/* Assembler macros the aarch64 stubs share: the BTI landing pad, the frame that keeps the caller's argument registers, the property note. */
#ifndef FR_AARCH64_STUB_ASM_H
#define FR_AARCH64_STUB_ASM_H

/*
 * bti c, spelled as its hint (hint 34) so that any -march assembles it: a NOP without FEAT_BTI.
 * It accepts calls (blr) and the tail jumps of linkers' veneers and of other stubs (br x16, x17).
 */
.macro fr_a64_landing
	hint 34
.endm

/*
 * A frame of 96 bytes around a call into C: x29 and x30, then x0-x8 (the eight argument
 * registers and x8, the indirect result register), so that a jump on after restore_args sees
 * every one of them as the caller left it. sp stays 16-byte aligned (AAPCS64).
 */
.macro save_args
	stp x29, x30, [sp, #-96]!
	.cfi_adjust_cfa_offset 96
	.cfi_rel_offset x29, 0
	.cfi_rel_offset x30, 8
	mov x29, sp
	stp x0, x1, [sp, #16]
	stp x2, x3, [sp, #32]
	stp x4, x5, [sp, #48]
	stp x6, x7, [sp, #64]
	str x8, [sp, #80]
.endm

.macro restore_args
	ldp x0, x1, [sp, #16]
	ldp x2, x3, [sp, #32]
	ldp x4, x5, [sp, #48]
	ldp x6, x7, [sp, #64]
	ldr x8, [sp, #80]
	ldp x29, x30, [sp], #96
	.cfi_adjust_cfa_offset -96
	.cfi_restore x29
	.cfi_restore x30
.endm

/*
 * Under -mbranch-protection with BTI (__ARM_FEATURE_BTI_DEFAULT) the compiler marks every C
 * object with a GNU_PROPERTY_AARCH64_FEATURE_1_AND note; the linker keeps the mark for the
 * library only if every object has it, so the stubs, whose every entry lands on bti c, carry
 * it too. Only the BTI bit: the stubs do not sign the return address (PAC).
 */
.macro fr_a64_property_note
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
	.pushsection .note.gnu.property, "a"
	.balign 8
	.long 4			/* n_namesz: "GNU" */
	.long 16		/* n_descsz: one property, padded to 8 */
	.long 5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz "GNU"
	.long 0xc0000000	/* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
	.long 4			/* pr_datasz */
	.long 1			/* GNU_PROPERTY_AARCH64_FEATURE_1_BTI */
	.long 0
	.popsection
#endif
.endm

#endif
