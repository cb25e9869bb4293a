/* SPDX-License-Identifier: MIT */
/* The vDSO image's extent and a seqcount-consistent page copy, shared by the oracles' copy makers. */
#include <link.h>

#include "vvar_entry.h"
#include "vdso_image.h"

size_t oimg_pages(const uint8_t *img)
{
	const ElfW(Ehdr) *eh = (const void *)img;
	const ElfW(Phdr) *ph = (const void *)(img + eh->e_phoff);
	size_t end = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > end)
			end = ph[i].p_vaddr + ph[i].p_memsz;
	return (end + OENTRY_PAGE - 1) / OENTRY_PAGE;
}

int oimg_copy_stable(uint8_t *dst, const volatile uint8_t *src, size_t seq_off)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint32_t s1 = *(const volatile uint32_t *)(src + seq_off), s2;

		if (s1 & 1)
			continue;
		/* Acquire: a compiler barrier on x86-64, a dmb ishld on arm64 (the kernel's smp_rmb). */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		for (size_t i = 0; i < OENTRY_PAGE; i++)
			dst[i] = src[i];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = *(const volatile uint32_t *)(src + seq_off);
		if (s1 == s2)
			return 0;
	}
	return -1;
}
