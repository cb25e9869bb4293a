/* SPDX-License-Identifier: MIT */
/* Static page-aligned buffers that stay out of the way of the state start-up writes. */
#ifndef FR_PAGES_H
#define FR_PAGES_H

#include <stdint.h>

#include "arch/arch.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Defines a static zeroed buffer of size bytes plus one page, for fr_page_up to align at run
 * time, in the section the architecture names (FR_ARCH_PAGE_SECTION, arch/arch.h). A
 * page-aligned or large object inside .bss would page-align or spread the library's whole .bss,
 * and the state start-up writes would no longer share the .data page: a page fault more in every
 * process, whether the buffer is ever used or not; x86-64 avoids that with .lbss.
 */
#define FR_PAGE_BUFFER(name, size) \
	static unsigned char name[(size) + 4096] __attribute__((aligned(64), section(FR_ARCH_PAGE_SECTION(name))))

/*
 * For a static that start-up's constructor never writes (the first RAW read does): in the same
 * section as the page buffers, after .bss, so that the statics every constructor writes stay on
 * one page of .bss (a page fault less in every process, issue 30).
 */
#define FR_LATE_STATIC(name) __attribute__((section(FR_ARCH_PAGE_SECTION(name))))

/* The first page boundary at or after p. */
static inline void *fr_page_up(void *p)
{
	return (void *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
}

#pragma GCC visibility pop

#endif
