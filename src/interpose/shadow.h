/* SPDX-License-Identifier: MIT */
/* A shadow copy of the vDSO's ELF image whose clock_gettime symbols lead to us, for programs that parse AT_SYSINFO_EHDR. */
#ifndef FR_SHADOW_H
#define FR_SHADOW_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The largest image copied (4 pages); a larger vDSO gets no shadow. */
#define FR_SHADOW_MAX (4 * 4096)

/*
 * [*lo, *hi): the real vDSO image, from libc's AT_SYSINFO_EHDR and the image's own headers
 * (fr_elf_image_end): no system call. Returns 0, or -1 without a vDSO.
 */
int fr_vdso_range(uintptr_t *lo, uintptr_t *hi);

/*
 * What getauxval(AT_SYSINFO_EHDR) should answer, given libc's answer real: the shadow image once
 * it is built (built here on first use, lock-free, with no system call: the copy stays writable),
 * else real. A caller that races the builder, or a signal handler that interrupts it, gets real:
 * never a half-built image. Only with FASTRAW_SHADOW_VDSO=1 and without FASTRAW_DISABLE=1 (both
 * outside secure execution) is there a shadow; otherwise real, always.
 */
const void *fr_shadow_get(const void *real);

#pragma GCC visibility pop

#endif
