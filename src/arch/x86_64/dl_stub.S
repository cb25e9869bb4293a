/* SPDX-License-Identifier: MIT */
/* x86-64's exported dlsym and dlvsym: ask the router (arch/stubs.h), then return its value or jump on with the caller's frame. */

/*
 * With -fcf-protection (__CET__), the IBT and SHSTK property note the compiler gives every C
 * object. Without it <cet.h> adds nothing, and compilers older than GCC 8 have no <cet.h>.
 */
#ifdef __CET__
#include <cet.h>
#endif

	.hidden fr_dlsym_route
	.hidden fr_dlvsym_route

	.text
	.globl dlsym
	.type dlsym, @function
/* The router's fourth argument is the caller's return address, two pushes above. */
dlsym:
	.cfi_startproc
	endbr64
	push %rdi
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	mov 16(%rsp), %rdx
	/* Two pushes and this leave the stack 16-byte aligned for the call. */
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	call fr_dlsym_route
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdi
	.cfi_adjust_cfa_offset -8
	test %rax, %rax
	jz 1f
	jmp *%rax
1:
	mov %rdx, %rax
	ret
	.cfi_endproc
	.size dlsym, .-dlsym

	.globl dlvsym
	.type dlvsym, @function
dlvsym:
	.cfi_startproc
	endbr64
	push %rdi
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	push %rdx
	.cfi_adjust_cfa_offset 8
	mov 24(%rsp), %rcx
	call fr_dlvsym_route
	/* The value moves out of rdx, which the jump needs back as the version argument. */
	mov %rdx, %rcx
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdi
	.cfi_adjust_cfa_offset -8
	test %rax, %rax
	jz 1f
	jmp *%rax
1:
	mov %rcx, %rax
	ret
	.cfi_endproc
	.size dlvsym, .-dlvsym

	.section .note.GNU-stack, "", @progbits
