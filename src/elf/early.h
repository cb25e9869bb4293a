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
 * The loader's r_debug (the head of its list of objects): through the GOT once relocated; before
 * that, found as the dynamic linker's exported _r_debug, from AT_BASE in the auxiliary vector the
 * kernel gives (prctl(PR_GET_AUXV), else /proc/self/auxv, by raw system calls: arch/auxv.h). NULL if
 * neither works. Touches no errno, calls no libc function, allocates nothing.
 */
const struct r_debug *fr_rdebug(void);

#pragma GCC visibility pop

#endif
