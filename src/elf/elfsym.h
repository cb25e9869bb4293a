/* SPDX-License-Identifier: MIT */
/* Versioned dynamic-symbol lookup by DT_GNU_HASH or DT_HASH, for any loaded ELF object or image. */
#ifndef FR_ELFSYM_H
#define FR_ELFSYM_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

/* This process's ELF class: what its loader, its libc and its vDSO are (ElfW's width). */
#if __SIZEOF_POINTER__ == 8
#define FR_ELF_CLASS ELFCLASS64
#else
#define FR_ELF_CLASS ELFCLASS32
#endif

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * String equality without libc: these paths run inside dlsym, which a sanitizer runtime calls
 * while setting up, before its own strcmp interceptor can forward anywhere.
 */
static inline int fr_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Whether eh starts with the ELF magic: byte by byte, no libc call (also before relocation). */
static inline int fr_elf_is_header(const ElfW(Ehdr) *eh)
{
	return eh->e_ident[EI_MAG0] == ELFMAG0 && eh->e_ident[EI_MAG1] == ELFMAG1 && eh->e_ident[EI_MAG2] == ELFMAG2 &&
	       eh->e_ident[EI_MAG3] == ELFMAG3;
}

/* The dynamic tables of one object, as addresses in this process. */
struct fr_elfsyms {
	uintptr_t bias; /* added to st_value */
	const char *strtab;
	ElfW(Sym) *symtab;
	const uint32_t *hash;
	const uint32_t *gnu_hash;
	const ElfW(Half) *versym;
	const ElfW(Verdef) *verdef;
};

/*
 * Fills out from a _DYNAMIC array and the object's load bias. relocated says whether the loader
 * added the bias to the entries it relocates in place (fr_loader_relocated_dynamic): then
 * DT_STRTAB, DT_SYMTAB, DT_HASH, DT_GNU_HASH and DT_VERSYM are addresses, else offsets from the
 * bias as in the file; DT_VERDEF is always an offset. Returns 0, or -1 without a string table, a
 * symbol table or a hash table.
 */
int fr_elfsyms_from_dynamic(const ElfW(Dyn) *dyn, uintptr_t bias, int relocated, struct fr_elfsyms *out);

/*
 * Whether this libc's loader rewrote, in memory, the dynamic section of an object loaded with
 * this bias whose PT_DYNAMIC has these flags (docs/kernel-data.md §12, the loader's view):
 * glibc adds the bias to a fixed list of entries unless the bias is 0 or (since 2.35) PT_DYNAMIC
 * is read-only (the vDSO's is), except on MIPS and RISC-V; musl never does. Older glibc would
 * have faulted writing a read-only one, so the rule holds for every glibc a process runs on.
 */
int fr_loader_relocated_dynamic(uintptr_t bias, unsigned phdr_flags);

/*
 * Fills out from a loaded object's program headers and load bias (a dl_iterate_phdr entry):
 * its PT_DYNAMIC, read by fr_loader_relocated_dynamic's rule. Returns 0 or -1.
 */
int fr_elfsyms_from_phdrs(uintptr_t bias, const ElfW(Phdr) *ph, size_t phnum, struct fr_elfsyms *out);

/* The ELF (DT_HASH) hash of a name; also what glibc's loader compares version names by first. */
uint32_t fr_elf_hash(const char *s);

/*
 * The index of the defined FUNC or NOTYPE, GLOBAL or WEAK symbol name@version (version NULL:
 * any), or -1. Reads only the tables: no allocation, no locks, async-signal-safe.
 */
long fr_elfsyms_find(const struct fr_elfsyms *s, const char *name, const char *version);

/* The address of that symbol (bias + st_value), or NULL. */
void *fr_elfsyms_lookup(const struct fr_elfsyms *s, const char *name, const char *version);

/*
 * As a version for fr_elfsyms_find: the definition an unversioned reference binds to (no version
 * table, or a version not marked hidden); IFUNC symbols count too. Compared by address.
 */
extern const char fr_elfsym_default[];

/* As a version for fr_elfsyms_find: the default version of a data object (STT_OBJECT) instead. */
extern const char fr_elfsym_data[];

/*
 * The address an unversioned reference to name binds to in this object, or NULL: the default
 * version of a FUNC, NOTYPE or IFUNC symbol, an IFUNC's resolver called (it must be safe to call
 * at any time, as the loader's own lazy binding assumes).
 */
void *fr_elfsyms_lookup_default(const struct fr_elfsyms *s, const char *name);

/* The largest image fr_elf_image_end measures (1 MiB: a vDSO is a few pages). */
#define FR_ELF_IMAGE_MAX ((uintptr_t)1 << 20)

/*
 * The end of the ELF image mapped at base: base plus the furthest PT_LOAD's file extent, or the
 * end of the section header table when that lies further, rounded up to a page. 0 when base is
 * not an ELF image, or when any page of it cannot be read now (unmapped or PROT_NONE, asked of
 * the kernel page by page before it is read: fr_word_readable, one futex call per page, so no
 * signal). An image unmapped after it returns is not its concern: the caller races the program.
 */
uintptr_t fr_elf_image_end(const void *base);

/* The number of entries of the dynamic symbol table, as its hash tables bound it. */
size_t fr_elfsyms_count(const struct fr_elfsyms *s);

#pragma GCC visibility pop

#endif
