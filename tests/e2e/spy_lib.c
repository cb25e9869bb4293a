/* SPDX-License-Identifier: MIT */
/* A register spy, preloaded after libfastraw: its syscall() records every argument register (and x86-64's %rax and stack, arm64's x7, x8, sp and x30) as it finds them, then jumps on to the next syscall(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "spy_lib.h"

#define EXPORT __attribute__((visibility("default")))

static __attribute__((used)) struct e2e_spy_regs spy_seen;
static __attribute__((used)) void *spy_next;

static void __attribute__((constructor)) spy_ctor(void)
{
	spy_next = dlsym(RTLD_NEXT, "syscall");
}

/* In assembly, the CPU's (tests/oracle/<cpu>/spy_entry.h): C would have moved registers before anything could record them. */
#include "spy_entry.h"

EXPORT void e2e_spy_take(struct e2e_spy_regs *out);

void e2e_spy_take(struct e2e_spy_regs *out)
{
	*out = spy_seen;
	memset(&spy_seen, 0, sizeof(spy_seen));
}
