/* SPDX-License-Identifier: MIT */
/* The register spy's syscall() in 32-bit ARM assembly (Thumb-2): stores every argument it is given into spy_seen, then jumps to spy_next (included once, by tests/e2e/spy_lib.c). */
#ifndef FRT_SPY_ENTRY_H
#define FRT_SPY_ENTRY_H

#include <stddef.h>

/* The assembly's offsets, one field at a time. */
#define FRT_SPY_AT(f, off) _Static_assert(offsetof(struct e2e_spy_regs, f) == (off), "spy_seen." #f);
FRT_SPY_AT(stack, 16) FRT_SPY_AT(sp, 28) FRT_SPY_AT(lr, 32) FRT_SPY_AT(calls, 36)

/*
 * r4 and r5 are borrowed below sp (AAPCS has no red zone, and nothing of the caller's lives
 * there) and given back before the jump; ip, the intra-procedure-call scratch register, carries
 * the target. r0-r3, sp, lr and the stack arguments go on as found.
 */
__asm__(".text\n"
	".syntax unified\n"
	".thumb\n"
	".globl syscall\n"
	".type syscall, %function\n"
	".balign 4\n"
	".thumb_func\n"
	"syscall:\n"
	"push {r4, r5}\n"
	"ldr ip, .Lspy_seen\n"
	".Lspy_seen_pc:\n"
	"add ip, pc\n"
	"stm ip, {r0-r3}\n"
	"ldr r4, [sp, #8]\n"
	"str r4, [ip, #16]\n"
	"ldr r4, [sp, #12]\n"
	"str r4, [ip, #20]\n"
	"ldr r4, [sp, #16]\n"
	"str r4, [ip, #24]\n"
	"add r4, sp, #8\n"
	"str r4, [ip, #28]\n"
	"str lr, [ip, #32]\n"
	"ldr r4, [ip, #36]\n"
	"adds r4, #1\n"
	"str r4, [ip, #36]\n"
	"ldr r5, .Lspy_next\n"
	".Lspy_next_pc:\n"
	"add r5, pc\n"
	"ldr ip, [r5]\n"
	"pop {r4, r5}\n"
	"cmp ip, #0\n"
	"beq 1f\n"
	"bx ip\n"
	"1:\n"
	"mov r0, #-1\n"
	"bx lr\n"
	".balign 4\n"
	".Lspy_seen:\n"
	".word spy_seen - (.Lspy_seen_pc + 4)\n"
	".Lspy_next:\n"
	".word spy_next - (.Lspy_next_pc + 4)\n"
	".size syscall, .-syscall\n");

#endif
