/* SPDX-License-Identifier: MIT */
/* x86-64's exported syscall(): RAW clock_gettime served in-process when asked for, every other call on with all registers as the caller left them. */
/*
 * With -fcf-protection (__CET__), the IBT and SHSTK property note the compiler gives every C
 * object. Without it <cet.h> adds nothing, and compilers older than GCC 8 have no <cet.h>.
 */
#ifdef __CET__
#include <cet.h>
#endif
#include <sys/syscall.h>

#include "arch/stubs.h"

	fr_syscall_stub_hidden

/*
 * The caller's registers around a call into C: the six argument registers and %rax (%al counts
 * the vector registers of a variadic call). Seven pushes from the entry's %rsp = 8 mod 16 leave
 * the stack 16-byte aligned for the call.
 */
.macro save_args
	push %rdi
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	push %rdx
	.cfi_adjust_cfa_offset 8
	push %rcx
	.cfi_adjust_cfa_offset 8
	push %r8
	.cfi_adjust_cfa_offset 8
	push %r9
	.cfi_adjust_cfa_offset 8
	push %rax
	.cfi_adjust_cfa_offset 8
.endm

.macro restore_args
	pop %rax
	.cfi_adjust_cfa_offset -8
	pop %r9
	.cfi_adjust_cfa_offset -8
	pop %r8
	.cfi_adjust_cfa_offset -8
	pop %rcx
	.cfi_adjust_cfa_offset -8
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdi
	.cfi_adjust_cfa_offset -8
.endm

/*
 * %rdx inside the caller's stack page, above the return address: 16 bytes at p >= %rsp + 8 and
 * p + 16 <= the end of %rsp's page, unsigned (interpose_syscall.c says why that page cannot
 * fault); else to next, the label of the jump on to the next syscall().
 */
.macro stack_page_or_next next
	lea 8(%rsp), %r11
	cmp %r11, %rdx
	jb \next
	mov %rsp, %r11
	or $4095, %r11
	sub $15, %r11
	cmp %r11, %rdx
	ja \next
.endm

/*
 * Every call but a served RAW clock_gettime jumps on to the next syscall() in the chain with
 * all registers as the caller left them (the six argument registers, %rax and %al for a
 * variadic call, the seventh argument on the stack), so that a later interposer, and in the end
 * libc, sees exactly the call it would see without us. The decision is made here, before any C
 * code runs; C is reached either to answer (fr_syscall_raw, fr_syscall_none) or between
 * save_args and restore_args. Only %r11, which no call preserves or passes, is used otherwise.
 * The kernel takes the clock id as an int: the same truncation (cmp %esi).
 *
 * RAW is served only when the 16 bytes at p lie above the return address and inside its page
 * (interpose_syscall.c says why that page cannot fault). Another clock is served on the same
 * terms, and only when its bit is set in fr_hot.syscall_clocks (FASTRAW_SYSCALL=1 and FASTRAW_CLOCKS
 * serving it): by default that word is 0, and the call goes on after five instructions more.
 *
 * Hazard, shared with libc's: a syscall(SYS_vfork) child returns through its caller's frame;
 * no frame of ours is in the way, so this adds none.
 */
	.text
	.globl syscall
	.type syscall, @function
syscall:
	.cfi_startproc
	endbr64
0:
	cmp $SYS_clock_gettime, %rdi
	jne 1f
	cmp $FR_STUB_CLOCK_MONOTONIC_RAW, %esi
	jne 5f
	mov fr_hot+FR_HOT_SYSCALL_RAW_MODE(%rip), %r11d
	cmp $FR_RAW_MODE_OFF, %r11d
	je 1f
	jb 3f
	stack_page_or_next 1f
	jmp fr_syscall_raw
1:
	mov fr_hot+FR_HOT_SYSCALL_NEXT(%rip), %r11
	test %r11, %r11
	jz 2f
	jmp *%r11
2:
	save_args
	call fr_syscall_next
	mov %rax, %r11
	restore_args
	test %r11, %r11
	jz fr_syscall_none
	jmp *%r11
3:
	save_args
	call fr_syscall_mode_read
	mov %eax, %r11d
	restore_args
	test %r11d, %r11d
	jz 1b
	jmp 0b
5:
	/* Another clock: ids 0..31 whose bit initialisation set (the kernel reads the id as an int). */
	cmp $31, %esi
	ja 1b
	mov fr_hot+FR_HOT_SYSCALL_CLOCKS(%rip), %r11d
	bt %esi, %r11d
	jnc 1b
	stack_page_or_next 1b
	jmp fr_syscall_served
	.cfi_endproc
	.size syscall, .-syscall

	.section .note.GNU-stack, "", @progbits
