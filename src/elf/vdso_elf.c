/* SPDX-License-Identifier: MIT */
/* Finds a versioned dynamic symbol in the vDSO's ELF image by its hash tables. */
#include "elf/vdso_elf.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>

#include "elf/dynsym.h"

const void *fr_vdso_base(void)
{
	/* libc's getauxval: a call to getauxval from here would bind to our own interposer. */
	return (const void *)fr_auxval(AT_SYSINFO_EHDR);
}

int fr_vdso_open(const void *base, struct fr_elfsyms *out)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	uintptr_t bias = 0;
	int have_load = 0;

	memset(out, 0, sizeof(*out));
	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	ph = (const ElfW(Phdr) *)((const char *)base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			bias = (uintptr_t)base + ph[i].p_offset - ph[i].p_vaddr;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const ElfW(Dyn) *)((const char *)base + ph[i].p_offset);
		}
	}
	if (!have_load || !dyn)
		return -1;
	/* The kernel maps the vDSO and no loader rewrites it: its entries are offsets. */
	return fr_elfsyms_from_dynamic(dyn, bias, 0, out);
}

void *fr_vdso_sym(const void *base, const char *name, const char *version)
{
	struct fr_elfsyms s;

	if (fr_vdso_open(base, &s) != 0)
		return NULL;
	return fr_elfsyms_lookup(&s, name, version);
}
