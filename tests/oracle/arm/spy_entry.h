/* SPDX-License-Identifier: MIT */
/* The register spy's syscall() in arm64 assembly: stores every register it is given into spy_seen, then jumps to spy_next (included once, by tests/e2e/spy_lib.c). */
#ifndef FRT_SPY_ENTRY_H
#define FRT_SPY_ENTRY_H

#include <stddef.h>

_Static_assert(offsetof(struct e2e_spy_regs, sp) == 72 && offsetof(struct e2e_spy_regs, lr) == 80 &&
		       offsetof(struct e2e_spy_regs, calls) == 88,
	       "the assembly's offsets");

/* Only x16 and x17, the intra-procedure-call scratch registers, are used: x0-x8 go on as found. */
__asm__(".text\n"
	".globl syscall\n"
	".type syscall, %function\n"
	".balign 4\n"
	"syscall:\n"
	"hint 34\n"
	"adrp x16, spy_seen\n"
	"add x16, x16, :lo12:spy_seen\n"
	"stp x0, x1, [x16, #0]\n"
	"stp x2, x3, [x16, #16]\n"
	"stp x4, x5, [x16, #32]\n"
	"stp x6, x7, [x16, #48]\n"
	"str x8, [x16, #64]\n"
	"mov x17, sp\n"
	"stp x17, x30, [x16, #72]\n"
	"ldr x17, [x16, #88]\n"
	"add x17, x17, #1\n"
	"str x17, [x16, #88]\n"
	"adrp x17, spy_next\n"
	"ldr x17, [x17, :lo12:spy_next]\n"
	"cbz x17, 1f\n"
	"br x17\n"
	"1:\n"
	"mov x0, #-1\n"
	"ret\n"
	".size syscall, .-syscall\n");

#endif
