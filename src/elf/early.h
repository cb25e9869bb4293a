/* SPDX-License-Identifier: MIT */
/* Before the loader has relocated libfastraw: how to tell, and how to reach the loader's list of objects without our own GOT. */
#ifndef FR_EARLY_H
#define FR_EARLY_H

#include <link.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * A pointer to itself, which only the loader's relocation of this object makes true. Another
 * object's IFUNC resolver can bind to our exports and call them while ld.so relocates that
 * object, before it relocates us (dependencies first, and we depend on libc alone): our GOT is
 * still unfilled then, so every call to libc, every extern variable (environ, errno, _r_debug)
 * and every pointer we initialise statically would jump or read through garbage.
 */
extern void *const fr_self_ref __attribute__((visibility("hidden")));

/* Whether this object's relocations have been applied: one load and one compare, no GOT. */
static inline int fr_relocated(void)
{
	return *(void *const volatile *)&fr_self_ref == (const void *)&fr_self_ref;
}

/*
 * The loader's r_debug (the head of its list of objects): the dynamic linker's exported _r_debug,
 * found once in its own symbol table at AT_BASE, before relocation too. AT_BASE comes from the
 * auxiliary vector on the initial stack, which glibc's call of our first constructor shows;
 * before that, from the kernel's copy (prctl(PR_GET_AUXV), else /proc/self/auxv, by raw system
 * calls: arch/auxv.h). NULL if neither works. Touches no errno, calls no libc function, allocates
 * nothing.
 */
const struct r_debug *fr_rdebug(void);

/*
 * The kernel's initial stack pointer (argc, argv..., NULL, envp..., NULL, auxv), as the dynamic
 * linker's __libc_stack_end holds it, found as fr_rdebug finds _r_debug; NULL where there is none
 * (musl). What the program's start-up has not yet read (a preinit array runs before libc sets
 * environ and program_invocation_name) can be read there.
 */
void *fr_stack_end(void);

#pragma GCC visibility pop

#endif
