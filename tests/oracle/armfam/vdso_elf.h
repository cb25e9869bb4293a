/* SPDX-License-Identifier: MIT */
/* Reading a vDSO image's sections and versioned dynamic symbols, at the process's ELF width. */
#ifndef FR_TEST_AVELF_H
#define FR_TEST_AVELF_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

/* The section header named name in the image (mapped as its file), or NULL. */
const ElfW(Shdr) *avelf_section(const uint8_t *img, size_t size, const char *name);

/* The address in the image (at base) of the dynamic symbol name@version, or NULL. */
void *avelf_sym(const uint8_t *img, size_t size, const char *name, const char *version);

#endif
