/* SPDX-License-Identifier: MIT */
/* AArch64's exported dlsym and dlvsym: ask the router (arch/stubs.h), then return its value or jump on with the caller's registers and x30. */
#include "arch/aarch64/stub_asm.h"

	.hidden fr_dlsym_route
	.hidden fr_dlvsym_route

/*
 * The router's last argument is the caller's return address, x30 at entry. Its answer, struct
 * fr_route, comes back in x0 (jump) and x1 (value). The jump goes through x16 with x0-x8, sp
 * and x30 as the caller left them, so the next dlsym reads the caller's return address as its
 * own; br x16 is a branch that bti c accepts. dl_stub writes the one body both exports share.
 */
.macro dl_stub name, route, caller
	.globl \name
	.type \name, %function
	.balign 4
\name:
	.cfi_startproc
	fr_a64_landing
	save_args
	mov \caller, x30
	bl \route
	mov x16, x0
	mov x17, x1
	restore_args
	cbz x16, 1f
	br x16
1:
	mov x0, x17
	ret
	.cfi_endproc
	.size \name, .-\name
.endm

	.text
	/* dlsym(handle, name): the caller's address is the router's third argument, x2. */
	dl_stub dlsym, fr_dlsym_route, x2
	/* dlvsym(handle, name, version): its fourth, x3. */
	dl_stub dlvsym, fr_dlvsym_route, x3

	fr_a64_property_note
	.section .note.GNU-stack, "", %progbits
