/* SPDX-License-Identifier: MIT */
/* Finds a versioned dynamic symbol in the vDSO's ELF image by its hash tables. */
#include "elf/vdso_elf.h"
#include "elf/elfsym.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>

#include "base/once.h"
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
	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != FR_ELF_CLASS)
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

/*
 * The extent of this process's vDSO image, recorded the first time it was found readable: two
 * words, kept by whichever caller claims them (base/once.h); a racer answers with its own.
 */
static int range_state = FR_KEEP_NONE;
static uintptr_t range_lo, range_hi;

static void record_range(uintptr_t lo, uintptr_t hi)
{
	if (!fr_keep_claim(&range_state))
		return;
	range_lo = lo;
	range_hi = hi;
	fr_keep_done(&range_state, 1);
}

int fr_vdso_range(uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t l, h;

	if (fr_keep_ready(&range_state)) {
		*lo = range_lo;
		*hi = range_hi;
		return 0;
	}
	l = (uintptr_t)fr_vdso_base();
	if (!l || (h = fr_elf_image_end((const void *)l)) <= l)
		return -1;
	record_range(l, h);
	*lo = l;
	*hi = h;
	return 0;
}

void *fr_vdso_sym(const void *base, const char *name, const char *version)
{
	struct fr_elfsyms s;
	uintptr_t end = fr_elf_image_end(base);

	/* Nothing is read from an image the program has unmapped or made PROT_NONE. */
	if (!end || fr_vdso_open(base, &s) != 0)
		return NULL;
	/* The constructor's lookup (the pass-through target) records the extent for fr_vdso_range. */
	if (base == fr_vdso_base())
		record_range((uintptr_t)base, end);
	return fr_elfsyms_lookup(&s, name, version);
}

const uint8_t *fr_vdso_code(const void *base, const char *name, const char *version, size_t *size)
{
	struct fr_elfsyms s;
	uintptr_t end = fr_elf_image_end(base), at;
	long i;

	if (!end || fr_vdso_open(base, &s) != 0 || (i = fr_elfsyms_find(&s, name, version)) < 0)
		return NULL;
	at = s.bias + s.symtab[i].st_value;
	*size = s.symtab[i].st_size;
	if (!*size || at < (uintptr_t)base || at >= end || *size > end - at)
		return NULL;
	return (const uint8_t *)at;
}
