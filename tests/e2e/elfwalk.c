/* SPDX-License-Identifier: MIT */
/* Walks an image's program headers, dynamic section, both hash tables, version definitions and notes. */
#include "elf/elfsym.h"
#include "elfwalk.h"

#include <elf.h>
#include <link.h>
#include <string.h>

static void read_notes(struct elfwalk *w, const char *p, size_t len)
{
	const char *end = p + len;

	while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;

		if (sizeof(*n) + name + desc > (size_t)(end - p))
			return;
		w->notes++;
		if (n->n_namesz == 6 && memcmp(p + sizeof(*n), "Linux", 6) == 0)
			w->linux_note = 1;
		p += sizeof(*n) + name + desc;
	}
}

int elfwalk_open(const void *base, struct elfwalk *w, const char **why)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	int loads = 0;

	memset(w, 0, sizeof(*w));
	*why = "not a 64-bit ELF image";
	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != FR_ELF_CLASS)
		return -1;
	ph = (const void *)((const char *)base + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const char *seg = (const char *)base + ph[i].p_offset;

		if (ph[i].p_type == PT_LOAD && loads++ == 0)
			w->load = (uintptr_t)base + ph[i].p_offset - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)seg;
		else if (ph[i].p_type == PT_NOTE)
			read_notes(w, seg, ph[i].p_filesz);
	}
	*why = "no PT_LOAD or PT_DYNAMIC";
	if (!loads || !dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *at = (const void *)(w->load + dyn->d_un.d_ptr);

		if (dyn->d_tag == DT_STRTAB)
			w->strtab = at;
		else if (dyn->d_tag == DT_SYMTAB)
			w->symtab = at;
		else if (dyn->d_tag == DT_HASH)
			w->sysv = at;
		else if (dyn->d_tag == DT_GNU_HASH)
			w->gnu = at;
		else if (dyn->d_tag == DT_VERSYM)
			w->versym = at;
		else if (dyn->d_tag == DT_VERDEF)
			w->verdef = at;
	}
	*why = "no string or symbol table";
	return w->strtab && w->symtab ? 0 : -1;
}

/* The name of the version that symbol i is defined with, or NULL. */
static const char *version_of(const struct elfwalk *w, unsigned i)
{
	const char *vd = w->verdef;

	if (!w->versym || !vd)
		return NULL;
	for (;;) {
		const ElfW(Verdef) *d = (const void *)vd;

		if (d->vd_ndx == (w->versym[i] & 0x7fff)) {
			const ElfW(Verdaux) *a = (const void *)(vd + d->vd_aux);

			return w->strtab + a->vda_name;
		}
		if (d->vd_next == 0)
			return NULL;
		vd += d->vd_next;
	}
}

static void *found(const struct elfwalk *w, unsigned i, const char *name, const char *version)
{
	const ElfW(Sym) *s = (const ElfW(Sym) *)w->symtab + i;
	const char *v;

	if (s->st_shndx == SHN_UNDEF || strcmp(w->strtab + s->st_name, name) != 0)
		return NULL;
	v = version_of(w, i);
	if (!v || strcmp(v, version) != 0)
		return NULL;
	return (void *)(w->load + s->st_value);
}

static void *by_gnu(const struct elfwalk *w, const char *name, const char *version)
{
	uint32_t h = 5381, nb = w->gnu[0], first = w->gnu[1], words = w->gnu[2];
	const uint32_t *buckets = w->gnu + 4 + 2 * (size_t)words, *chains = buckets + nb;
	void *p;

	for (const char *c = name; *c; c++)
		h = (h << 5) + h + (unsigned char)*c;
	for (uint32_t i = buckets[h % nb]; i >= first; i++) {
		uint32_t link = chains[i - first];

		if ((link >> 1) == (h >> 1) && (p = found(w, i, name, version)))
			return p;
		if (link & 1)
			break;
	}
	return NULL;
}

static void *by_sysv(const struct elfwalk *w, const char *name, const char *version)
{
	uint32_t h = 0, nb = w->sysv[0];
	const uint32_t *buckets = w->sysv + 2, *chains = buckets + nb;
	void *p;

	for (const char *c = name; *c; c++) {
		h = (h << 4) + (unsigned char)*c;
		h = (h ^ ((h >> 24) & 0xf0)) & 0x0fffffff;
	}
	for (uint32_t i = buckets[h % nb]; i != 0; i = chains[i])
		if ((p = found(w, i, name, version)))
			return p;
	return NULL;
}

void *elfwalk_sym(const struct elfwalk *w, int gnu, const char *name, const char *version)
{
	if (gnu)
		return w->gnu ? by_gnu(w, name, version) : NULL;
	return w->sysv ? by_sysv(w, name, version) : NULL;
}
