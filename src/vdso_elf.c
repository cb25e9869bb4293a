/* SPDX-License-Identifier: MIT */
/* Finds a versioned dynamic symbol in the vDSO's ELF image by its hash tables. */
#include "vdso_elf.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

const void *fr_vdso_base(void)
{
	return (const void *)getauxval(AT_SYSINFO_EHDR);
}

/* The parts of the image a lookup needs, with load bias applied. */
struct vdso_image {
	uintptr_t bias;
	const char *strtab;
	const ElfW(Sym) *symtab;
	const uint32_t *hash;
	const uint32_t *gnu_hash;
	const ElfW(Half) *versym;
	const ElfW(Verdef) *verdef;
};

static int image_open(const void *base, struct vdso_image *img)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	int have_load = 0;

	memset(img, 0, sizeof(*img));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	ph = (const ElfW(Phdr) *)((const char *)base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			img->bias = (uintptr_t)base + ph[i].p_offset - ph[i].p_vaddr;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const ElfW(Dyn) *)((const char *)base + ph[i].p_offset);
		}
	}
	if (!have_load || !dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *p = (const void *)(img->bias + dyn->d_un.d_ptr);

		switch (dyn->d_tag) {
		case DT_STRTAB: img->strtab = p; break;
		case DT_SYMTAB: img->symtab = p; break;
		case DT_HASH: img->hash = p; break;
		case DT_GNU_HASH: img->gnu_hash = p; break;
		case DT_VERSYM: img->versym = p; break;
		case DT_VERDEF: img->verdef = p; break;
		default: break;
		}
	}
	if (!img->strtab || !img->symtab || (!img->hash && !img->gnu_hash))
		return -1;
	return 0;
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0, g;

	for (; *s; s++) {
		h = (h << 4) + (unsigned char)*s;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* Whether symbol i carries the version named version (DT_VERSYM index into DT_VERDEF). */
static int version_matches(const struct vdso_image *img, uint32_t i, const char *version)
{
	const ElfW(Verdef) *vd = img->verdef;
	ElfW(Half) want;

	if (!version)
		return 1;
	if (!img->versym || !vd)
		return 0;
	want = img->versym[i] & 0x7fff;
	for (;;) {
		if (!(vd->vd_flags & VER_FLG_BASE) && (vd->vd_ndx & 0x7fff) == want) {
			const ElfW(Verdaux) *aux = (const void *)((const char *)vd + vd->vd_aux);

			return strcmp(img->strtab + aux->vda_name, version) == 0;
		}
		if (!vd->vd_next)
			return 0;
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
}

static void *symbol_if_match(const struct vdso_image *img, uint32_t i, const char *name, const char *version)
{
	const ElfW(Sym) *sym = &img->symtab[i];
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_NOTYPE))
		return NULL;
	if (bind != STB_GLOBAL && bind != STB_WEAK)
		return NULL;
	if (strcmp(img->strtab + sym->st_name, name) != 0 || !version_matches(img, i, version))
		return NULL;
	return (void *)(img->bias + sym->st_value);
}

static void *lookup_gnu(const struct vdso_image *img, const char *name, const char *version)
{
	const uint32_t *h = img->gnu_hash;
	uint32_t nbuckets = h[0], symoffset = h[1], bloom_size = h[2];
	const uint32_t *buckets = (const uint32_t *)((const uint64_t *)(h + 4) + bloom_size);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t hash = gnu_hash(name), i;

	if (nbuckets == 0)
		return NULL;
	i = buckets[hash % nbuckets];
	if (i < symoffset)
		return NULL;
	for (;; i++) {
		uint32_t ch = chain[i - symoffset];

		if ((ch | 1) == (hash | 1)) {
			void *p = symbol_if_match(img, i, name, version);

			if (p)
				return p;
		}
		if (ch & 1)
			return NULL;
	}
}

static void *lookup_sysv(const struct vdso_image *img, const char *name, const char *version)
{
	uint32_t nbucket = img->hash[0], nchain = img->hash[1];
	const uint32_t *bucket = img->hash + 2, *chain = bucket + nbucket;

	if (nbucket == 0)
		return NULL;
	for (uint32_t i = bucket[sysv_hash(name) % nbucket]; i != STN_UNDEF && i < nchain; i = chain[i]) {
		void *p = symbol_if_match(img, i, name, version);

		if (p)
			return p;
	}
	return NULL;
}

void *fr_vdso_sym(const void *base, const char *name, const char *version)
{
	struct vdso_image img;

	if (!base || image_open(base, &img) != 0)
		return NULL;
	if (img.gnu_hash)
		return lookup_gnu(&img, name, version);
	return lookup_sysv(&img, name, version);
}
