/* SPDX-License-Identifier: MIT */
/* AArch64's exported dlsym and dlvsym: ask the router (arch/stubs.h), then return its value or jump on with the caller's registers and x30. */
#include "arch/aarch64/stub_asm.h"

	.hidden fr_dlsym_route
	.hidden fr_dlvsym_route

/*
 * The router's last argument is the caller's return address, x30 at entry. Its answer, struct
 * fr_route, comes back in x0 (jump) and x1 (value). The jump goes through x16 with x0-x8, sp
 * and x30 as the caller left them, so the next dlsym reads the caller's return address as its
 * own; br x16 is a branch that bti c accepts.
 */
	.text
	.globl dlsym
	.type dlsym, %function
	.balign 4
dlsym:
	.cfi_startproc
	fr_a64_landing
	save_args
	mov x2, x30
	bl fr_dlsym_route
	mov x16, x0
	mov x17, x1
	restore_args
	cbz x16, 1f
	br x16
1:
	mov x0, x17
	ret
	.cfi_endproc
	.size dlsym, .-dlsym

	.globl dlvsym
	.type dlvsym, %function
	.balign 4
dlvsym:
	.cfi_startproc
	fr_a64_landing
	save_args
	mov x3, x30
	bl fr_dlvsym_route
	mov x16, x0
	mov x17, x1
	restore_args
	cbz x16, 1f
	br x16
1:
	mov x0, x17
	ret
	.cfi_endproc
	.size dlvsym, .-dlvsym

	fr_a64_property_note
	.section .note.GNU-stack, "", %progbits
