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
 * What getauxval(AT_SYSINFO_EHDR) should answer, given libc's answer real: the shadow image once
 * it is built (built here on first use, lock-free, from a whole image found readable with one
 * futex call per page and no other system call: the copy stays writable),
 * else real. A caller that races the builder, or a signal handler that interrupts it, gets real:
 * never a half-built image. Only with FASTRAW_SHADOW_VDSO=1 and without FASTRAW_DISABLE=1 (both
 * outside secure execution) is there a shadow; otherwise real, always.
 */
const void *fr_shadow_get(const void *real);

#pragma GCC visibility pop

#endif
