/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's exported dlsym and dlvsym: ask the router (arch/stubs.h), then return its value or jump on with the caller's registers and lr. */
#include "arch/arm/stub_asm.h"

	.hidden fr_dlsym_route
	.hidden fr_dlvsym_route

/*
 * The router's last argument is the caller's return address, lr at entry. Its answer, struct
 * fr_route, is 8 bytes, which AAPCS returns in memory: the stub passes a buffer on its stack as
 * the hidden first argument (r0) and the real ones one register later, dlvsym's caller on the
 * stack. The jump goes through ip with r0-r3, sp and lr as the caller left them, so the next
 * dlsym reads the caller's return address as its own; bx ip enters it in its own state.
 */
	.text
fr_arm_func dlsym
	.cfi_startproc
	save_args
	sub sp, sp, #8
	.cfi_adjust_cfa_offset 8
	mov r3, lr
	mov r2, r1
	mov r1, r0
	mov r0, sp
	bl fr_dlsym_route
	ldr ip, [sp]
	cmp ip, #0
	beq 1f
	add sp, sp, #8
	.cfi_adjust_cfa_offset -8
	restore_args
	bx ip
1:
	.cfi_adjust_cfa_offset 32
	ldr r0, [sp, #4]
	add sp, sp, #24
	.cfi_adjust_cfa_offset -24
	pop {r4, pc}
	.cfi_endproc
	.size dlsym, .-dlsym

fr_arm_func dlvsym
	.cfi_startproc
	save_args
	sub sp, sp, #16
	.cfi_adjust_cfa_offset 16
	str lr, [sp]
	mov r3, r2
	mov r2, r1
	mov r1, r0
	add r0, sp, #8
	bl fr_dlvsym_route
	ldr ip, [sp, #8]
	cmp ip, #0
	beq 1f
	add sp, sp, #16
	.cfi_adjust_cfa_offset -16
	restore_args
	bx ip
1:
	.cfi_adjust_cfa_offset 40
	ldr r0, [sp, #12]
	add sp, sp, #32
	.cfi_adjust_cfa_offset -32
	pop {r4, pc}
	.cfi_endproc
	.size dlvsym, .-dlvsym

	.section .note.GNU-stack, "", %progbits
