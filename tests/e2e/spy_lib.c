/* SPDX-License-Identifier: MIT */
/* A register spy, preloaded after libfastraw: its syscall() records every argument register (and x86-64's %rax and stack, arm64's x7, x8, sp and x30) as it finds them, then jumps on to the next syscall(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "spy_lib.h"

#define EXPORT __attribute__((visibility("default")))

#if defined(__x86_64__)
_Static_assert(offsetof(struct e2e_spy_regs, rax) == 48 && offsetof(struct e2e_spy_regs, stack7) == 56 &&
		       offsetof(struct e2e_spy_regs, rsp) == 64 && offsetof(struct e2e_spy_regs, calls) == 72,
	       "the assembly's offsets");
#elif defined(__aarch64__)
_Static_assert(offsetof(struct e2e_spy_regs, sp) == 72 && offsetof(struct e2e_spy_regs, lr) == 80 &&
		       offsetof(struct e2e_spy_regs, calls) == 88,
	       "the assembly's offsets");
#endif

static __attribute__((used)) struct e2e_spy_regs spy_seen;
static __attribute__((used)) void *spy_next;

static void __attribute__((constructor)) spy_ctor(void)
{
	spy_next = dlsym(RTLD_NEXT, "syscall");
}

/* In assembly: C would have moved registers before anything could record them. */
#if defined(__x86_64__)
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
#elif defined(__aarch64__)
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

EXPORT void e2e_spy_take(struct e2e_spy_regs *out);

void e2e_spy_take(struct e2e_spy_regs *out)
{
	*out = spy_seen;
	memset(&spy_seen, 0, sizeof(spy_seen));
}
