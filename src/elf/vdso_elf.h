/* SPDX-License-Identifier: MIT */
/* Finding symbols in the vDSO's ELF image (DT_GNU_HASH or DT_HASH, with symbol versions). */
#ifndef FR_VDSO_ELF_H
#define FR_VDSO_ELF_H

#include "elf/elfsym.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The vDSO image of this process (libc's AT_SYSINFO_EHDR, never our shadow), or NULL when there is none (valgrind). */
const void *fr_vdso_base(void);

/*
 * Fills out with the dynamic tables of the ELF image at base (bias from its first PT_LOAD).
 * Returns 0 or -1. It reads the image as it is: the caller knows it readable (fr_elf_image_end).
 */
int fr_vdso_open(const void *base, struct fr_elfsyms *out);

/*
 * [*lo, *hi): this process's vDSO image, from libc's AT_SYSINFO_EHDR and the image's own headers
 * (fr_elf_image_end), measured once it could be read and kept. For telling whether an address
 * lies in the vDSO with no system call (a lookup may come under a seccomp filter), never for
 * reading it: the program may have unmapped it since. Returns 0, or -1 without a readable vDSO.
 */
int fr_vdso_range(uintptr_t *lo, uintptr_t *hi);

/*
 * The address of name@version in the vDSO image at base, or NULL, also when any page of the
 * image cannot be read now (fr_elf_image_end asks the kernel first: unmapped or PROT_NONE costs
 * NULL, not a signal). version may be NULL to accept any version. No allocation, no locks,
 * async-signal-safe.
 */
void *fr_vdso_sym(const void *base, const char *name, const char *version);

/*
 * The code of the function name@version in the vDSO image at base, its st_size bytes in *size,
 * or NULL as fr_vdso_sym, and when the symbol has no size or its bytes lie outside the image.
 */
const uint8_t *fr_vdso_code(const void *base, const char *name, const char *version, size_t *size);

#pragma GCC visibility pop

#endif
