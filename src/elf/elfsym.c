/* SPDX-License-Identifier: MIT */
/* Finds a versioned dynamic symbol through an object's hash tables, independently of how the object got into memory. */
#include "elf/elfsym.h"

#include <elf.h>

#include "arch/arch.h"
#include "proc/readable.h"

int fr_elfsyms_from_dynamic(const ElfW(Dyn) *dyn, uintptr_t bias, int relocated, struct fr_elfsyms *out)
{
	/* What the loader added to the entries it relocates: the bias, or nothing. */
	uintptr_t moved = relocated ? 0 : bias;

	*out = (struct fr_elfsyms){ .bias = bias };
	if (!dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t v = dyn->d_un.d_ptr;

		switch (dyn->d_tag) {
		case DT_STRTAB: out->strtab = (const char *)(moved + v); break;
		case DT_SYMTAB: out->symtab = (ElfW(Sym) *)(moved + v); break;
		case DT_HASH: out->hash = (const uint32_t *)(moved + v); break;
		case DT_GNU_HASH: out->gnu_hash = (const uint32_t *)(moved + v); break;
		case DT_VERSYM: out->versym = (const ElfW(Half) *)(moved + v); break;
		/* Not among the entries glibc's loader relocates: always relative to the bias. */
		case DT_VERDEF: out->verdef = (const ElfW(Verdef) *)(bias + v); break;
		default: break;
		}
	}
	if (!out->strtab || !out->symtab || (!out->hash && !out->gnu_hash))
		return -1;
	return 0;
}

int fr_loader_relocated_dynamic(uintptr_t bias, unsigned phdr_flags)
{
#if defined(__GLIBC__) && !defined(__mips__) && !defined(__riscv)
	return bias != 0 && (phdr_flags & PF_W);
#else
	(void)bias;
	(void)phdr_flags;
	return 0;
#endif
}

int fr_elfsyms_from_phdrs(uintptr_t bias, const ElfW(Phdr) *ph, size_t phnum, struct fr_elfsyms *out)
{
	for (size_t i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			return fr_elfsyms_from_dynamic((const ElfW(Dyn) *)(bias + ph[i].p_vaddr), bias,
						       fr_loader_relocated_dynamic(bias, ph[i].p_flags), out);
	*out = (struct fr_elfsyms){ .bias = bias };
	return -1;
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

uint32_t fr_elf_hash(const char *s)
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

const char fr_elfsym_default[] = "";
const char fr_elfsym_data[] = "";

/*
 * Whether symbol i carries the version named version (DT_VERSYM index into DT_VERDEF); with
 * fr_elfsym_default, whether it is what an unversioned reference binds to: not a hidden
 * (non-default) version.
 */
static int version_matches(const struct fr_elfsyms *s, uint32_t i, const char *version)
{
	const ElfW(Verdef) *vd = s->verdef;
	ElfW(Half) want;

	if (!version)
		return 1;
	if (version == fr_elfsym_default || version == fr_elfsym_data)
		return !s->versym || !(s->versym[i] & 0x8000);
	if (!s->versym || !vd)
		return 0;
	want = s->versym[i] & 0x7fff;
	for (;;) {
		if (!(vd->vd_flags & VER_FLG_BASE) && (vd->vd_ndx & 0x7fff) == want) {
			const ElfW(Verdaux) *aux = (const void *)((const char *)vd + vd->vd_aux);

			return fr_streq(s->strtab + aux->vda_name, version);
		}
		if (!vd->vd_next)
			return 0;
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
}

static int symbol_matches(const struct fr_elfsyms *s, uint32_t i, const char *name, const char *version)
{
	const ElfW(Sym) *sym = &s->symtab[i];
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
	int typed = type == STT_FUNC || type == STT_NOTYPE || (type == STT_GNU_IFUNC && version == fr_elfsym_default) ||
		    (type == STT_OBJECT && version == fr_elfsym_data);

	if (sym->st_shndx == SHN_UNDEF || !typed)
		return 0;
	if (bind != STB_GLOBAL && bind != STB_WEAK)
		return 0;
	return fr_streq(s->strtab + sym->st_name, name) && version_matches(s, i, version);
}

/* The parts of a DT_GNU_HASH table. */
struct gnu_parts {
	uint32_t nbuckets, symoffset;
	const uint32_t *buckets, *chain;
};

static struct gnu_parts gnu_split(const uint32_t *h)
{
	struct gnu_parts g = { h[0], h[1], NULL, NULL };

	/* The Bloom filter's words are the ELF class's addresses: 64 bits, or 32 on a 32-bit ABI (arm). */
	g.buckets = (const uint32_t *)((const ElfW(Addr) *)(h + 4) + h[2]);
	g.chain = g.buckets + g.nbuckets;
	return g;
}

static long find_gnu(const struct fr_elfsyms *s, const char *name, const char *version)
{
	struct gnu_parts g = gnu_split(s->gnu_hash);
	uint32_t hash = gnu_hash(name), i;

	if (g.nbuckets == 0)
		return -1;
	i = g.buckets[hash % g.nbuckets];
	if (i < g.symoffset)
		return -1;
	for (;; i++) {
		uint32_t ch = g.chain[i - g.symoffset];

		if ((ch | 1) == (hash | 1) && symbol_matches(s, i, name, version))
			return (long)i;
		if (ch & 1)
			return -1;
	}
}

static long find_sysv(const struct fr_elfsyms *s, const char *name, const char *version)
{
	uint32_t nbucket = s->hash[0], nchain = s->hash[1];
	const uint32_t *bucket = s->hash + 2, *chain = bucket + nbucket;

	if (nbucket == 0)
		return -1;
	for (uint32_t i = bucket[fr_elf_hash(name) % nbucket]; i != STN_UNDEF && i < nchain; i = chain[i]) {
		if (symbol_matches(s, i, name, version))
			return (long)i;
	}
	return -1;
}

long fr_elfsyms_find(const struct fr_elfsyms *s, const char *name, const char *version)
{
	if (s->gnu_hash)
		return find_gnu(s, name, version);
	if (s->hash)
		return find_sysv(s, name, version);
	return -1;
}

void *fr_elfsyms_lookup(const struct fr_elfsyms *s, const char *name, const char *version)
{
	long i = fr_elfsyms_find(s, name, version);

	return i < 0 ? NULL : (void *)(s->bias + s->symtab[i].st_value);
}

void *fr_elfsyms_lookup_default(const struct fr_elfsyms *s, const char *name)
{
	long i = fr_elfsyms_find(s, name, fr_elfsym_default);
	uintptr_t addr;

	if (i < 0)
		return NULL;
	addr = s->bias + s->symtab[i].st_value;
	/* What the loader binds to: the resolver's answer, called as the architecture's loader calls it. */
	if (ELF64_ST_TYPE(s->symtab[i].st_info) == STT_GNU_IFUNC)
		return fr_arch_ifunc_call((void *)addr);
	return (void *)addr;
}

/*
 * Whether every page of [base, base + upto) can be read now, asking only about the pages past
 * *done, which it moves on: protection is per page, so one word of each page answers for it.
 */
static int readable_to(uintptr_t base, uintptr_t *done, uintptr_t upto)
{
	if (upto > UINTPTR_MAX - base - 4096)
		return 0;
	for (; *done < base + upto; *done += 4096)
		if (fr_word_readable((const volatile void *)*done) != 1)
			return 0;
	return 1;
}

uintptr_t fr_elf_image_end(const void *base)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	uintptr_t b = (uintptr_t)base, done = b & ~(uintptr_t)4095, end = 0;

	/*
	 * The program may have unmapped the image, or made it PROT_NONE, since the kernel gave its
	 * address (the vDSO's, which libc itself never reads again after start-up): every page is
	 * asked about before it is read, the header's first, then the program headers', then the rest.
	 */
	if (!base || !readable_to(b, &done, sizeof(*eh)) || !fr_elf_is_header(eh) ||
	    eh->e_phoff > FR_ELF_IMAGE_MAX || !readable_to(b, &done, eh->e_phoff + (uintptr_t)eh->e_phnum * sizeof(*ph)))
		return 0;
	ph = (const void *)((const char *)base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	/* The vDSO's section headers follow its one PT_LOAD; the kernel maps them with the rest. */
	if (end && eh->e_shoff > end && eh->e_shnum)
		end = eh->e_shoff + (uintptr_t)eh->e_shnum * eh->e_shentsize;
	if (!end || end > FR_ELF_IMAGE_MAX)
		return 0;
	end = (end + 4095) & ~(uintptr_t)4095;
	return readable_to(b, &done, end) ? b + end : 0;
}

size_t fr_elfsyms_count(const struct fr_elfsyms *s)
{
	struct gnu_parts g;
	uint32_t last = 0;

	if (s->hash)
		return s->hash[1];
	if (!s->gnu_hash)
		return 0;
	/* DT_GNU_HASH has no count: the highest bucket's chain ends at the last symbol. */
	g = gnu_split(s->gnu_hash);
	for (uint32_t b = 0; b < g.nbuckets; b++)
		if (g.buckets[b] > last)
			last = g.buckets[b];
	if (last < g.symoffset)
		return g.symoffset;
	while (!(g.chain[last - g.symoffset] & 1))
		last++;
	return (size_t)last + 1;
}
