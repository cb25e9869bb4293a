/* SPDX-License-Identifier: MIT */
/* Finds the loader's r_debug before this object is relocated, from the auxiliary vector and the dynamic linker's own symbol table. */
#define _GNU_SOURCE
#include "elf/early.h"

#include <elf.h>
#include <stdint.h>

#include "elf/elfsym.h"
#include "arch/arch.h"
#include "arch/auxv.h"
#include "base/once.h"
#include "base/libc.h"
#include "proc/readable.h"

void *const fr_self_ref = (void *)&fr_self_ref;

#if FR_LIBC_GLIBC
/*
 * The kernel's auxiliary vector on the initial stack, noted by note_stack; NULL until then. The
 * kernel writes it once, before the program starts, and nothing writes it after.
 */
static const unsigned long *stack_auxv;

/* Words of the NULL run between envp and the vector (see note_stack): more is not a vector. */
#define NULL_RUN_MAX 64

#if FR_ARCH_MUSL_GUARD
/*
 * An IRELATIVE relocation, which musl's loader refuses (it has no IFUNC): a glibc build preloaded
 * into a musl program stops it from starting (exit status 127) rather than run code that trusts
 * glibc, note_stack's arguments first (musl calls init_array functions with none). The library
 * imports nothing musl lacks any more, and musl answers libc.so.6 with itself. glibc calls the
 * resolver while relocating this object: it only returns an address, PC-relative. Never called.
 */
static void musl_refuses_this(void)
{
}

__attribute__((used)) static void (*resolve_refused(void))(void)
{
	return musl_refuses_this;
}

static void glibc_only(void) __attribute__((ifunc("resolve_refused")));
__attribute__((used)) static void (*const glibc_only_ref)(void) = glibc_only;
#endif

/*
 * glibc calls every init_array function with (argc, argv, envp), argv as the kernel laid it on
 * the initial stack: argv's pointers, NULL, envp's, NULL, then the auxiliary vector. A priority
 * entry runs ahead of this object's plain ones (its constructor), so that finding ld.so needs no
 * system call: the kernel's copy of the vector costs a prctl (Linux 6.4+) or /proc/self/auxv
 * (three calls and a file), and a seccomp filter installed later may refuse them. unsetenv
 * shifts the stack's own array down in place, leaving a run of NULLs before the vector, whose
 * first type is never AT_NULL.
 */
static void __attribute__((constructor(101))) note_stack(int argc, char **argv, char **envp)
{
	char **p;
	int nulls = 0;

	/*
	 * Checked before anything is read: envp follows argv's NULL, as the kernel laid them out,
	 * unless environ was replaced before a dlopen (then the kernel's copy will be asked).
	 */
	if (argc < 0 || !argv || envp != argv + argc + 1 || argv[argc])
		return;
	for (p = argv + argc + 1; *p; p++)
		;
	while (!*p && nulls++ < NULL_RUN_MAX)
		p++;
	if (*p)
		stack_auxv = (const unsigned long *)p;
}

/*
 * AT_BASE, or in its absence what stands for it, from the vector on the stack once note_stack
 * has run, else from the kernel's copy: before our constructor (another object's IFUNC resolver
 * or constructor, an executable's preinit array) nothing else can tell. *probe says whether the
 * header there must be probed before it is read: not where the stack's AT_BASE gave it, the
 * interpreter the kernel mapped and that is running this process.
 */
static uintptr_t ldso_base(int *probe)
{
	unsigned long v[FR_AUXV_WORDS];
	const unsigned long *a = stack_auxv;
	long n = (long)sizeof(v);
	uintptr_t base;

	*probe = 0;
	if (a && (base = fr_auxv_find(a, n, AT_BASE)) != 0)
		return base;
	*probe = 1;
	/*
	 * ld.so run as the program (`ld.so ./prog`, `ld.so --preload`): the kernel loaded no
	 * interpreter, so AT_BASE is 0, and what it mapped is ld.so itself, whose program headers
	 * (AT_PHDR) follow its ELF header in its first page. Only the kernel's copy still says so:
	 * glibc 2.35 and later rewrite the stack's AT_PHDR to the program's once they load it.
	 */
	n = fr_auxv_read(v, sizeof(v));
	if (n <= 0)
		return 0;
	base = fr_auxv_find(v, n, AT_BASE);
	if (!base)
		base = fr_auxv_find(v, n, AT_PHDR) & ~(uintptr_t)4095;
	return base;
}

/*
 * ld.so's dynamic tables, from its ELF image at base. The kernel gives AT_BASE as the
 * interpreter's load bias, which is where its ELF header lies when it is linked at 0, as every
 * glibc's is: the header is probed first when probe says so (futex, which sandboxes allow: libc's
 * locks need it), and must say so (its first PT_LOAD at 0).
 */
static int ldso_from(uintptr_t base, int probe, struct fr_elfsyms *out)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;

	if (!base || (probe && fr_word_readable(eh) != 1) || !fr_elf_is_header(eh) || eh->e_ident[EI_CLASS] != FR_ELF_CLASS)
		return -1;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr != 0)
			return -1;
		break;
	}
	return fr_elfsyms_from_phdrs(base, ph, eh->e_phnum, out);
}

/*
 * What the first search found, kept, as fr_libc_tables keeps libc's: only the thread that claims
 * the record writes it; a racer, or a handler interrupting the claimer, searches on its own.
 */
static int ldso_state = FR_KEEP_NONE;
static struct fr_elfsyms ldso_kept;

static int ldso_tables(struct fr_elfsyms *out)
{
	int probe;
	uintptr_t base;

	if (fr_keep_ready(&ldso_state)) {
		*out = ldso_kept;
		return 0;
	}
	base = ldso_base(&probe);
	if (ldso_from(base, probe, out) != 0)
		return -1;
	if (fr_keep_claim(&ldso_state)) {
		ldso_kept = *out;
		fr_keep_done(&ldso_state, 1);
	}
	return 0;
}

/* The address of one of ld.so's data objects, looked up once into slot; NULL if not found. */
static void *ldso_data(void **slot, const char *name)
{
	struct fr_elfsyms s;
	void *p = fr_once_get(slot);

	if (p)
		return p;
	if (ldso_tables(&s) != 0)
		return NULL;
	return fr_once_put(slot, fr_elfsyms_lookup(&s, name, fr_elfsym_data));
}

static void *rdebug_slot, *stack_end_slot;

/*
 * ld.so's _r_debug, found in its own tables rather than imported: an import would make the
 * loader look it up, check its version and match a DT_NEEDED entry for ld.so in every process.
 */
const struct r_debug *fr_rdebug(void)
{
	return ldso_data(&rdebug_slot, "_r_debug");
}

void *fr_stack_end(void)
{
	void *const *p = ldso_data(&stack_end_slot, "__libc_stack_end");

	return p ? *p : NULL;
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

/* Computed once (base/once.h): racers compute the same pointer. */
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
	r = fr_once_get((void *const *)&found);
	if (r)
		return r;
	r = &_dl_debug_addr && _dl_debug_addr ? _dl_debug_addr : from_program();
	return fr_once_put((void **)&found, (void *)r);
}

/* musl keeps no __libc_stack_end: it sets environ before any code of ours runs. */
void *fr_stack_end(void)
{
	return NULL;
}
#endif
