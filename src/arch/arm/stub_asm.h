/* SPDX-License-Identifier: MIT */
/* Assembler set-up the 32-bit ARM stubs share: Thumb-2, unified syntax, a PC-relative load of a hidden word, the frame that keeps the caller's argument registers. */
#ifndef FR_ARM_STUB_ASM_H
#define FR_ARM_STUB_ASM_H

	.syntax unified
	.arch armv7-a
	.thumb

/*
 * A global function in Thumb state: its symbol has bit 0 set, so that a caller in either state
 * reaches it with blx or through the PLT, and its return (bx lr, pop {pc}) goes back to the
 * caller's state.
 */
.macro fr_arm_func name
	.globl \name
	.type \name, %function
	.balign 4
	.thumb_func
\name:
.endm

/*
 * reg = the 32-bit word at the hidden symbol sym, PC-relative (no GOT, usable before relocation):
 * the literal holds sym's distance from the add, whose pc reads 4 bytes ahead in Thumb state.
 */
.macro fr_arm_load_hidden reg, sym, lit
	ldr \reg, \lit
.Lpc_\lit:
	add \reg, pc
	ldr \reg, [\reg]
.endm
.macro fr_arm_literal sym, lit
	.balign 4
\lit:
	.word \sym - (.Lpc_\lit + 4)
.endm

/*
 * 24 bytes around a call into C: r0-r3 (the four argument registers), r4 (a filler that keeps sp
 * 8-byte aligned, AAPCS) and lr, so that a jump on after restore_args sees every argument
 * register and the return address as the caller left them.
 */
.macro save_args
	push {r0-r4, lr}
	.cfi_adjust_cfa_offset 24
	.cfi_rel_offset lr, 20
.endm

.macro restore_args
	pop {r0-r4, lr}
	.cfi_adjust_cfa_offset -24
	.cfi_restore lr
.endm

#endif
