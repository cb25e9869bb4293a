/* SPDX-License-Identifier: MIT */
/* A register spy, preloaded after libfastraw: its syscall() records every argument register, %rax and the stack as it finds them, then jumps on to the next syscall(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "spy_lib.h"

#define EXPORT __attribute__((visibility("default")))

_Static_assert(offsetof(struct e2e_spy_regs, rax) == 48 && offsetof(struct e2e_spy_regs, stack7) == 56 &&
		       offsetof(struct e2e_spy_regs, rsp) == 64 && offsetof(struct e2e_spy_regs, calls) == 72,
	       "the assembly's offsets");

static __attribute__((used)) struct e2e_spy_regs spy_seen;
static __attribute__((used)) void *spy_next;

static void __attribute__((constructor)) spy_ctor(void)
{
	spy_next = dlsym(RTLD_NEXT, "syscall");
}

/* In assembly: C would have moved registers before anything could record them. */
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

EXPORT void e2e_spy_take(struct e2e_spy_regs *out);

void e2e_spy_take(struct e2e_spy_regs *out)
{
	*out = spy_seen;
	memset(&spy_seen, 0, sizeof(spy_seen));
}
