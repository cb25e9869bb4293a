/* SPDX-License-Identifier: MIT */
/* Reading a vDSO image's sections and versioned dynamic symbols, at the process's ELF width. */
#ifndef FR_TEST_AVELF_H
#define FR_TEST_AVELF_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The section header named name in the image (mapped as its file), or NULL. */
const ElfW(Shdr) *avelf_section(const uint8_t *img, size_t size, const char *name);

/* The address in the image (at base) of the dynamic symbol name@version, or NULL. */
void *avelf_sym(const uint8_t *img, size_t size, const char *name, const char *version);

/* The image's .text as offsets [*lo, *hi) (the image is mapped as its file); 0, or -1 without its section header. */
int avelf_text(const uint8_t *img, size_t size, size_t *lo, size_t *hi);

/* The 4-byte instruction word at offset at. */
static inline uint32_t avelf_word(const uint8_t *img, size_t at)
{
	uint32_t v;

	memcpy(&v, img + at, 4);
	return v;
}

#endif
