/* SPDX-License-Identifier: MIT */
/* Probe side, aarch64: syscall() called with x0-x8 chosen and x19-x28 holding marks, from assembly, so that nothing the compiler does lies between the values and the call. */
#include "../../e2e/callregs.h"

#include <stddef.h>

_Static_assert(offsetof(struct e2e_call, x7) == 56 && offsetof(struct e2e_call, x8) == 64 &&
		       offsetof(struct e2e_call, use_slot) == 72 && offsetof(struct e2e_call, ret) == 80 &&
		       offsetof(struct e2e_call, sp) == 88 && offsetof(struct e2e_call, p) == 96 &&
		       offsetof(struct e2e_call, slot) == 104 && offsetof(struct e2e_call, sp_off) == 120 &&
		       offsetof(struct e2e_call, slot_off) == 128 && offsetof(struct e2e_call, lr) == 136 &&
		       offsetof(struct e2e_call, kept) == 144 && offsetof(struct e2e_call, tag) == 152,
	       "the assembly's offsets");

/*
 * The frame: x29/x30, x19-x28 and c at [x29, #96]. Below it, base = (frame - 8192) rounded down
 * to 4 KiB: base .. base + 8192 is this function's own stack, two whole 4 KiB blocks, so that a
 * slot anywhere in it (and a fast path writing it) touches no caller's frame. The call is made
 * with sp = base + sp_off. x19-x28 hold marks 0x7019-0x7028 across the call; x29 stays the frame
 * pointer (c is found through it afterwards: a lost x29 crashes, which the probe reports).
 */
__asm__(".text\n"
	".globl e2e_call_syscall\n"
	".type e2e_call_syscall, %function\n"
	".balign 4\n"
	"e2e_call_syscall:\n"
	"hint 34\n"
	"stp x29, x30, [sp, #-112]!\n"
	"mov x29, sp\n"
	"stp x19, x20, [sp, #16]\n"
	"stp x21, x22, [sp, #32]\n"
	"stp x23, x24, [sp, #48]\n"
	"stp x25, x26, [sp, #64]\n"
	"stp x27, x28, [sp, #80]\n"
	"str x0, [sp, #96]\n"
	"mov x15, x0\n"
	"mov x9, sp\n"
	"sub x9, x9, #8192\n"
	"and x9, x9, #0xfffffffffffff000\n"
	"ldr x10, [x15, #120]\n"
	"cbnz x10, 1f\n"
	"mov x10, #2048\n"
	"1:\n"
	"ldr x11, [x15, #128]\n"
	"cbnz x11, 2f\n"
	"mov x11, x10\n"
	"2:\n"
	"add x10, x9, x10\n"
	"add x11, x9, x11\n"
	"ldr x12, [x15, #152]\n"
	"orr x11, x11, x12\n"
	"mov sp, x10\n"
	"ldr x2, [x15, #16]\n"
	"ldr x12, [x15, #72]\n"
	"cbz x12, 3f\n"
	"mov x2, x11\n"
	"3:\n"
	"str x2, [x15, #96]\n"
	"str x10, [x15, #88]\n"
	"adr x12, 4f\n"
	"str x12, [x15, #136]\n"
	"mov x19, #0x7019\n"
	"mov x20, #0x7020\n"
	"mov x21, #0x7021\n"
	"mov x22, #0x7022\n"
	"mov x23, #0x7023\n"
	"mov x24, #0x7024\n"
	"mov x25, #0x7025\n"
	"mov x26, #0x7026\n"
	"mov x27, #0x7027\n"
	"mov x28, #0x7028\n"
	"ldp x0, x1, [x15, #0]\n"
	"ldp x3, x4, [x15, #24]\n"
	"ldp x5, x6, [x15, #40]\n"
	"ldp x7, x8, [x15, #56]\n"
	"bl syscall\n"
	"4:\n"
	"ldr x15, [x29, #96]\n"
	"str x0, [x15, #80]\n"
	/* kept: sp as it was at the bl, then each mark. */
	"ldr x10, [x15, #88]\n"
	"mov x11, sp\n"
	"cmp x10, x11\n"
	"cset x12, eq\n"
	".irp n, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28\n"
	"mov x13, #0x70\\n\n"
	"cmp x\\n, x13\n"
	"csel x12, x12, xzr, eq\n"
	".endr\n"
	"str x12, [x15, #144]\n"
	"ldr x12, [x15, #72]\n"
	"cbz x12, 5f\n"
	"ldr x10, [x15, #96]\n"
	"ldp x10, x11, [x10]\n"
	"stp x10, x11, [x15, #104]\n"
	"5:\n"
	"mov sp, x29\n"
	"ldp x19, x20, [sp, #16]\n"
	"ldp x21, x22, [sp, #32]\n"
	"ldp x23, x24, [sp, #48]\n"
	"ldp x25, x26, [sp, #64]\n"
	"ldp x27, x28, [sp, #80]\n"
	"ldp x29, x30, [sp], #112\n"
	"ret\n"
	".size e2e_call_syscall, .-e2e_call_syscall\n");
