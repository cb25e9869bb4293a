/* SPDX-License-Identifier: MIT */
/* Probe side, 32-bit ARM: syscall() called with r0-r3 and the stack arguments chosen and r4-r10 holding marks, from assembly, so that nothing the compiler does lies between the values and the call. */
#include "../../e2e/callregs.h"

#include <stddef.h>

/* The assembly's offsets, one field at a time. */
#define FRT_CALL_AT(f, off) _Static_assert(offsetof(struct e2e_call, f) == (off), "e2e_call." #f);
FRT_CALL_AT(slot, 28) FRT_CALL_AT(use_slot, 44) FRT_CALL_AT(sp_off, 48) FRT_CALL_AT(slot_off, 52)
FRT_CALL_AT(ret, 56) FRT_CALL_AT(sp, 60) FRT_CALL_AT(p, 64) FRT_CALL_AT(lr, 68) FRT_CALL_AT(kept, 72)

/*
 * Thumb-2, as the probes' C. The frame: r4-r11 and lr, then c at [r11]. Below it, base = (frame
 * - 8192) rounded down to 4 KiB: base .. base + 8192 is this function's own stack, two whole
 * 4 KiB blocks, so that a slot anywhere in it (and a fast path writing it) touches no caller's
 * frame. The call is made with sp = base + sp_off and the 4th-6th arguments at [sp]; r4-r10 hold
 * marks 0x7004-0x7010 across the call; r11 stays the frame pointer (c is found through it
 * afterwards: a lost r11 crashes, which the probe reports).
 */
__asm__(".text\n"
	".syntax unified\n"
	".thumb\n"
	".globl e2e_call_syscall\n"
	".type e2e_call_syscall, %function\n"
	".balign 4\n"
	".thumb_func\n"
	"e2e_call_syscall:\n"
	"push {r4-r11, lr}\n"
	"sub sp, sp, #12\n"
	"str r0, [sp]\n"
	"mov r11, sp\n"
	"mov ip, r0\n"
	"mov r1, sp\n"
	"sub r1, r1, #8192\n"
	"lsrs r1, r1, #12\n"
	"lsls r1, r1, #12\n"
	"ldr r2, [ip, #48]\n"
	"cmp r2, #0\n"
	"it eq\n"
	"moveq r2, #2048\n"
	"ldr r3, [ip, #52]\n"
	"cmp r3, #0\n"
	"it eq\n"
	"moveq r3, r2\n"
	"add r2, r1, r2\n"
	"add r3, r1, r3\n"
	"ldr r0, [ip, #44]\n"
	"cmp r0, #0\n"
	"it eq\n"
	"ldreq r3, [ip, #8]\n"
	"str r3, [ip, #64]\n"
	"str r2, [ip, #60]\n"
	"mov sp, r2\n"
	"ldr r0, [ip, #16]\n"
	"str r0, [sp]\n"
	"ldr r0, [ip, #20]\n"
	"str r0, [sp, #4]\n"
	"ldr r0, [ip, #24]\n"
	"str r0, [sp, #8]\n"
	"adr r0, 4f\n"
	"orr r0, r0, #1\n"
	"str r0, [ip, #68]\n"
	".irp n, 4, 5, 6, 7, 8, 9, 10\n"
	"movw r\\n, #(0x7000 + \\n)\n"
	".endr\n"
	"ldr r0, [ip, #0]\n"
	"ldr r1, [ip, #4]\n"
	"mov r2, r3\n"
	"ldr r3, [ip, #12]\n"
	"bl syscall\n"
	"4:\n"
	"ldr ip, [r11]\n"
	"str r0, [ip, #56]\n"
	/* kept: sp as it was at the bl, then each mark. */
	"ldr r1, [ip, #60]\n"
	"mov r3, sp\n"
	"movs r2, #0\n"
	"cmp r1, r3\n"
	"it eq\n"
	"moveq r2, #1\n"
	".irp n, 4, 5, 6, 7, 8, 9, 10\n"
	"movw r1, #(0x7000 + \\n)\n"
	"cmp r\\n, r1\n"
	"it ne\n"
	"movne r2, #0\n"
	".endr\n"
	"str r2, [ip, #72]\n"
	"ldr r1, [ip, #44]\n"
	"cmp r1, #0\n"
	"beq 5f\n"
	"ldr r1, [ip, #64]\n"
	".irp o, 0, 4, 8, 12\n"
	"ldr r2, [r1, #\\o]\n"
	"str r2, [ip, #(28 + \\o)]\n"
	".endr\n"
	"5:\n"
	"mov sp, r11\n"
	"add sp, sp, #12\n"
	"pop {r4-r11, pc}\n"
	".size e2e_call_syscall, .-e2e_call_syscall\n");
