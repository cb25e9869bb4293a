/* SPDX-License-Identifier: MIT */
/* Probe side, x86-64: syscall() called with every register chosen, from assembly, so that nothing the compiler does lies between the values and the call. */
#include "../../e2e/callregs.h"

#include <stddef.h>

_Static_assert(offsetof(struct e2e_call, stack7) == 56 && offsetof(struct e2e_call, rax) == 64 &&
		       offsetof(struct e2e_call, use_slot) == 72 && offsetof(struct e2e_call, ret) == 80 &&
		       offsetof(struct e2e_call, rsp) == 88 && offsetof(struct e2e_call, p) == 96 &&
		       offsetof(struct e2e_call, slot) == 104,
	       "the assembly's offsets");

/*
 * At the call %rsp (rsp_c) is 16-byte aligned, the seventh argument at 0(rsp_c), the slot at
 * 16(rsp_c). syscall() is entered with rsp_c - 8: the slot is in that page when rsp_c's offset
 * in its page is 16..4064; otherwise 64 more bytes of stack move it there.
 */
__asm__(".text\n"
	".globl e2e_call_syscall\n"
	".type e2e_call_syscall, @function\n"
	"e2e_call_syscall:\n"
	"push %rbp\n"
	"mov %rsp, %rbp\n"
	"push %rbx\n"
	"sub $40, %rsp\n"
	"mov %esp, %eax\n"
	"and $4095, %eax\n"
	"cmp $16, %eax\n"
	"jb 1f\n"
	"cmp $4064, %eax\n"
	"jbe 2f\n"
	"1:\n"
	"sub $64, %rsp\n"
	"2:\n"
	"mov %rdi, %rbx\n"
	"mov 56(%rbx), %rax\n"
	"mov %rax, (%rsp)\n"
	"mov 8(%rbx), %rsi\n"
	"mov 16(%rbx), %rdx\n"
	"cmpq $0, 72(%rbx)\n"
	"je 3f\n"
	"lea 16(%rsp), %rdx\n"
	"3:\n"
	"mov 24(%rbx), %rcx\n"
	"mov 32(%rbx), %r8\n"
	"mov 40(%rbx), %r9\n"
	"mov %rsp, 88(%rbx)\n"
	"mov %rdx, 96(%rbx)\n"
	"mov 64(%rbx), %rax\n"
	"mov 0(%rbx), %rdi\n"
	"call syscall@PLT\n"
	"mov %rax, 80(%rbx)\n"
	"mov 16(%rsp), %rax\n"
	"mov %rax, 104(%rbx)\n"
	"mov 24(%rsp), %rax\n"
	"mov %rax, 112(%rbx)\n"
	"mov -8(%rbp), %rbx\n"
	"leave\n"
	"ret\n"
	".size e2e_call_syscall, .-e2e_call_syscall\n");
