/* SPDX-License-Identifier: MIT */
/* Finding symbols in the vDSO's ELF image (DT_GNU_HASH or DT_HASH, with symbol versions). */
#ifndef FR_VDSO_ELF_H
#define FR_VDSO_ELF_H

#include "elf/elfsym.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The vDSO image of this process (libc's AT_SYSINFO_EHDR, never our shadow), or NULL when there is none (valgrind). */
const void *fr_vdso_base(void);

/* Fills out with the dynamic tables of the ELF image at base (bias from its first PT_LOAD). Returns 0 or -1. */
int fr_vdso_open(const void *base, struct fr_elfsyms *out);

/*
 * The address of name@version in the vDSO image at base, or NULL. version may be NULL to accept
 * any version. Reads only the image: no allocation, no locks, async-signal-safe.
 */
void *fr_vdso_sym(const void *base, const char *name, const char *version);

#pragma GCC visibility pop

#endif
