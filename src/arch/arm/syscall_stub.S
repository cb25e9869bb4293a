/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's exported syscall(): RAW clock_gettime served in-process when asked for, every other call on with all registers as the caller left them. */
#include <sys/syscall.h>

#include "arch/stubs.h"
#include "arch/arm/stub_asm.h"

	fr_syscall_stub_hidden

/*
 * r2 provably writable: p >= sp and p + 16 (the kernel's 64-bit __kernel_timespec, the library's
 * struct timespec under _TIME_BITS=64) <= the end of the 4 KiB block holding sp - 8, unsigned,
 * then the stub's own store below sp (see below); else to next.
 */
.macro stack_block_or_next next
	mov ip, sp
	cmp r2, ip
	blo \next
	sub ip, ip, #8
	lsr ip, ip, #12
	lsl ip, ip, #12
	addw ip, ip, #4080
	cmp r2, ip
	bhi \next
	mov ip, #0
	str ip, [sp, #-8]
.endm

/*
 * glibc's arm syscall() takes the number in r0, three arguments in r1-r3 and the rest on the
 * stack. Every call but a served RAW SYS_clock_gettime64 (Linux 5.1+, the 64-bit-time system
 * call, whose timespec is the library's own; the 32-bit-time SYS_clock_gettime goes on to the
 * kernel) jumps on
 * to the next syscall() in the chain with r0-r3, sp and lr as the caller left them, so that a
 * later interposer, and in the end libc, sees exactly the call it would see without us. Only
 * ip, the intra-procedure-call scratch register, is used otherwise.
 *
 * RAW is served only for a p the stub can prove writable without a system call. bl writes
 * nothing to memory, so the stub makes its own write, as arm64's does: p >= sp and p + 16 <=
 * the end of the 4 KiB block holding sp - 8, then a store to sp - 8, below sp where nothing
 * lives (AAPCS has no red zone). That store and the timespec are in one page, mapped and
 * writable for this thread, so fr_syscall_raw's store cannot fault where the kernel would
 * answer EFAULT (interpose_syscall.c says why).
 *
 * Another clock is served on the same terms, and only when its bit is set in fr_hot.syscall_clocks.
 */
	.text
fr_arm_func syscall
	.cfi_startproc
0:
	movw ip, #SYS_clock_gettime64
	cmp r0, ip
	bne 1f
	cmp r1, #FR_STUB_CLOCK_MONOTONIC_RAW
	bne 5f
	fr_arm_load_hidden ip, fr_hot+FR_HOT_SYSCALL_RAW_MODE, .Lraw_mode
	cmp ip, #FR_RAW_MODE_OFF
	beq 1f
	blo 3f
	stack_block_or_next 1f
	b.w fr_syscall_raw
1:
	fr_arm_load_hidden ip, fr_hot+FR_HOT_SYSCALL_NEXT, .Lnext_cache
	cmp ip, #0
	beq 2f
	bx ip
2:
	save_args
	bl fr_syscall_next
	mov ip, r0
	restore_args
	cmp ip, #0
	beq 4f
	bx ip
4:
	b.w fr_syscall_none
3:
	save_args
	bl fr_syscall_mode_read
	mov ip, r0
	restore_args
	cmp ip, #0
	beq 1b
	b 0b
5:
	/* Another clock: ids 0..31 whose bit initialisation set. */
	cmp r1, #31
	bhi 1b
	fr_arm_load_hidden ip, fr_hot+FR_HOT_SYSCALL_CLOCKS, .Lclocks
	lsr ip, ip, r1
	tst ip, #1
	beq 1b
	stack_block_or_next 1b
	b.w fr_syscall_served
	fr_arm_literal fr_hot+FR_HOT_SYSCALL_RAW_MODE, .Lraw_mode
	fr_arm_literal fr_hot+FR_HOT_SYSCALL_NEXT, .Lnext_cache
	fr_arm_literal fr_hot+FR_HOT_SYSCALL_CLOCKS, .Lclocks
	.cfi_endproc
	.size syscall, .-syscall

	.section .note.GNU-stack, "", %progbits
