/* SPDX-License-Identifier: MIT */
/* The tests' own reader of an in-memory ELF image (the vDSO or its shadow), independent of the library's. */
#ifndef FR_E2E_ELFWALK_H
#define FR_E2E_ELFWALK_H

#include <stdint.h>

/* One image as a dynamic linker sees it. */
struct elfwalk {
	uintptr_t load;           /* base + p_offset - p_vaddr of the first PT_LOAD */
	const char *strtab;
	const void *symtab;       /* ElfW(Sym) */
	const uint32_t *sysv;     /* DT_HASH, or NULL */
	const uint32_t *gnu;      /* DT_GNU_HASH, or NULL */
	const uint16_t *versym;
	const void *verdef;       /* ElfW(Verdef) */
	int notes;                /* well-formed notes found in the PT_NOTE segments */
	int linux_note;           /* one of them is named "Linux" */
};

/* Reads the image at base. Returns 0, or -1 (and says why in *why) when it is not a usable image. */
int elfwalk_open(const void *base, struct elfwalk *w, const char **why);

/*
 * The address of name@version, looked up in the table chosen (gnu != 0: DT_GNU_HASH, else
 * DT_HASH), or NULL when it is absent, of another version, or that table is missing.
 */
void *elfwalk_sym(const struct elfwalk *w, int gnu, const char *name, const char *version);

#endif
