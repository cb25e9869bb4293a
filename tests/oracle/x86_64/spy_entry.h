/* SPDX-License-Identifier: MIT */
/* The register spy's syscall() in x86-64 assembly: stores every register it is given into spy_seen, then jumps to spy_next (included once, by tests/e2e/spy_lib.c). */
#ifndef FRT_SPY_ENTRY_H
#define FRT_SPY_ENTRY_H

#include <stddef.h>

_Static_assert(offsetof(struct e2e_spy_regs, rax) == 48 && offsetof(struct e2e_spy_regs, stack7) == 56 &&
		       offsetof(struct e2e_spy_regs, rsp) == 64 && offsetof(struct e2e_spy_regs, calls) == 72,
	       "the assembly's offsets");

__asm__(".text\n"
	".globl syscall\n"
	".type syscall, @function\n"
	"syscall:\n"
	"endbr64\n"
	"mov %rdi, spy_seen+0(%rip)\n"
	"mov %rsi, spy_seen+8(%rip)\n"
	"mov %rdx, spy_seen+16(%rip)\n"
	"mov %rcx, spy_seen+24(%rip)\n"
	"mov %r8, spy_seen+32(%rip)\n"
	"mov %r9, spy_seen+40(%rip)\n"
	"mov %rax, spy_seen+48(%rip)\n"
	"mov 8(%rsp), %r11\n"
	"mov %r11, spy_seen+56(%rip)\n"
	"mov %rsp, spy_seen+64(%rip)\n"
	"lock incq spy_seen+72(%rip)\n"
	"mov spy_next(%rip), %r11\n"
	"test %r11, %r11\n"
	"jz 1f\n"
	"jmp *%r11\n"
	"1:\n"
	"mov $-1, %rax\n"
	"ret\n"
	".size syscall, .-syscall\n");

#endif
