/* SPDX-License-Identifier: MIT */
/* AArch64's exported syscall(): RAW clock_gettime served in-process when asked for, every other call on with all registers as the caller left them. */
#include <sys/syscall.h>

#include "arch/stubs.h"
#include "arch/aarch64/stub_asm.h"

	fr_syscall_stub_hidden

/*
 * x2 provably writable: p >= sp and p <= (sp - 16 | 4095) - 15, unsigned, then the stub's own
 * store below sp (see below); else to next, the label of the jump on to the next syscall().
 */
.macro stack_block_or_next next
	mov x16, sp
	cmp x2, x16
	b.lo \next
	sub x16, x16, #16
	orr x16, x16, #4095
	sub x16, x16, #15
	cmp x2, x16
	b.hi \next
	str xzr, [sp, #-16]
.endm

/*
 * glibc's aarch64 syscall() takes the number in x0 and six arguments in x1-x6, none on the
 * stack. Every call but a served RAW clock_gettime jumps on to the next syscall() in the chain
 * with x0-x8, sp and x30 as the caller left them, so that a later interposer, and in the end
 * libc, sees exactly the call it would see without us. The decision is made here, before any C
 * code runs; C is reached either to answer (fr_syscall_raw, fr_syscall_none, by a tail branch)
 * or between save_args and restore_args. Only x16 and x17, the intra-procedure-call scratch
 * registers, are used otherwise. The kernel takes the clock id as an int: the same truncation
 * (cmp w1).
 *
 * RAW is served only for a p the stub can prove writable without a system call. bl writes
 * nothing to memory, so the stub makes its own write: p >= sp (in or above the caller's
 * frame) and p + 16 <= the end of the 4 KiB block holding sp - 16, then str xzr, [sp, #-16],
 * below sp where nothing lives (AAPCS64 has no red zone). That store and the caller's stack
 * page are one page, which is mapped and writable for this thread, so fr_syscall_raw's store
 * cannot fault where the kernel would answer EFAULT (interpose_syscall.c says why). When sp is
 * block-aligned, sp - 16 lies in the block below, whose end is sp: no p passes, and nothing
 * is stored there. 4 KiB blocks hold on 16 and 64 KiB pages too: each lies in one page.
 *
 * Another clock is served on the same terms, and only when its bit is set in fr_hot.syscall_clocks
 * (FASTRAW_SYSCALL=1 and FASTRAW_CLOCKS serving it): by default that word is 0, and the call
 * goes on after six instructions more.
 *
 * Hazard, shared with libc's: a syscall(SYS_clone) child returns through its caller's frame;
 * no frame of ours is in the way, so this adds none.
 */
	.text
	.globl syscall
	.type syscall, %function
	.balign 4
syscall:
	.cfi_startproc
	fr_a64_landing
0:
	cmp x0, #SYS_clock_gettime
	b.ne 1f
	cmp w1, #FR_STUB_CLOCK_MONOTONIC_RAW
	b.ne 5f
	adrp x16, fr_hot+FR_HOT_SYSCALL_RAW_MODE
	ldr w16, [x16, #:lo12:fr_hot+FR_HOT_SYSCALL_RAW_MODE]
	cmp w16, #FR_RAW_MODE_OFF
	b.eq 1f
	b.lo 3f
	stack_block_or_next 1f
	b fr_syscall_raw
1:
	adrp x16, fr_hot+FR_HOT_SYSCALL_NEXT
	ldr x16, [x16, #:lo12:fr_hot+FR_HOT_SYSCALL_NEXT]
	cbz x16, 2f
	br x16
2:
	save_args
	bl fr_syscall_next
	mov x16, x0
	restore_args
	cbz x16, 4f
	br x16
4:
	/* A b, not a cbz: cbz reaches 1 MiB only. */
	b fr_syscall_none
3:
	save_args
	bl fr_syscall_mode_read
	mov w16, w0
	restore_args
	cbz w16, 1b
	b 0b
5:
	/* Another clock: ids 0..31 whose bit initialisation set (the kernel reads the id as an int). */
	cmp w1, #31
	b.hi 1b
	adrp x16, fr_hot+FR_HOT_SYSCALL_CLOCKS
	ldr w16, [x16, #:lo12:fr_hot+FR_HOT_SYSCALL_CLOCKS]
	lsr w16, w16, w1
	tbz w16, #0, 1b
	stack_block_or_next 1b
	b fr_syscall_served
	.cfi_endproc
	.size syscall, .-syscall

	fr_a64_property_note
	.section .note.GNU-stack, "", %progbits
