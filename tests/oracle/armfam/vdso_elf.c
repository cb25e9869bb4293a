/* SPDX-License-Identifier: MIT */
/* Reading a vDSO image's sections and versioned dynamic symbols, at the process's ELF width (arm64's ELF64, 32-bit ARM's ELF32). */
#include "vdso_elf.h"

#include <string.h>

/* The section named name, or (name NULL) the first of type. */
static const ElfW(Shdr) *section(const uint8_t *img, size_t size, const char *name, uint32_t type)
{
	const ElfW(Ehdr) *eh = (const void *)img;
	const ElfW(Shdr) *sh, *names;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size)
		return NULL;
	sh = (const void *)(img + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	for (int i = 0; i < eh->e_shnum; i++) {
		size_t n = names->sh_offset + sh[i].sh_name;

		if (sh[i].sh_offset + sh[i].sh_size > size)
			continue;
		if ((name && n + strlen(name) + 1 <= size && !strcmp((const char *)img + n, name)) ||
		    (!name && sh[i].sh_type == type))
			return &sh[i];
	}
	return NULL;
}

/* Whether the version definition number ndx of the image is named version. */
static int version_is(const uint8_t *img, size_t size, unsigned ndx, const char *version)
{
	const ElfW(Shdr) *vd = section(img, size, NULL, SHT_GNU_verdef), *str;
	size_t off;

	if (!vd)
		return 0;
	str = (const ElfW(Shdr) *)(img + ((const ElfW(Ehdr) *)img)->e_shoff) + vd->sh_link;
	for (off = vd->sh_offset; off + sizeof(ElfW(Verdef)) <= size;) {
		const ElfW(Verdef) *d = (const void *)(img + off);
		const ElfW(Verdaux) *a = (const void *)(img + off + d->vd_aux);

		if ((d->vd_ndx & 0x7fff) == ndx)
			return !strcmp((const char *)img + str->sh_offset + a->vda_name, version);
		if (!d->vd_next)
			break;
		off += d->vd_next;
	}
	return 0;
}

void *avelf_sym(const uint8_t *img, size_t size, const char *name, const char *version)
{
	const ElfW(Shdr) *ds = section(img, size, NULL, SHT_DYNSYM), *vs = section(img, size, NULL, SHT_GNU_versym), *str;
	const ElfW(Sym) *sym;

	if (!ds || !vs)
		return NULL;
	str = (const ElfW(Shdr) *)(img + ((const ElfW(Ehdr) *)img)->e_shoff) + ds->sh_link;
	sym = (const void *)(img + ds->sh_offset);
	for (size_t i = 0; i < ds->sh_size / sizeof(*sym); i++) {
		uint16_t ver;

		if (strcmp((const char *)img + str->sh_offset + sym[i].st_name, name) || !sym[i].st_value)
			continue;
		memcpy(&ver, img + vs->sh_offset + 2 * i, 2);
		if (version_is(img, size, ver & 0x7fff, version))
			return (void *)(img + sym[i].st_value); /* the image is mapped as its file: vaddr == offset */
	}
	return NULL;
}

const ElfW(Shdr) *avelf_section(const uint8_t *img, size_t size, const char *name)
{
	return section(img, size, name, 0);
}

int avelf_text(const uint8_t *img, size_t size, size_t *lo, size_t *hi)
{
	const ElfW(Shdr) *text = section(img, size, ".text", 0);

	if (!text)
		return -1;
	*lo = text->sh_offset;
	*hi = text->sh_offset + text->sh_size;
	return 0;
}
