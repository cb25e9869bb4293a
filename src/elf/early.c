/* SPDX-License-Identifier: MIT */
/* Finds the loader's r_debug before this object is relocated, from the auxiliary vector and the dynamic linker's own symbol table. */
#define _GNU_SOURCE
#include "elf/early.h"

#include <elf.h>
#include <stdint.h>

#include "elf/elfsym.h"
#include "arch/auxv.h"
#include "base/libc.h"
#include "proc/readable.h"

void *const fr_self_ref = (void *)&fr_self_ref;

#if FR_LIBC_GLIBC
/*
 * ld.so's _r_debug, from its ELF image at AT_BASE. The kernel gives AT_BASE as the interpreter's
 * load bias, which is where its ELF header lies when it is linked at 0, as every glibc's is: the
 * header is probed before it is read, and must say so (its first PT_LOAD at 0).
 */
static const struct r_debug *from_interpreter(uintptr_t base)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;
	struct fr_elfsyms s;

	if (!base || fr_readable(eh) != 1 || !fr_elf_is_header(eh) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr != 0)
			return NULL;
		break;
	}
	if (fr_elfsyms_from_phdrs(base, ph, eh->e_phnum, &s) != 0)
		return NULL;
	return fr_elfsyms_lookup(&s, "_r_debug", fr_elfsym_data);
}

/* Written once, before relocation, by the one thread the loader runs then; read-only after. */
static const struct r_debug *early;

const struct r_debug *fr_rdebug(void)
{
	unsigned long v[FR_AUXV_WORDS];
	uintptr_t base;
	long n;

	if (fr_relocated())
		return &_r_debug;
	if (early)
		return early;
	n = fr_auxv_read(v, sizeof(v));
	if (n <= 0)
		return NULL;
	/*
	 * ld.so run as the program (`ld.so ./prog`, `ld.so --preload`): the kernel loaded no
	 * interpreter, so AT_BASE is 0, and what it mapped is ld.so itself, whose program headers
	 * (AT_PHDR) follow its ELF header in its first page. from_interpreter checks either.
	 */
	base = fr_auxv_find(v, n, AT_BASE);
	if (!base)
		base = fr_auxv_find(v, n, AT_PHDR) & ~(uintptr_t)4095;
	early = from_interpreter(base);
	return early;
}
#else
/*
 * musl's dynamic linker (libc.so itself) has no _r_debug. It exports the address of its debug
 * struct, laid out as struct r_debug, as _dl_debug_addr (weak here: not a promise of its ABI),
 * and writes the same address into the program's DT_DEBUG entry, as debuggers expect.
 */
extern struct r_debug *_dl_debug_addr __attribute__((weak));

/* The program's DT_DEBUG value, from its program headers (AT_PHDR, AT_PHNUM); NULL if none. */
static const struct r_debug *from_program(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)fr_auxval_raw(AT_PHDR);
	unsigned long phnum = fr_auxval_raw(AT_PHNUM);
	uintptr_t bias = 0;
	const ElfW(Dyn) *dyn = NULL;

	if (!ph)
		return NULL;
	for (unsigned long i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	for (unsigned long i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(bias + ph[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == DT_DEBUG)
			return (const struct r_debug *)dyn->d_un.d_ptr;
	return NULL;
}

/* Racers compute the same pointer: publishing twice is harmless. */
static const struct r_debug *found;

/*
 * musl relocates every object before it runs any code of theirs (it has no IFUNC), so nothing
 * reaches this before our relocation; if something did, there would be no list to give.
 */
const struct r_debug *fr_rdebug(void)
{
	const struct r_debug *r;

	if (!fr_relocated())
		return NULL;
	r = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
	if (r)
		return r;
	r = &_dl_debug_addr && _dl_debug_addr ? _dl_debug_addr : from_program();
	if (r)
		__atomic_store_n(&found, r, __ATOMIC_RELEASE);
	return r;
}
#endif
